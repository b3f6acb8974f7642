import { fail, ok, type Result } from './result.js';
import type { PhoneReason } from './validation-reason.js';

/**
 * The 67 area codes (DDD) of Brazil's national numbering plan (ANATEL, Resolução nº 263/2001, PGCN).
 * Numbers in other two-digit codes (10, 20, 23, 25, 26, 29, 30, 36, 39, 40, 50, 52, 56–60, 70, 72, 76, 78, 80, 90)
 * do not exist.
 */
const AREA_CODES: ReadonlySet<string> = new Set([
  '11', '12', '13', '14', '15', '16', '17', '18', '19',
  '21', '22', '24', '27', '28',
  '31', '32', '33', '34', '35', '37', '38',
  '41', '42', '43', '44', '45', '46', '47', '48', '49',
  '51', '53', '54', '55',
  '61', '62', '63', '64', '65', '66', '67', '68', '69',
  '71', '73', '74', '75', '77', '79',
  '81', '82', '83', '84', '85', '86', '87', '88', '89',
  '91', '92', '93', '94', '95', '96', '97', '98', '99',
]);

/**
 * Normalizes a Brazilian mobile number to the Pix phone key form "+55DDNNNNNNNNN" (E.164).
 * Accepts "+55 11 98765-4321", "(11) 98765-4321", "5511987654321", "005511987654321", "011987654321" (trunk 0)
 * and "11987654321"; spaces, dots, dashes and parentheses are ignored. Refuses other countries, area codes that
 * do not exist, landlines (8 digits starting 2–5: they are not Pix keys) and subscriber numbers that are not
 * 9 digits starting with 9, with its reason.
 */
export function normalizePhone(input: string): Result<string, PhoneReason> {
  const compact = input.replace(/[\s\u00a0.\-()]/g, '');
  if (compact === '') return fail({ code: 'phone_empty' });
  if (!/^\+?\d+$/.test(compact)) return fail({ code: 'phone_characters' });

  let national: string;
  if (compact.startsWith('+')) {
    if (!compact.startsWith('+55')) return fail({ code: 'phone_foreign' });
    national = compact.slice(3);
  } else if (compact.startsWith('00')) {
    if (!compact.startsWith('0055')) return fail({ code: 'phone_foreign' });
    national = compact.slice(4);
  } else if (compact.startsWith('0')) {
    // Trunk prefix of a national call: 0 + area code + number.
    national = compact.slice(1);
  } else if (compact.startsWith('55') && (compact.length === 12 || compact.length === 13)) {
    national = compact.slice(2);
  } else {
    national = compact;
  }

  if (national.length !== 10 && national.length !== 11) {
    return fail({ code: 'phone_length', digits: national.length });
  }
  const areaCode = national.slice(0, 2);
  const subscriber = national.slice(2);
  if (!AREA_CODES.has(areaCode)) return fail({ code: 'phone_area_code', areaCode });
  if (subscriber.length === 8) {
    if (/^[2-5]/.test(subscriber)) return fail({ code: 'phone_landline' });
    return fail({ code: 'phone_eight_digits' });
  }
  if (!subscriber.startsWith('9')) return fail({ code: 'phone_not_mobile' });
  return ok(`+55${national}`);
}
