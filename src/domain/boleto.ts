/**
 * Boletos as a payer meets them: bank slips (47-digit line) and collection slips (48-digit line, starting with 8),
 * or either one's 44-digit barcode. Decodes and checks them offline; see bank-slip.ts and
 * collection-slip.ts for the layouts.
 */
import {
  BANK_BARCODE_LENGTH,
  BANK_LINE_LENGTH,
  bankLineFromBarcode,
  checkBankBarcode,
  checkBankLine,
  daysSinceFactorBase,
  dueDateFromFactor,
  readBankBarcode,
} from './bank-slip.js';
import {
  COLLECTION_LINE_LENGTH,
  COLLECTION_PRODUCT_DIGIT,
  GOVERNMENT_SEGMENTS,
  UTILITY_SEGMENTS,
  checkCollectionBarcode,
  checkCollectionLine,
  collectionLineFromBarcode,
  readCollectionBarcode,
} from './collection-slip.js';
import { checked, refused, type BoletoProblem, type BoletoWarning, type Checked } from './boleto-problem.js';

export type { BoletoProblem, BoletoWarning } from './boleto-problem.js';

export type BoletoKind = 'bank' | 'collection';

export interface BoletoDecode {
  /** The text as given. */
  input: string;
  valid: boolean;
  kind: BoletoKind | null;
  /** 44 digits. */
  barcode: string | null;
  /** 47 digits (bank) or 48 digits (collection), without separators. */
  line: string | null;
  /**
   * Amount due in centavos. Null when the slip does not fix it: a zero amount (the payer supplies it) or a
   * collection slip whose amount field holds a reference value (valueIsReference).
   */
  amountCents: number | null;
  /**
   * YYYY-MM-DD; bank slips only. Null when the slip has no due date (factor 0) or when its factor names no date
   * near today (then a warning says so: the code is still valid, and the provider's details decide the payment).
   */
  dueDate: string | null;
  /** 3 digits; bank slips only. */
  bankCode: string | null;
  /** Collection slips only: segment digit and its name. */
  segment: number | null;
  segmentName: string | null;
  /** Collection slips only: value identifier 7 or 9, the amount field is a reference value, not the amount due. */
  valueIsReference: boolean | null;
  /** Collection slips only: 4-digit company code, or the 8-digit CNPJ root for segment 6. */
  companyCode: string | null;
  /** Collection slips only: taxes, fees and fines of a government (segments 1, 5 and 7). */
  government: boolean | null;
  /** Collection slips only: utility bills (segments 2, 3 and 4). */
  utility: boolean | null;
  /** Why the input is not a valid boleto (every check digit found wrong, or the one rule broken); empty when valid. */
  problems: readonly BoletoProblem[];
  /** What a valid code leaves unknown, e.g. a due date its factor cannot place. */
  warnings: readonly BoletoWarning[];
}

const SEPARATORS = /[\s.\-]/g;

/** The digits of a typed or pasted code: dots, spaces and dashes are dropped; anything else is refused. */
export function boletoDigits(input: string): Checked<string> {
  const digits = input.replace(SEPARATORS, '');
  const stray = /[^0-9]/.exec(digits);
  return stray ? refused({ code: 'stray_character', character: stray[0] }) : checked(digits);
}

/** A decode with every field null, to be filled in. */
const blank = (input: string, kind: BoletoKind | null): BoletoDecode => ({
  input,
  valid: false,
  kind,
  barcode: null,
  line: null,
  amountCents: null,
  dueDate: null,
  bankCode: null,
  segment: null,
  segmentName: null,
  valueIsReference: null,
  companyCode: null,
  government: null,
  utility: null,
  problems: [],
  warnings: [],
});

const invalid = (input: string, kind: BoletoKind | null, problems: readonly BoletoProblem[]): BoletoDecode => ({ ...blank(input, kind), problems });

