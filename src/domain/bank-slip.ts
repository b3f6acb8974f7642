/**
 * Bank slips (boleto bancário, "ficha de compensação", FEBRABAN): the 44-digit barcode, the 47-digit line,
 * their check digits and the due-date factor.
 *
 * Barcode (0-based): [0,3) bank code · [3] currency (9 = real) · [4] general check digit (mod 11) ·
 * [5,9) due-date factor · [9,19) amount in centavos · [19,44) free field of the issuing bank.
 * Line: field 1 = bank, currency, free[0,5) + mod-10 digit · field 2 = free[5,15) + mod-10 digit ·
 * field 3 = free[15,25) + mod-10 digit · field 4 = general check digit · field 5 = factor and amount.
 */
import { mod10, mod11Bank } from './check-digits.js';
import { checked, refused, type BoletoProblem, type BoletoWarning, type Checked } from './boleto-problem.js';

export const BANK_BARCODE_LENGTH = 44;
export const BANK_LINE_LENGTH = 47;
export const REAL_CURRENCY_CODE = '9';

/** What a bank slip states, read from a barcode whose check digits are right. */
export interface BankSlipFields {
  readonly bankCode: string;
  readonly currencyCode: string;
  /** 0 when the slip has no due date. */
  readonly dueDateFactor: number;
  /** Centavos; 0 means the payer supplies the amount. */
  readonly amountCents: number;
  readonly freeField: string;
}

/** Where each field of the line sits: [start, end) of the digits the check digit protects, then its index. */
const LINE_FIELDS = [
  { start: 0, end: 9, checkAt: 9 },
  { start: 10, end: 20, checkAt: 20 },
  { start: 21, end: 31, checkAt: 31 },
] as const;
const LINE_GENERAL_CHECK_AT = 32;

/** The general check digit a 44-digit bank barcode should carry at position 5 (index 4). */
export function bankGeneralCheckDigit(barcode: string): number {
  return mod11Bank(barcode.slice(0, 4) + barcode.slice(5));
}

/** The 47-digit line of a 44-digit bank barcode, with the three field check digits computed. No validation. */
export function bankLineFromBarcode(barcode: string): string {
  const free = barcode.slice(19, 44);
  const field1 = barcode.slice(0, 4) + free.slice(0, 5);
  const field2 = free.slice(5, 15);
  const field3 = free.slice(15, 25);
  return (
    field1 + String(mod10(field1)) +
    field2 + String(mod10(field2)) +
    field3 + String(mod10(field3)) +
    barcode.slice(4, 5) +
    barcode.slice(5, 19)
  );
}

/** The 44-digit barcode a 47-digit bank line spells, dropping the field check digits. No validation. */
export function bankBarcodeFromLine(line: string): string {
  return (
    line.slice(0, 4) +
    line.slice(32, 33) +
    line.slice(33, 47) +
    line.slice(4, 9) +
    line.slice(10, 20) +
    line.slice(21, 31)
  );
}

function currencyProblem(currencyCode: string): BoletoProblem | null {
  return currencyCode === REAL_CURRENCY_CODE ? null : { code: 'not_reais', currency: Number(currencyCode) };
}

function generalProblem(actual: string, expected: number): BoletoProblem | null {
  return actual === String(expected) ? null : { code: 'general_check_digit', actual: Number(actual), expected };
}

/**
 * Checks a 44-digit bank barcode: currency code and general check digit. Returns the barcode, or the problem.
 * The due-date factor is not checked here (it needs "today"; see dueDateFromFactor).
 */
export function checkBankBarcode(barcode: string): Checked<string> {
  const problem = currencyProblem(barcode.charAt(3)) ?? generalProblem(barcode.charAt(4), bankGeneralCheckDigit(barcode));
  return problem === null ? checked(barcode) : refused(problem);
}

/**
 * Checks a 47-digit bank line: the three field check digits (mod 10), the currency code and the general check
 * digit (mod 11). Returns the barcode it spells, or the problems naming each field and the digit it should have.
 */
