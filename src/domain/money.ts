import { fail, ok, type Result } from './result.js';
import type { AmountReason } from './validation-reason.js';

const MAX_CENTS = BigInt(Number.MAX_SAFE_INTEGER);
const MAX_EXACT_REAIS = 1e13;

// Regular, non-breaking (U+00A0) and narrow non-breaking (U+202F) spaces: Intl and spreadsheets emit all three.
const SPACES = /[\s\u00a0\u202f]+/g;

/**
 * Parses an amount in reais as people write it in a sheet and returns it in centavos.
 *
 * Accepts `1.234,56`, `1234,56`, `1234.56`, `1,234,567.89`, `R$ 1.234,56`, `R$1234`, `1234`, `0,50`, `10,5` (= 1050),
 * with spaces around, after "R$" or grouping thousands ("1 234,56"). Refuses, with a reason: empty text, negatives (`-10`, `(10,00)`), zero,
 * letters, more than two decimals, misplaced separators (`1.23,45`), values whose centavos exceed
 * Number.MAX_SAFE_INTEGER, and `1,234` / `1.234` alone, which could be a thousand or a decimal.
 */
export function parseAmount(text: string): Result<number, AmountReason> {
  const cents = commonAmount(text);
  return cents > 0 ? ok(cents) : parseAnyAmount(text);
}

// Character codes read by `commonAmount`.
const DIGIT_0 = 0x30;
const COMMA = 0x2c;
const DOT = 0x2e;
const SPACE = 0x20;
const DOLLAR = 0x24;

/**
 * The centavos of an amount in one of the shapes most cells have, read in one pass without a string or a regular
 * expression (a sheet has one amount a row): an optional `R$` and one space, then `1234`, `1234,56`, `1234.5`, or
 * `1.234,56` / `1,234.56` (groups of three, then the other mark and one or two decimals), at most 13 digits of
 * reais (exact as a double). 0 for anything else, zero included, which `parseAnyAmount` reads, accepts or refuses.
 */
function commonAmount(text: string): number {
  const length = text.length;
  let i = 0;
  const r = text.charCodeAt(0);
  if ((r === 0x52 || r === 0x72) && text.charCodeAt(1) === DOLLAR) i = text.charCodeAt(2) === SPACE ? 3 : 2;
  let reais = 0;
  let digits = 0;
  // The group mark when groups of three were read; 0 before any mark.
  let group = 0;
  let run = 0;
  for (; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c >= DIGIT_0 && c <= DIGIT_0 + 9) {
      reais = reais * 10 + (c - DIGIT_0);
      digits++;
      run++;
      continue;
    }
    if (c !== COMMA && c !== DOT) return 0;
    if (run === 0 || digits > 13) return 0;
    if (c === group) {
      if (run !== 3) return 0;
    } else if (group === 0 && run <= 3 && isGroupAfter(text, i)) {
      group = c;
    } else {
      // The decimal mark: after groups it must be the other mark and the last three groups whole.
      if (group !== 0 && run !== 3) return 0;
      const decimals = length - i - 1;
      if (decimals < 1 || decimals > 2) return 0;
      let fraction = 0;
      for (let d = i + 1; d < length; d++) {
        const f = text.charCodeAt(d) - DIGIT_0;
        if (f < 0 || f > 9) return 0;
        fraction = fraction * 10 + f;
      }
      return reais * 100 + (decimals === 1 ? fraction * 10 : fraction);
    }
    run = 0;
  }
  // Whole reais: groups without a decimal mark (`1.234` is ambiguous) are left to the full reading.
  if (group !== 0 || run === 0 || digits > 13) return 0;
  return reais * 100;
}

/** True when the mark at `at` is followed by exactly three digits and then another mark (a group, not decimals). */
function isGroupAfter(text: string, at: number): boolean {
  for (let d = at + 1; d <= at + 3; d++) {
    const c = text.charCodeAt(d);
    if (!(c >= DIGIT_0 && c <= DIGIT_0 + 9)) return false;
  }
  const next = text.charCodeAt(at + 4);
  return next === COMMA || next === DOT;
}

/** `parseAmount` for every text: spaces, signs, currency and each way of getting an amount wrong. */
function parseAnyAmount(text: string): Result<number, AmountReason> {
  const spaced = text.replace(SPACES, ' ').trim();
  if (spaced === '') return fail({ code: 'amount_empty' });
  // Minus before or after the number, or accounting parentheses, with or without the currency sign.
  if (/^-|-$|^(R\$)?\(.*\)$|^\(R\$.*\)$|^R\$-/i.test(spaced.replaceAll(' ', ''))) {
    return fail({ code: 'amount_negative', text: spaced });
  }
  let body = spaced.replace(/^R\$ ?/i, '');
  if (body === '') return fail({ code: 'amount_no_digits' });
  if (!/^[0-9., ]+$/.test(body)) return fail({ code: 'amount_characters', text: spaced });
  if (body.includes(' ')) {
    // A space inside the number may only group thousands ("1 234,56"); "12 34" is a typo, not 1234.
    if (!/^\d{1,3}(?: \d{3})+(?:[.,]\d*)?$/.test(body)) return fail({ code: 'amount_space', text: spaced });
    body = body.replaceAll(' ', '');
  }

  const split = splitAmount(body, spaced);
  if (!split.ok) return split;
  const { whole, fraction } = split.value;

  const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  if (cents === 0n) return fail({ code: 'amount_zero' });
  if (cents > MAX_CENTS) return fail({ code: 'amount_too_large', text: spaced });
  return ok(Number(cents));
}

/**
 * Splits the text (digits, "." and "," only) into whole reais and 0–2 decimal digits, deciding which mark is decimal;
 * a refusal names `text`, the amount as given.
 */
