import type { ItemState } from '../domain/item-state.js';
import { reaisToCents } from '../domain/money.js';
import { reasonOf } from '../domain/provider-choices.js';
import { providerDate } from '../domain/provider-dates.js';
import { firstField } from './dialect.js';
import type { Batch, BillDetails, BillPayment, Destination, Item, PixAmountUnit, StartResult, WirePage } from './types.js';

/**
 * A success answer whose JSON does not have the shape SPEC.md gives. `where` points into the body (`data[3].amount`);
 * the client turns it into a ProviderError with the call's method, path and status.
 */
export class DecodeError extends Error {
  constructor(
    readonly where: string,
    readonly problem: string,
  ) {
    super(where ? `${where}: ${problem}` : problem);
    this.name = 'DecodeError';
  }
}

type Obj = Record<string, unknown>;

function obj(v: unknown, where: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new DecodeError(where, 'expected an object');
  return v as Obj;
}

function at(where: string, key: string): string {
  return where ? `${where}.${key}` : key;
}

/** A required non-empty string; numbers are accepted and turned to text (ids are sometimes numeric). */
function reqString(o: Obj, key: string, where: string): string {
  const v = o[key];
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw new DecodeError(at(where, key), v === undefined ? 'missing' : 'expected a non-empty string');
}

/** An optional string: absent or null gives ''. */
function optString(o: Obj, key: string, where: string): string {
  const v = o[key];
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new DecodeError(at(where, key), 'expected a string');
}

function maybeString(o: Obj, key: string, where: string): string | undefined {
  const v = o[key];
  return v === undefined || v === null ? undefined : optString(o, key, where);
}

/** A number, also from numeric text; absent or null gives `fallback`. */
function num(o: Obj, key: string, where: string, fallback?: number): number {
  const v = o[key];
  if ((v === undefined || v === null) && fallback !== undefined) return fallback;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new DecodeError(at(where, key), 'expected a number');
  return n;
}

/** Decodes a Destination (endpoint 2, or an item's `to`). Fields the provider leaves out become ''. */
export function decodeDestination(v: unknown, where = ''): Destination {
  const o = obj(v, where);
  const d: Destination = {
    accountType: optString(o, 'accountType', where),
    branch: optString(o, 'branch', where),
    key: optString(o, 'key', where),
    accountNumber: optString(o, 'accountNumber', where),
    institutionName: optString(o, 'institutionName', where),
    document: optString(o, 'document', where),
    type: optString(o, 'type', where),
    institution: optString(o, 'institution', where),
    name: optString(o, 'name', where),
  };
  // A destination that names nobody cannot be paid or checked against the sheet.
  if (d.name === '' && d.document === '' && d.accountNumber === '') throw new DecodeError(where, 'destination has no name, document or account');
  return d;
}

export function decodeBatch(v: unknown, where = ''): Batch {
  const o = obj(v, where);
  return {
    id: reqString(o, 'id', where),
    name: optString(o, 'name', where),
    status: optString(o, 'status', where),
    quantityItems: num(o, 'quantityItems', where, 0),
    timestamp: num(o, 'timestamp', where, 0),
    type: optString(o, 'type', where) || 'pix',
  };
}

export function decodeStartResult(v: unknown): StartResult {
  const o = obj(v, '');
  return { id: optString(o, 'id', ''), name: optString(o, 'name', ''), status: reqString(o, 'status', ''), timestamp: num(o, 'timestamp', '', 0) };
}

/**
 * Converts a Pix item amount from the wire to centavos. Text with a decimal point (`"1107.00"`) is reais whatever
 * the unit: a provider that counts centavos does not write them so, and reading its echo as reais is what lets a
 * profile set to the wrong unit be caught before a batch starts (the echo differs from what was sent). Otherwise, in
 * `cents` the wire value must be a whole number; in `reais` it must have at most two decimals. Anything else is
 * refused: a unit mistake pays 100 times too much or too little.
 */