export function checkBankLine(line: string): Checked<string> {
  const currency = currencyProblem(line.charAt(3));
  if (currency !== null) return refused(currency);
  // Field digits first: a typo inside fields 1-3 also breaks the general digit, but the field digit says where it is.
  const fieldProblems: BoletoProblem[] = [];
  LINE_FIELDS.forEach((field, index) => {
    const expected = mod10(line.slice(field.start, field.end));
    const actual = line.charAt(field.checkAt);
    if (actual !== String(expected)) fieldProblems.push({ code: 'field_check_digit', field: index + 1, actual: Number(actual), expected });
  });
  if (fieldProblems.length > 0) return refused(...fieldProblems);
  const barcode = bankBarcodeFromLine(line);
  const general = generalProblem(line.charAt(LINE_GENERAL_CHECK_AT), bankGeneralCheckDigit(barcode));
  return general === null ? checked(barcode) : refused(general);
}

/** Reads the fields of a 44-digit bank barcode (assumed checked). */
export function readBankBarcode(barcode: string): BankSlipFields {
  return {
    bankCode: barcode.slice(0, 3),
    currencyCode: barcode.charAt(3),
    dueDateFactor: Number(barcode.slice(5, 9)),
    amountCents: Number(barcode.slice(9, 19)),
    freeField: barcode.slice(19, 44),
  };
}

// ── Due-date factor ─────────────────────────────────────────────────────────────────────────────────────
// Days since 1997-10-07. It reached 9999 on 2025-02-21 and restarted at 1000 on 2025-02-22, so a factor
// f >= 1000 names every date 1997-10-07 + f + 9000·k days; FEBRABAN has payers pick the one that falls
// from 3000 days before to 5500 days after the day of payment.

const DAY_MS = 86_400_000;
const FACTOR_BASE_MS = Date.UTC(1997, 9, 7);
export const FACTOR_CYCLE_DAYS = 9000;
export const FACTOR_WINDOW_BEFORE_DAYS = 3000;
export const FACTOR_WINDOW_AFTER_DAYS = 5500;

/** Days from 1997-10-07 to a YYYY-MM-DD date, or null when the text is not a real calendar date. */
export function daysSinceFactorBase(isoDate: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null;
  return Math.round((ms - FACTOR_BASE_MS) / DAY_MS);
}

function isoFromDaysSinceBase(days: number): string {
  return new Date(FACTOR_BASE_MS + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The due date (YYYY-MM-DD) a factor names, given today's date (YYYY-MM-DD, São Paulo): the date of the factor's
 * cycle that falls from 3000 days before to 5500 days after today. Factor 0 means no due date (value null).
 * Fails when no cycle puts the factor in that window (the code can still be right: its due date is then unknown). Throws RangeError when today is not a date.
 */
export function dueDateFromFactor(factor: number, today: string): { readonly ok: true; readonly value: string | null } | { readonly ok: false; readonly warning: BoletoWarning } {
  if (factor === 0) return { ok: true, value: null };
  const todayDays = daysSinceFactorBase(today);
  if (todayDays === null) throw new RangeError(`today must be a date as YYYY-MM-DD, got "${today}"`);
  const earliest = todayDays - FACTOR_WINDOW_BEFORE_DAYS;
  const latest = todayDays + FACTOR_WINDOW_AFTER_DAYS;
  // Factors 1-999 only ever named the first days of the first cycle (1997-10-08 to 2000-07-02).
  const cycle = factor < 1000 ? 0 : Math.max(0, Math.ceil((earliest - factor) / FACTOR_CYCLE_DAYS));
  const days = factor + cycle * FACTOR_CYCLE_DAYS;
  if (days < earliest || days > latest) {
    const warning: BoletoWarning = {
      code: 'due_date_unplaced',
      factor: String(factor).padStart(4, '0'),
      earliest: isoFromDaysSinceBase(earliest),
      latest: isoFromDaysSinceBase(latest),
      today,
    };
    return { ok: false, warning };
  }
  return { ok: true, value: isoFromDaysSinceBase(days) };
}

/**
 * The due-date factor (1..9999) of a YYYY-MM-DD date from 1997-10-08 on, following the 2025-02-22 restart at 1000.
 * Throws RangeError for text that is not a date or a date before the factor existed.
 */
export function factorFromDueDate(dueDate: string): number {
  const days = daysSinceFactorBase(dueDate);
  if (days === null) throw new RangeError(`due date must be a date as YYYY-MM-DD, got "${dueDate}"`);
  if (days < 1) throw new RangeError(`due date ${dueDate} is before 1997-10-08, when due-date factors start`);
  return days < 1000 ? days : 1000 + ((days - 1000) % FACTOR_CYCLE_DAYS);
}
