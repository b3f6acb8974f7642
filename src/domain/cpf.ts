import { mod11 } from './check-digits.js';
import { fail, ok, type Result } from './result.js';
import type { CpfReason } from './validation-reason.js';

/**
 * Normalizes a CPF to its 11 digits: "123.456.789-09", "123 456 789 09" → "12345678909".
 * Accepts the usual mask characters (dots, dash, spaces); refuses any other character, a length other than 11,
 * all-equal digits ("111.111.111-11" passes the check digits but is not issued), and wrong check digits, with
 * its reason.
 */
export function normalizeCpf(input: string): Result<string, CpfReason> {
  const digits = input.replace(/[\s\u00a0.\-]/g, '');
  if (digits === '') return fail({ code: 'cpf_empty' });
  if (!/^\d+$/.test(digits)) return fail({ code: 'cpf_characters' });
  if (digits.length !== 11) {
    // Spreadsheets store a CPF as a number and drop its leading zeros; say so rather than guess.
    return fail({ code: 'cpf_length', length: digits.length, zerosLost: digits.length < 11 });
  }
  if (/^(\d)\1{10}$/.test(digits)) return fail({ code: 'cpf_all_equal' });
  const expected = cpfCheckDigits(digits.slice(0, 9));
  if (digits.slice(9) !== expected) return fail({ code: 'cpf_check_digits', expected });
  return ok(digits);
}

/**
 * Computes the two mod-11 check digits of a CPF from its first 9 digits: "123456789" → "09".
 * Throws RangeError unless `base9` is exactly 9 digits.
 */
export function cpfCheckDigits(base9: string): string {
  if (!/^\d{9}$/.test(base9)) throw new RangeError(`a CPF base must be 9 digits, got "${base9}"`);
  // A CPF's weights run 2, 3, … to the leftmost digit, never back to 2.
  const first = mod11(base9, Infinity);
  return `${first}${mod11(base9 + String(first), Infinity)}`;
}

/**
 * Formats 11 CPF digits with the usual mask: "12345678909" → "123.456.789-09".
 * Throws RangeError unless `digits11` is exactly 11 digits (format only normalized values).
 */
export function formatCpf(digits11: string): string {
  if (!/^\d{11}$/.test(digits11)) throw new RangeError(`a CPF must be 11 digits, got "${digits11}"`);
  return `${digits11.slice(0, 3)}.${digits11.slice(3, 6)}.${digits11.slice(6, 9)}-${digits11.slice(9)}`;
}
