/**
 * Why a typed boleto code is refused, and what a valid one leaves unknown: reasons as values (code + data), worded
 * at the edge (src/words/bills.ts). Digits are numbers; `actual` is the digit the code carries, `expected` the one its
 * rule computes.
 */
export type BoletoProblem =
  /** A character other than digits, dots, spaces and dashes. */
  | { readonly code: 'stray_character'; readonly character: string }
  /** Not 44 (barcode), 47 (bank line) or 48 (collection line) digits. */
  | { readonly code: 'wrong_length'; readonly length: number }
  /** 47 digits starting with 8: a collection line missing a digit. */
  | { readonly code: 'short_collection_line'; readonly length: number }
  /** Bank slips: only reais (currency code 9) are accepted. */
  | { readonly code: 'not_reais'; readonly currency: number }
  /** The general check digit (mod 11 for bank slips; mod 10 or 11 for collection slips). */
  | { readonly code: 'general_check_digit'; readonly actual: number; readonly expected: number }
  /** Bank line: the check digit of field 1, 2 or 3. */
  | { readonly code: 'field_check_digit'; readonly field: number; readonly actual: number; readonly expected: number }
  /** Collection line: the check digit of block 1 to 4. */
  | { readonly code: 'block_check_digit'; readonly block: number; readonly actual: number; readonly expected: number }
  /** A collection slip starts with its product digit, 8. */
  | { readonly code: 'not_collection_product'; readonly digit: number }
  | { readonly code: 'unknown_segment'; readonly segment: number }
  /** The value identifier (third digit) is not 6, 7, 8 or 9. */
  | { readonly code: 'unknown_value_identifier'; readonly valueId: number };

/** What a valid code leaves unknown. */
export type BoletoWarning =
  /**
   * The due-date factor names no date from 3000 days before to 5500 days after `today` (all YYYY-MM-DD): the code is
   * valid, its due date unknown. `factor` as printed (4 digits).
   */
  { readonly code: 'due_date_unplaced'; readonly factor: string; readonly earliest: string; readonly latest: string; readonly today: string };

/** A checked value, or every problem found. */
export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: readonly BoletoProblem[] };

export const checked = <T>(value: T): Checked<T> => ({ ok: true, value });
export const refused = <T = never>(...problems: BoletoProblem[]): Checked<T> => ({ ok: false, problems });