export function wireAmountToCents(v: unknown, unit: PixAmountUnit, where: string, setting = 'pixAmountUnit'): number {
  if (typeof v === 'string' && /^\s*\d+\.\d+\s*$/.test(v)) unit = 'reais';
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) throw new DecodeError(where, 'expected an amount (a number ≥ 0)');
  if (unit === 'cents') {
    if (!Number.isSafeInteger(n)) throw new DecodeError(where, `amount ${n} is not a whole number of centavos (is ${setting} right?)`);
    return n;
  }
  const r = reaisToCents(typeof v === 'string' ? v : n);
  if (!r.ok) throw new DecodeError(where, `${r.error} (is ${setting} right?)`);
  return r.value;
}

/** How items are read under the profile's dialect: the amount unit, where the Pix id is, what status words mean. */
export interface ItemReading {
  readonly unit: PixAmountUnit;
  readonly pixIdFields: readonly string[];
  /** Where a failure's or return's code and text are (see `reasonOf`). */
  readonly reasonCodeFields: readonly string[];
  readonly reasonMessageFields: readonly string[];
  readonly stateOf: (word: string) => ItemState | null;
}

export function decodeItem(v: unknown, read: ItemReading, where = ''): Item {
  const o = obj(v, where);
  const status = reqString(o, 'status', where);
  const item: Item = {
    itemId: reqString(o, 'itemId', where),
    status,
    state: read.stateOf(status),
    description: optString(o, 'description', where),
    amountCents: wireAmountToCents(o['amount'], read.unit, at(where, 'amount')),
    identifier: reqString(o, 'identifier', where),
    to: decodeDestination(o['to'], at(where, 'to')),
  };
  const pixId = firstField(o, read.pixIdFields);
  const endToEndId = maybeString(o, 'endToEndId', where);
  const reason = reasonOf(o, read.reasonCodeFields, read.reasonMessageFields);
  const updatedAt = maybeString(o, 'updatedAt', where);
  if (pixId !== undefined) item.pixId = pixId;
  if (endToEndId !== undefined) item.endToEndId = endToEndId;
  if (reason !== undefined) item.reason = reason;
  if (updatedAt !== undefined) item.updatedAt = updatedAt;
  return item;
}

/** Decodes `{cursor, data: [...]}`; an empty-string cursor counts as null (no further page). */
export function decodePage<T>(v: unknown, decodeOne: (x: unknown, where: string) => T): WirePage<T> {
  const o = obj(v, '');
  const c = o['cursor'];
  if (c !== null && c !== undefined && typeof c !== 'string' && typeof c !== 'number') throw new DecodeError('cursor', 'expected a string or null');
  const data = o['data'];
  if (!Array.isArray(data)) throw new DecodeError('data', 'expected an array');
  const cursor = c === null || c === undefined || c === '' ? null : String(c);
  return { cursor, data: data.map((x, i) => decodeOne(x, `data[${i}]`)) };
}

/** Decodes `{data: [item]}` of endpoint 3 (a bare array is accepted too). */
export function decodeAddedItems(v: unknown, read: ItemReading): Item[] {
  const data = Array.isArray(v) ? v : obj(v, '')['data'];
  if (!Array.isArray(data)) throw new DecodeError('data', 'expected an array');
  return data.map((x, i) => decodeItem(x, read, `data[${i}]`));
}

/** A reais amount of the bill APIs to centavos; absent or null gives null. Numeric text is accepted. */
/** A bill amount in centavos, read in the profile's `billAmountUnit` (the client asks for bills only once it is set). */
function billAmount(o: Obj, key: string, unit: PixAmountUnit | null): number | null {
  const v = o[key];
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'number' && typeof v !== 'string') throw new DecodeError(key, 'expected an amount');
  // Money written as text for people ("1.234,56") is reais whatever the unit.
  if (typeof v === 'string' && !/^\s*\d+(\.\d+)?\s*$/.test(v)) {
    const r = reaisToCents(v);
    if (!r.ok) throw new DecodeError(key, r.error);
    return r.value;
  }
  return wireAmountToCents(v, unit ?? 'reais', key, 'billAmountUnit');
}

/**
 * Where a bill's fine is given: SPEC.md's details have none; a provider's bill query that does names it `fine_amount`
 * (beside `discount_amount`, `interest_amount`), and the spellings of the other fields' families are read too.
 */
const FINE_FIELDS = ['fine', 'fineAmount', 'fine_amount', 'fineValue', 'multa'];

