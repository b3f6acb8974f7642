/**
 * CNAB 240 layouts as data: where each field of each record sits, per bank and version. A remittance is read and a
 * return file written through these tables only (read-remittance.ts, return-file.ts), so a bank's variant is a new
 * table (layouts.ts), not new code. Positions are 1-based and inclusive, as the banks' manuals print them.
 */
import type { PixKeyType } from '../../domain/pix-key.js';

/** A field: its first and last position, and whether it holds digits (right-aligned, zero-filled) or text. */
export interface Field {
  readonly at: readonly [number, number];
  readonly kind: 'num' | 'alfa';
}

export const num = (from: number, to: number): Field => ({ at: [from, to], kind: 'num' });
export const alfa = (from: number, to: number): Field => ({ at: [from, to], kind: 'alfa' });

/** The fields every record shares: bank, lot, record type (and, for details, the sequence and the segment). */
interface Common {
  readonly bank: Field;
  readonly lot: Field;
  readonly recordType: Field;
}

export interface FileHeaderFields extends Common {
  readonly companyDocType: Field;
  readonly companyDoc: Field;
  readonly companyName: Field;
  /** 1: remittance (remessa), 2: return (retorno). */
  readonly direction: Field;
  readonly generatedOn: Field;
  readonly generatedAt: Field;
  readonly sequence: Field;
  readonly version: Field;
}

export interface LotHeaderFields extends Common {
  readonly operation: Field;
  readonly service: Field;
  readonly form: Field;
  readonly version: Field;
  readonly companyDocType: Field;
  readonly companyDoc: Field;
  readonly occurrences: Field;
}

interface DetailCommon extends Common {
  readonly sequence: Field;
  readonly segment: Field;
}

export interface SegmentAFields extends DetailCommon {
  readonly chamber: Field;
  readonly payeeBank: Field;
  /** Branch and account as the layout writes them, with their check digits (20 positions). */
  readonly payeeAccount: Field;
  /** Inside payeeAccount: the branch (without its check digit, which Pix does not use), the account and its check character. */
  readonly payeeBranch: Field;
  readonly payeeAccountNumber: Field;
  readonly payeeAccountDigit: Field;
  readonly payeeName: Field;
  /** "Seu número": the company's (the ERP's) id of the title. */
  readonly yourNumber: Field;
  readonly paymentDate: Field;
  readonly amount: Field;
  /** "Nosso número": the bank's id of the payment, written in the return. */
  readonly bankNumber: Field;
  readonly paidOn: Field;
  readonly paidAmount: Field;
  /** The payee's document, in the layouts that put it in segment A (Itaú); others put it in segment B. */
  readonly payeeDoc?: Field;
  readonly occurrences: Field;
}

export interface SegmentBFields extends DetailCommon {
  /** How the Pix is initiated (the key's type, or account data); absent in layouts without Pix. */
  readonly keyKind?: Field;
  readonly payeeDocType: Field;
  readonly payeeDoc: Field;
  readonly pixKey?: Field;
}

export interface SegmentJFields extends DetailCommon {
  readonly barcode: Field;
  readonly payeeName: Field;
  readonly dueDate: Field;
  readonly faceAmount: Field;
  readonly discount: Field;
  readonly charges: Field;
  readonly paymentDate: Field;
  readonly amount: Field;
  readonly yourNumber: Field;
  readonly bankNumber: Field;
  readonly occurrences: Field;
}

/** Segment J-52 (the bill's payer and beneficiary), told from a J by its record identifier ("52"). */
export interface SegmentJ52Fields extends DetailCommon {
  readonly code: Field;
  readonly beneficiaryDocType: Field;
  readonly beneficiaryDoc: Field;
  readonly beneficiaryName: Field;
}

/** Segment Z of a return: the bank's authentication of a payment (room for a Pix end-to-end id). */
export interface SegmentZFields extends DetailCommon {
  readonly authentication: Field;
  /** Itaú repeats the title's "seu número" in its Z. */
  readonly yourNumber?: Field;
  readonly occurrences: Field;
}

/** The occurrence codes a return file writes per outcome (the bank's table: the same letters differ between banks). */
export interface ReturnCodes {
  readonly paid: string;
  /** Accepted, not yet paid (scheduled, or in flight). */
  readonly open: string;
  readonly failed: string;
  readonly returned: string;
  /** A Pix failure's reason code (pacs.002, src/domain/reasons.ts) → the bank's code for it, where the table has one. */
  readonly byReason: Readonly<Record<string, string>>;
  /** A bill's (segment J) codes by how its payment ended: bill returns carry no reason a layout has a code for. */
  readonly bills: { readonly paid: string; readonly open: string; readonly failed: string; readonly returned: string };
}

export interface LotTrailerFields extends Common {
  readonly recordCount: Field;
  readonly amountSum: Field;
  readonly occurrences: Field;
}

export interface FileTrailerFields extends Common {
  readonly lotCount: Field;
  readonly recordCount: Field;
}

/** What a lot's payment form (lot header, `form`) pays. */
export type FormKind = 'pix-key' | 'account' | 'bill';

export interface Cnab240Layout {
  /** Stable name, e.g. `itau-sispag`: pinned with the `cnabLayout` setting, named in the return file's choice. */
  readonly id: string;
  /** Banks whose files this layout reads by default (header positions 1-3). */
  readonly banks: readonly string[];
  /** For people: the bank and the manual's version. */
  readonly title: string;
  /** The file-layout versions (file header, `version`) this table was written from; other versions are refused. */
  readonly versions: readonly string[];
  readonly fileHeader: FileHeaderFields;
  readonly lotHeader: LotHeaderFields;
  readonly segmentA: SegmentAFields;
  readonly segmentB: SegmentBFields;
  readonly segmentJ: SegmentJFields;
  readonly segmentJ52: SegmentJ52Fields;
  readonly segmentZ: SegmentZFields;
  readonly lotTrailer: LotTrailerFields;
  readonly fileTrailer: FileTrailerFields;
  /** Lot payment forms (lot header, `form`) and what they pay; a form not listed is refused with its line. */
  readonly forms: Readonly<Record<string, FormKind>>;
  /** Segment B's `keyKind` codes: a Pix key's type (`document`: a CPF or a CNPJ), or `account` for a Pix by account data. */
  readonly keyKinds: Readonly<Record<string, PixKeyType | 'document' | 'account'>>;
  readonly returnCodes: ReturnCodes;
}

/** The text of a field in a line (padding kept). */
export function cut(line: string, field: Field): string {
  return line.slice(field.at[0] - 1, field.at[1]);
}

/** The width of a field. */
export function widthOf(field: Field): number {
  return field.at[1] - field.at[0] + 1;
}

/**
 * A line with `value` written into `field`: digits right-aligned and zero-filled, text left-aligned and blank-filled.
 * A value wider than its field is an error of the writer (the callers fit what they write), never cut silently.
 */
export function put(line: string, field: Field, value: string): string {
  const width = widthOf(field);
  if (value.length > width) throw new RangeError(`"${value}" does not fit positions ${field.at[0]}-${field.at[1]}`);
  const text = field.kind === 'num' ? value.padStart(width, '0') : value.padEnd(width, ' ');
  return line.slice(0, field.at[0] - 1) + text + line.slice(field.at[1]);
}
