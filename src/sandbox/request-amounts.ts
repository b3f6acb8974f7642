import { reaisToCents } from '../domain/money.js';
import { fail, ok, type Result } from '../domain/result.js';

/** Amounts of requests, read as a dialect chooses; every result is in centavos. */

/** A positive integer number of centavos (1107 is R$ 11,07); anything else is refused. */
export function centavosAmount(value: unknown): Result<number> {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) return fail('must be a positive integer number of centavos');
  return ok(value);
}

/** Reais above zero, as a number or a decimal text with at most two decimals: 110.07 or "110.07" (1107 is R$ 1.107,00). */
export function reaisAmount(value: unknown): Result<number> {
  if (value === undefined || value === null) return fail('is required');
  if (typeof value !== 'number' && typeof value !== 'string') return fail('must be a number of reais, like 123.45 or "123.45"');
  const cents = reaisToCents(value);
  if (!cents.ok) return cents;
  return cents.value === 0 ? fail('must be greater than zero') : cents;
}