/** The first of these fields that holds a bill amount, in centavos; null when none does. */
function firstBillAmount(o: Obj, keys: readonly string[], unit: PixAmountUnit | null): number | null {
  for (const key of keys) {
    const cents = billAmount(o, key, unit);
    if (cents !== null) return cents;
  }
  return null;
}

function bool(o: Obj, key: string, where: string): boolean {
  const v = o[key];
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw new DecodeError(at(where, key), 'expected true or false');
}

export function decodeBillDetails(v: unknown, unit: PixAmountUnit | null): BillDetails {
  const o = obj(v, '');
  return {
    assignor: optString(o, 'assignor', ''),
    settleDate: dateText(optString(o, 'settledate', '') || optString(o, 'settleDate', '')),
    discountCents: billAmount(o, 'discount', unit),
    maxValueCents: billAmount(o, 'maxValue', unit),
    minValueCents: billAmount(o, 'minValue', unit),
    beneficiary: optString(o, 'beneficiary', ''),
    canChangeAmount: bool(o, 'canChangeAmount', ''),
    amountCents: billAmount(o, 'amount', unit),
    interestCents: billAmount(o, 'interest', unit),
    fineCents: firstBillAmount(o, FINE_FIELDS, unit),
    originalAmountCents: billAmount(o, 'originalAmount', unit),
    typefulLine: optString(o, 'typefulLine', ''),
    beneficiaryDocument: optString(o, 'beneficiaryDocument', ''),
    dueDate: dateText(optString(o, 'dueDate', '')),
  };
}

export function decodeBillPayment(v: unknown, unit: PixAmountUnit | null): BillPayment {
  const o = obj(v, '');
  const d = o['details'];
  const details: BillPayment['details'] = {};
  if (typeof d === 'object' && d !== null && !Array.isArray(d)) {
    const dd = d as Obj;
    const bloco = maybeString(dd, 'BlocoCompleto', 'details');
    const convenant = maybeString(dd, 'convenant', 'details');
    if (bloco !== undefined) details.BlocoCompleto = bloco;
    if (convenant !== undefined) details.convenant = convenant;
  }
  return {
    status: reqString(o, 'status', ''),
    settleDate: dateText(optString(o, 'settleDate', '') || optString(o, 'settledate', '')),
    timestamp: optString(o, 'timestamp', ''),
    amountPaidCents: billAmount(o, 'amountPaid', unit),
    dueDate: dateText(optString(o, 'dueDate', '')),
    assignor: optString(o, 'assignor', ''),
    payer: optString(o, 'payer', ''),
    payerDocument: optString(o, 'payerDocument', ''),
    beneficiary: optString(o, 'beneficiary', ''),
    amountCents: billAmount(o, 'amount', unit),
    details,
    typefulLine: optString(o, 'typefulLine', ''),
    transactionId: optString(o, 'transactionId', ''),
    beneficiaryDocument: optString(o, 'beneficiaryDocument', ''),
    raw: v,
  };
}

/**
 * A bill date as `YYYY-MM-DD` whatever form the provider writes it in (ISO date or date-time, `DD/MM/YYYY`, Unix
 * seconds); text that is no date is kept as sent, so that it is shown rather than lost.
 */
function dateText(text: string): string {
  return text === '' ? '' : (providerDate(text) ?? text);
}

/** Decodes a receipt (endpoint 11): base64 PDF, checked by its `%PDF-` magic. */
export function decodeReceipt(v: unknown): { pdf: Buffer; name: string; description: string } {
  const o = obj(v, '');
  const b64 = o['base64'];
  if (typeof b64 !== 'string' || b64.trim() === '') throw new DecodeError('base64', 'missing');
  // Standard or URL-safe alphabet, line breaks allowed (MIME style).
  if (!/^[A-Za-z0-9+/_\-\s]*={0,2}\s*$/.test(b64)) throw new DecodeError('base64', 'not base64 text');
  const pdf = Buffer.from(b64.replace(/\s+/g, ''), b64.includes('-') || b64.includes('_') ? 'base64url' : 'base64');
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new DecodeError('base64', 'the document is not a PDF (no %PDF- header)');
  return { pdf, name: optString(o, 'name', '') || 'receipt.pdf', description: optString(o, 'description', '') };
}
