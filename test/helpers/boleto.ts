/**
 * Test data: valid boleto barcodes made from their fields, and the line each one prints as. The builders throw
 * RangeError on arguments that cannot make a valid code: those are mistakes in a test, not input.
 */
import { REAL_CURRENCY_CODE, bankGeneralCheckDigit, bankLineFromBarcode, factorFromDueDate } from '../../src/domain/bank-slip.js';
import {
  CNPJ_SEGMENT,
  COLLECTION_BARCODE_LENGTH,
  COLLECTION_PRODUCT_DIGIT,
  COLLECTION_SEGMENTS,
  collectionGeneralCheckDigit,
  collectionLineFromBarcode,
  type CollectionValueId,
} from '../../src/domain/collection-slip.js';

const MAX_BANK_AMOUNT_CENTS = 9_999_999_999;
const MAX_COLLECTION_AMOUNT = 99_999_999_999;

function requireDigits(name: string, value: string, length: number): void {
  if (!new RegExp(`^\\d{${length}}$`).test(value)) {
    throw new RangeError(`${name} must be ${length} digits, got "${value}"`);
  }
}

function requireAmount(amount: number, max: number): void {
  if (!Number.isSafeInteger(amount) || amount < 0 || amount > max) {
    throw new RangeError(`amountCents must be an integer from 0 to ${max}, got ${amount}`);
  }
}

/**
 * A valid 44-digit bank-slip barcode in reais. bankCode: 3 digits, not starting with 8 (that digit marks
 * collection slips); dueDate: YYYY-MM-DD from 1997-10-08 on, or null for no due date; amountCents: centavos,
 * 0..9 999 999 999 (0 = the payer supplies the amount); freeField: the bank's 25 digits.
 */
export function buildBankBarcode(o: {
  bankCode: string;
  dueDate: string | null;
  amountCents: number;
  freeField: string;
}): string {
  requireDigits('bankCode', o.bankCode, 3);
  if (o.bankCode.startsWith(COLLECTION_PRODUCT_DIGIT)) throw new RangeError(`bankCode must not start with 8, got "${o.bankCode}"`);
  requireAmount(o.amountCents, MAX_BANK_AMOUNT_CENTS);
  requireDigits('freeField', o.freeField, 25);
  const factor = o.dueDate === null ? 0 : factorFromDueDate(o.dueDate);
  const withoutCheck =
    o.bankCode + REAL_CURRENCY_CODE + '0' + String(factor).padStart(4, '0') + String(o.amountCents).padStart(10, '0') + o.freeField;
  return withoutCheck.slice(0, 4) + String(bankGeneralCheckDigit(withoutCheck)) + withoutCheck.slice(5);
}

/**
 * A valid 44-digit collection-slip barcode. segment: 1-7 or 9; valueId: 6/7 (modulo 10) or 8/9 (modulo 11),
 * 7 and 9 meaning amountCents is a reference value; amountCents: 0..99 999 999 999; companyCode: 4 digits, or the
 * 8-digit CNPJ root for segment 6; freeField: the digits that fill the barcode to 44 (25, or 21 for segment 6).
 */
export function buildCollectionBarcode(o: {
  segment: number;
  valueId: CollectionValueId;
  amountCents: number;
  companyCode: string;
  freeField: string;
}): string {
  if (!Number.isInteger(o.segment) || COLLECTION_SEGMENTS[o.segment] === undefined) {
    throw new RangeError(`segment ${o.segment} does not exist (1-7 or 9)`);
  }
  if (![6, 7, 8, 9].includes(o.valueId)) throw new RangeError(`valueId must be 6, 7, 8 or 9, got ${o.valueId}`);
  requireAmount(o.amountCents, MAX_COLLECTION_AMOUNT);
  const companyLength = o.segment === CNPJ_SEGMENT ? 8 : 4;
  requireDigits(o.segment === CNPJ_SEGMENT ? 'companyCode (CNPJ root)' : 'companyCode', o.companyCode, companyLength);
  requireDigits('freeField', o.freeField, COLLECTION_BARCODE_LENGTH - 15 - companyLength);
  const withoutCheck =
    COLLECTION_PRODUCT_DIGIT + String(o.segment) + String(o.valueId) + '0' +
    String(o.amountCents).padStart(11, '0') + o.companyCode + o.freeField;
  return withoutCheck.slice(0, 3) + String(collectionGeneralCheckDigit(o.valueId, withoutCheck)) + withoutCheck.slice(4);
}

/** The line (47 digits for a bank slip, 48 for a collection slip) of a barcode the builders made. */
export function lineOf(barcode: string): string {
  return barcode.startsWith(COLLECTION_PRODUCT_DIGIT) ? collectionLineFromBarcode(barcode) : bankLineFromBarcode(barcode);
}
