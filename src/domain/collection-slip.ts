/**
 * Collection slips (arrecadação / convênios: utilities, taxes, fines), FEBRABAN "Layout Padrão de
 * Arrecadação/Recebimento com Utilização do Código de Barras": the 44-digit barcode and the 48-digit line.
 *
 * Barcode (0-based): [0] product, always 8 · [1] segment · [2] value identifier · [3] general check digit ·
 * [4,15) amount in centavos (or a reference value) · [15,19) company code, or [15,23) the CNPJ root for
 * segment 6 · the rest is the company's free field.
 * Line: the barcode cut into four blocks of 11 digits, each followed by its check digit.
 */
import { mod10, mod11 } from './check-digits.js';
import { checked, refused, type BoletoProblem, type Checked } from './boleto-problem.js';

export const COLLECTION_BARCODE_LENGTH = 44;
export const COLLECTION_LINE_LENGTH = 48;
export const COLLECTION_PRODUCT_DIGIT = '8';

export type CollectionValueId = 6 | 7 | 8 | 9;

/** Segment digit → what the slip collects. 0 and 8 do not exist. */
export const COLLECTION_SEGMENTS: Readonly<Record<number, string>> = {
  1: 'municipal government (prefeituras)',
  2: 'sanitation (saneamento)',
  3: 'electricity and gas (energia elétrica e gás)',
  4: 'telecommunications (telecomunicações)',
  5: 'government agencies (órgãos governamentais)',
  6: 'companies identified by CNPJ (carnês e demais)',
  7: 'traffic fines (multas de trânsito)',
  9: 'bank use only (uso exclusivo do banco)',
};

/** Segments whose slips are taxes, fees or fines of a government. */
export const GOVERNMENT_SEGMENTS: ReadonlySet<number> = new Set([1, 5, 7]);
/** Segments whose slips are bills of public utilities (water, power and gas, telecom). */
export const UTILITY_SEGMENTS: ReadonlySet<number> = new Set([2, 3, 4]);
/** The segment whose company is identified by the 8-digit CNPJ root instead of a 4-digit FEBRABAN code. */
export const CNPJ_SEGMENT = 6;

/** What a collection slip states, read from a barcode whose check digits are right. */
export interface CollectionSlipFields {
  readonly segment: number;
  readonly segmentName: string;
  readonly valueId: CollectionValueId;
  /** True for value identifiers 7 and 9: the amount field holds a reference value, not the amount due. */
  readonly valueIsReference: boolean;
  /** The 11-digit amount field as a number: centavos, or the reference value; 0 means the payer supplies it. */
  readonly amountField: number;
  /** 4 digits, or the 8-digit CNPJ root for segment 6. */
  readonly companyCode: string;
  readonly freeField: string;
}

const isValueId = (n: number): n is CollectionValueId => n === 6 || n === 7 || n === 8 || n === 9;

/** The check-digit rule a value identifier selects: 6 and 7 use modulo 10, 8 and 9 modulo 11. */
export function collectionCheckDigit(valueId: CollectionValueId, digits: string): number {
  return valueId === 6 || valueId === 7 ? mod10(digits) : mod11(digits);
}

/** The general check digit a 44-digit collection barcode should carry at position 4 (index 3). */
export function collectionGeneralCheckDigit(valueId: CollectionValueId, barcode: string): number {
  return collectionCheckDigit(valueId, barcode.slice(0, 3) + barcode.slice(4));
}

/** Checks product, segment and value identifier (the first three digits, same in barcode and line). */
function checkHeader(code: string): Checked<CollectionValueId> {
  if (code.charAt(0) !== COLLECTION_PRODUCT_DIGIT) return refused({ code: 'not_collection_product', digit: Number(code.charAt(0)) });
  const segment = Number(code.charAt(1));
  if (COLLECTION_SEGMENTS[segment] === undefined) return refused({ code: 'unknown_segment', segment });
  const valueId = Number(code.charAt(2));
  if (!isValueId(valueId)) return refused({ code: 'unknown_value_identifier', valueId });
  return checked(valueId);
}

/** The 48-digit line of a 44-digit collection barcode with a valid value identifier. No validation. */
export function collectionLineFromBarcode(barcode: string): string {
  const valueId = Number(barcode.charAt(2));
  if (!isValueId(valueId)) throw new RangeError(`value identifier ${valueId} does not exist`);
  let line = '';
  for (let block = 0; block < 4; block++) {
    const digits = barcode.slice(block * 11, block * 11 + 11);
    line += digits + String(collectionCheckDigit(valueId, digits));
  }
  return line;
}

/** The 44-digit barcode a 48-digit collection line spells, dropping the block check digits. No validation. */
export function collectionBarcodeFromLine(line: string): string {
  return line.slice(0, 11) + line.slice(12, 23) + line.slice(24, 35) + line.slice(36, 47);
}

function checkGeneral(valueId: CollectionValueId, barcode: string): Checked<string> {
  const expected = collectionGeneralCheckDigit(valueId, barcode);
  const actual = barcode.charAt(3);
  return actual === String(expected) ? checked(barcode) : refused({ code: 'general_check_digit', actual: Number(actual), expected });
}

/** Checks a 44-digit collection barcode: product, segment, value identifier, general check digit. */
export function checkCollectionBarcode(barcode: string): Checked<string> {
  const header = checkHeader(barcode);
  if (!header.ok) return header;
  return checkGeneral(header.value, barcode);
}

/**
 * Checks a 48-digit collection line: product, segment, value identifier, the four block check digits and the
 * general check digit. Returns the barcode it spells, or the problems naming each block and the digit it should have.
 */
export function checkCollectionLine(line: string): Checked<string> {
  const header = checkHeader(line);
  if (!header.ok) return header;
  const valueId = header.value;
  const blockProblems: BoletoProblem[] = [];
  for (let block = 0; block < 4; block++) {
    const start = block * 12;
    const expected = collectionCheckDigit(valueId, line.slice(start, start + 11));
    const actual = line.charAt(start + 11);
    if (actual !== String(expected)) blockProblems.push({ code: 'block_check_digit', block: block + 1, actual: Number(actual), expected });
  }
  if (blockProblems.length > 0) return refused(...blockProblems);
  return checkGeneral(valueId, collectionBarcodeFromLine(line));
}

/** Reads the fields of a 44-digit collection barcode (assumed checked). */
export function readCollectionBarcode(barcode: string): CollectionSlipFields {
  const segment = Number(barcode.charAt(1));
  const valueId = Number(barcode.charAt(2)) as CollectionValueId;
  const companyEnd = segment === CNPJ_SEGMENT ? 23 : 19;
  return {
    segment,
    segmentName: COLLECTION_SEGMENTS[segment] ?? `segment ${segment}`,
    valueId,
    valueIsReference: valueId === 7 || valueId === 9,
    amountField: Number(barcode.slice(4, 15)),
    companyCode: barcode.slice(15, companyEnd),
    freeField: barcode.slice(companyEnd),
  };
}