function decodeBank(input: string, barcode: string, today: string): BoletoDecode {
  const fields = readBankBarcode(barcode);
  const dueDate = dueDateFromFactor(fields.dueDateFactor, today);
  return {
    ...blank(input, 'bank'),
    valid: true,
    barcode,
    line: bankLineFromBarcode(barcode),
    amountCents: fields.amountCents === 0 ? null : fields.amountCents,
    dueDate: dueDate.ok ? dueDate.value : null,
    bankCode: fields.bankCode,
    warnings: dueDate.ok ? [] : [dueDate.warning],
  };
}

function decodeCollection(input: string, barcode: string): BoletoDecode {
  const fields = readCollectionBarcode(barcode);
  return {
    ...blank(input, 'collection'),
    valid: true,
    barcode,
    line: collectionLineFromBarcode(barcode),
    amountCents: fields.valueIsReference || fields.amountField === 0 ? null : fields.amountField,
    segment: fields.segment,
    segmentName: fields.segmentName,
    valueIsReference: fields.valueIsReference,
    companyCode: fields.companyCode,
    government: GOVERNMENT_SEGMENTS.has(fields.segment),
    utility: UTILITY_SEGMENTS.has(fields.segment),
  };
}

/**
 * Decodes and checks a boleto barcode or line (separators allowed) entirely offline.
 * today = YYYY-MM-DD (São Paulo date) used for the due-date factor cycle; throws RangeError if it is not a date.
 * Never throws for bad input: an invalid code comes back with valid=false, its kind when known, and its problems.
 */
export function decodeBoleto(input: string, today: string): BoletoDecode {
  if (daysSinceFactorBase(today) === null) throw new RangeError(`today must be a date as YYYY-MM-DD, got "${today}"`);
  const digits = boletoDigits(input);
  if (!digits.ok) return invalid(input, null, digits.problems);
  const code = digits.value;
  const startsWithProduct = code.startsWith(COLLECTION_PRODUCT_DIGIT);

  if (code.length === BANK_BARCODE_LENGTH) {
    if (startsWithProduct) {
      const result = checkCollectionBarcode(code);
      return result.ok ? decodeCollection(input, result.value) : invalid(input, 'collection', result.problems);
    }
    const result = checkBankBarcode(code);
    return result.ok ? decodeBank(input, result.value, today) : invalid(input, 'bank', result.problems);
  }
  if (code.length === BANK_LINE_LENGTH) {
    if (startsWithProduct) {
      return invalid(input, 'collection', [{ code: 'short_collection_line', length: code.length }]);
    }
    const result = checkBankLine(code);
    return result.ok ? decodeBank(input, result.value, today) : invalid(input, 'bank', result.problems);
  }
  if (code.length === COLLECTION_LINE_LENGTH) {
    const result = checkCollectionLine(code);
    return result.ok ? decodeCollection(input, result.value) : invalid(input, 'collection', result.problems);
  }
  return invalid(input, null, [{ code: 'wrong_length', length: code.length }]);
}

/**
 * The hour (America/Sao_Paulo) the provider's bill window closes for this slip:
 * 20 for bank slips and company collections; 22 for utility and government collection slips.
 */
export function billWindowCloseHour(decoded: BoletoDecode): 20 | 22 {
  return decoded.kind === 'collection' && (decoded.utility === true || decoded.government === true) ? 22 : 20;
}

/**
 * A line as printed on the slip, for display: "00190.00009 01234.567890 12345.678901 2 34560000010000" (bank) or
 * "83620000000-6 67800481001-8 …" (collection). Other text comes back unchanged.
 */
export function formatBoletoLine(line: string): string {
  if (/^\d{47}$/.test(line)) {
    return `${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10, 15)}.${line.slice(15, 21)} ` +
      `${line.slice(21, 26)}.${line.slice(26, 32)} ${line.slice(32, 33)} ${line.slice(33)}`;
  }
  if (/^\d{48}$/.test(line)) {
    return [0, 12, 24, 36].map((start) => `${line.slice(start, start + 11)}-${line.charAt(start + 11)}`).join(' ');
  }
  return line;
}