function splitAmount(body: string, text: string): Result<{ whole: string; fraction: string }, AmountReason> {
  const hasDot = body.includes('.');
  const hasComma = body.includes(',');

  if (!hasDot && !hasComma) return ok({ whole: body, fraction: '' });

  if (hasDot && hasComma) {
    // With both marks, the last one is the decimal mark and the other may only group thousands.
    const decimalMark = body.lastIndexOf(',') > body.lastIndexOf('.') ? ',' : '.';
    const groupMark = decimalMark === ',' ? '.' : ',';
    const at = body.lastIndexOf(decimalMark);
    const intPart = body.slice(0, at);
    const fraction = body.slice(at + 1);
    if (intPart.includes(decimalMark)) return fail({ code: 'amount_mark_twice', text, mark: decimalMark });
    if (!isGrouped(intPart, groupMark)) return fail({ code: 'amount_misplaced_group', text, mark: groupMark });
    const checked = checkFraction(fraction, text);
    if (checked !== null) return fail(checked);
    return ok({ whole: intPart.split(groupMark).join(''), fraction });
  }

  const mark = hasComma ? ',' : '.';
  const parts = body.split(mark);
  if (parts.length > 2) {
    // Repeated, the mark can only be a thousands separator: "1.234.567" or "1,234,567".
    if (!isGrouped(body, mark)) return fail({ code: 'amount_misplaced_group', text, mark });
    return ok({ whole: parts.join(''), fraction: '' });
  }

  const [intPart = '', fraction = ''] = parts;
  if (intPart === '') return fail({ code: 'amount_digit_before_mark', text, mark, fraction });
  if (fraction.length === 3 && /^[1-9]\d{0,2}$/.test(intPart)) {
    return fail({ code: 'amount_ambiguous_mark', text, mark, whole: intPart, fraction });
  }
  const checked = checkFraction(fraction, text);
  if (checked !== null) return fail(checked);
  return ok({ whole: intPart, fraction });
}

function checkFraction(fraction: string, text: string): AmountReason | null {
  if (fraction === '') return { code: 'amount_no_decimals', text };
  if (fraction.length > 2) return { code: 'amount_too_many_decimals', text };
  return null;
}

/** True when `text` is digits in groups of three after a first group of 1–3, joined by `mark`: "1.234.567". */
function isGrouped(text: string, mark: string): boolean {
  const groups = text.split(mark);
  const [first = '', ...rest] = groups;
  return /^\d{1,3}$/.test(first) && rest.length > 0 && rest.every((g) => /^\d{3}$/.test(g));
}

/**
 * Formats centavos as Brazilian currency: 123456 → "R$ 1.234,56", 5 → "R$ 0,05", -100 → "-R$ 1,00".
 * Uses a plain space (not Intl's U+00A0) so the text is stable in terminals, files and tests.
 * Throws RangeError when `cents` is not a safe integer (a programming error, never user input).
 */
export function formatBRL(cents: number): string {
  const { sign, whole, fraction } = splitCents(cents);
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, '.');
  return `${sign}R$ ${grouped},${fraction}`;
}

/**
 * Formats centavos as plain reais with a dot and two decimals, for APIs and logs: 123456 → "1234.56", -5 → "-0.05".
 * Throws RangeError when `cents` is not a safe integer.
 */
export function formatReais(cents: number): string {
  const { sign, whole, fraction } = splitCents(cents);
  return `${sign}${whole}.${fraction}`;
}

/**
 * Converts centavos to a reais number for JSON bodies of the bill APIs: 123456 → 1234.56.
 * Goes through the decimal text, so the result is the double nearest to the exact value (no `cents / 100` drift).
 * A double holds two exact decimals only up to 15 significant digits (R$ 9.999.999.999.999,99); beyond that, JSON
 * numbers of reais cannot be exact whatever paybatch does.
 * Throws RangeError when `cents` is not a safe integer.
 */
export function centsToReais(cents: number): number {
  return Number(formatReais(cents));
}

/**
 * Converts a provider's reais value to centavos: 1234.56, "1234.56" or "1234.5" → 123456; 0 is allowed.
 * Refuses NaN, infinities, negatives, more than two decimals (including float noise such as 0.30000000000000004),
 * exponent notation, anything but `digits[.digits]` in a string, numbers of R$ 10 trillion or more (a double is not
 * exact there; strings are), and values beyond Number.MAX_SAFE_INTEGER centavos.
 */
export function reaisToCents(value: number | string): Result<number> {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return fail(`amount ${String(value)} is not a number`);
    if (value < 0) return fail(`negative amount ${String(value)}`);
    // Past 15 significant digits a double cannot tell .90 from .91, so the centavos would be a guess.
    if (value >= MAX_EXACT_REAIS) return fail(`amount ${String(value)} is too large to be exact as a number`);
    // String(n) is the shortest text that reads back as n, so 1234.56 gives "1234.56" exactly.
    text = String(value);
  } else {
    text = value.trim();
  }
  if (text.startsWith('-')) return fail(`negative amount "${text}"`);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return fail(`amount "${text}" is not a decimal number of reais`);
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  if (fraction.length > 2) return fail(`amount "${text}" has more than two decimal places`);
  const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  if (cents > MAX_CENTS) return fail(`amount "${text}" is too large`);
  return ok(Number(cents));
}

function splitCents(cents: number): { sign: string; whole: string; fraction: string } {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`centavos must be a safe integer, got ${String(cents)}`);
  const digits = String(Math.abs(cents)).padStart(3, '0');
  return { sign: cents < 0 ? '-' : '', whole: digits.slice(0, -2), fraction: digits.slice(-2) };
}
