import { mod11 } from './check-digits.js';
import { fail, ok, type Result } from './result.js';
import type { CnpjReason } from './validation-reason.js';

/**
 * Normalizes a CNPJ, numeric or alphanumeric, to its 14 characters: "12.abc.345/01de-35" → "12ABC34501DE35".
 * Accepts the mask characters (dots, slash, dash, spaces) and lower case. The first 12 characters are [0-9A-Z], the
 * last 2 are the numeric check digits (Receita Federal: each character is worth its ASCII code minus 48, weights
 * 2..9 cycling from the right, mod 11). Refuses other characters, a length other than 14, all-equal characters and
 * wrong check digits, with its reason.
 */
export function normalizeCnpj(input: string): Result<string, CnpjReason> {
  const chars = input.replace(/[\s\u00a0.\/\-]/g, '').toUpperCase();
  if (chars === '') return fail({ code: 'cnpj_empty' });
  if (!/^[0-9A-Z]+$/.test(chars)) return fail({ code: 'cnpj_characters' });
  if (chars.length !== 14) {
    return fail({ code: 'cnpj_length', length: chars.length, zerosLost: chars.length < 14 && /^\d+$/.test(chars) });
  }
  if (!/^\d\d$/.test(chars.slice(12))) return fail({ code: 'cnpj_digits_at_end' });
  if (/^(.)\1{13}$/.test(chars)) return fail({ code: 'cnpj_all_equal' });
  const expected = cnpjCheckDigits(chars.slice(0, 12));
  if (chars.slice(12) !== expected) return fail({ code: 'cnpj_check_digits', expected });
  return ok(chars);
}

/**
 * Computes the two check digits of a CNPJ from its first 12 characters ([0-9A-Z], upper case):
 * "112223330001" → "81", "12ABC34501DE" → "35". Throws RangeError on any other base.
 */
export function cnpjCheckDigits(base12: string): string {
  if (!/^[0-9A-Z]{12}$/.test(base12)) throw new RangeError(`a CNPJ base must be 12 characters [0-9A-Z], got "${base12}"`);
  const first = mod11(base12);
  return `${first}${mod11(base12 + String(first))}`;
}

/**
 * Formats a 14-character CNPJ with the usual mask: "12ABC34501DE35" → "12.ABC.345/01DE-35".
 * Throws RangeError unless `v14` is 12 characters [0-9A-Z] and 2 digits (format only normalized values).
 */
export function formatCnpj(v14: string): string {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(v14)) throw new RangeError(`a CNPJ must be 14 characters, got "${v14}"`);
  return `${v14.slice(0, 2)}.${v14.slice(2, 5)}.${v14.slice(5, 8)}/${v14.slice(8, 12)}-${v14.slice(12)}`;
}
