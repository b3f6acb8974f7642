import type { PixKeyType } from './pix-key.js';
import type { AmountReason, DocumentReason, KeyReason } from './validation-reason.js';

// The reasons of the sheet layer (src/sheet/) live here, beside the validators', so that the catalogs of the edge
// (src/words/sheet.ts) read them without importing the sheet reader. Names of the sheet layer are spelt out.

/** The limits of an XLSX workbook (src/sheet/xlsx-limits.ts's `XlsxLimits`). */
export type XlsxLimitName = 'cellChars' | 'rowChars' | 'rows' | 'columns' | 'sharedStringsBytes' | 'worksheetBytes' | 'partBytes';

/** Where a kind of byte first shows in a file: 1-based line, 1-based byte within that line, the bytes in hex. */
export interface BytePlace {
  readonly line: number;
  readonly byte: number;
  readonly hex: string;
  /** The character those bytes are in the encoding they belong to (UTF-8, or Windows-1252 for a byte that is not UTF-8). */
  readonly text: string;
}

/** The fields of a payment sheet (src/sheet/headers.ts's `SheetField`). */
export type SheetFieldName = 'key' | 'keyType' | 'amount' | 'description' | 'identifier' | 'name' | 'document';

/** Why a row of a payment sheet is refused: a validator's reason for a cell, or a rule of the sheet's own. */
export type RowReason =
  | AmountReason
  | DocumentReason
  | KeyReason
  | { readonly code: 'amount_missing' }
  | { readonly code: 'amount_above_item_limit'; readonly amountCents: number; readonly limitCents: number }
  | { readonly code: 'identifier_not_uuid'; readonly cell: string }
  | { readonly code: 'identifier_nil' }
  | { readonly code: 'identifier_twice'; readonly firstLine: number }
  | { readonly code: 'document_not_key'; readonly document: string; readonly keyType: 'cpf' | 'cnpj'; readonly key: string }
  | { readonly code: 'description_too_long'; readonly length: number; readonly max: number }
  | { readonly code: 'duplicate_row'; readonly firstLine: number }
  | { readonly code: 'key_type_unknown'; readonly cell: string }
  | { readonly code: 'key_missing' }
  | { readonly code: 'key_scientific_notation'; readonly key: string }
  /** The key is not valid as the type its type cell gives, but is valid as `looksLike`; `typeColumn` is that column's name. */
  | { readonly code: 'key_looks_like'; readonly reason: KeyReason; readonly looksLike: PixKeyType; readonly typeColumn: string }
  /** Both a CPF and a mobile number; `sheetLanguage` is the language of the sheet's header (which word to fill in). */
  | { readonly code: 'key_ambiguous'; readonly typeColumn: string; readonly hasTypeColumn: boolean; readonly sheetLanguage: 'pt' | 'en' }
  | { readonly code: 'cells_missing'; readonly cells: number; readonly named: number }
  | { readonly code: 'cells_unquoted'; readonly cells: number; readonly header: number; readonly delimiter: ';' | ',' | '\t' }
  /** A workbook stored a key or document as a number and dropped its leading zeros; `meant` is the document they would make. */
  | { readonly code: 'zeros_lost'; readonly digits: string; readonly meant: { readonly type: 'cpf' | 'cnpj'; readonly value: string } | null }
  | { readonly code: 'csv_quote_not_closed' }
  | { readonly code: 'csv_invalid'; readonly message: string };

/** Why a sheet cannot be read as a whole: its file, its encoding, its workbook or its header. */
export type SheetFileReason =
  | { readonly code: 'file_utf16' }
  | { readonly code: 'file_workbook' }
  | { readonly code: 'file_binary' }
  | { readonly code: 'mixed_encoding'; readonly utf8: BytePlace; readonly other: BytePlace }
  | { readonly code: 'xlsx_not_zip' }
  | { readonly code: 'xlsx_damaged'; readonly error: string }
  | { readonly code: 'xlsx_no_worksheet' }
  | { readonly code: 'xlsx_no_worksheet_named'; readonly wanted: string; readonly seen: readonly string[] }
  | { readonly code: 'xlsx_too_large'; readonly limit: XlsxLimitName; readonly max: number }
  | { readonly code: 'xlsx_dtd' }
  | { readonly code: 'column_twice'; readonly first: string; readonly firstColumn: number; readonly second: string; readonly secondColumn: number; readonly field: SheetFieldName }
  /** `found`: the header's non-empty cells, as written. */
  | { readonly code: 'column_missing'; readonly field: SheetFieldName; readonly found: readonly string[] }
  | { readonly code: 'sheet_empty' }
  | { readonly code: 'sheet_no_rows' };

/** The fields of a CNAB 240 record that paybatch reads (src/sheet/cnab240/layout.ts), as reasons name them. */
export type Cnab240FieldName =
  | 'recordType' | 'bank' | 'lot' | 'segment' | 'direction' | 'version' | 'companyDoc' | 'companyDocType' | 'service' | 'form'
  | 'payeeDoc' | 'payeeDocType' | 'keyKind' | 'pixKey' | 'amount' | 'paymentDate' | 'yourNumber' | 'barcode'
  | 'recordCount' | 'amountSum' | 'lotCount' | 'code' | 'sequence';

/**
 * Why a CNAB 240 remittance is refused as a whole (a bank's "lote não aceito"): each problem names its line and the
 * positions of the field (`SheetProblem.field` is `from-to`).
 */
export type Cnab240Reason =
  | { readonly code: 'cnab_line_length'; readonly length: number }
  | { readonly code: 'cnab_record_unexpected'; readonly found: string; readonly expected: string }
  | { readonly code: 'cnab_bank_unknown'; readonly bank: string }
  | { readonly code: 'cnab_bank_differs'; readonly bank: string; readonly fileBank: string }
  | { readonly code: 'cnab_version_unknown'; readonly version: string; readonly layout: string; readonly known: readonly string[] }
  | { readonly code: 'cnab_not_remittance'; readonly direction: string }
  | { readonly code: 'cnab_not_number'; readonly field: Cnab240FieldName; readonly value: string }
  | { readonly code: 'cnab_date_invalid'; readonly field: Cnab240FieldName; readonly value: string }
  | { readonly code: 'cnab_document_invalid'; readonly field: Cnab240FieldName; readonly value: string; readonly reason: DocumentReason }
  | { readonly code: 'cnab_form_unknown'; readonly form: string; readonly service: string }
  | { readonly code: 'cnab_segment_unexpected'; readonly segment: string; readonly form: string }
  | { readonly code: 'cnab_key_kind_unknown'; readonly value: string }
  | { readonly code: 'cnab_account_invalid'; readonly value: string }
  | { readonly code: 'cnab_pix_key_invalid'; readonly key: string; readonly keyType: PixKeyType; readonly reason: KeyReason }
  | { readonly code: 'cnab_amount_zero' }
  | { readonly code: 'cnab_lot_number'; readonly written: number; readonly expected: number }
  | { readonly code: 'cnab_sequence'; readonly written: number; readonly expected: number }
  | { readonly code: 'cnab_operation'; readonly operation: string }
  | { readonly code: 'cnab_lot_records'; readonly written: number; readonly counted: number }
  | { readonly code: 'cnab_lot_sum'; readonly writtenCents: number; readonly countedCents: number }
  | { readonly code: 'cnab_file_lots'; readonly written: number; readonly counted: number }
  | { readonly code: 'cnab_file_records'; readonly written: number; readonly counted: number }
  | { readonly code: 'cnab_file_unfinished'; readonly expected: string }
  | { readonly code: 'cnab_your_number_twice'; readonly yourNumber: string; readonly firstLine: number }
  | { readonly code: 'cnab_your_number_missing' }
  | { readonly code: 'cnab_date_past'; readonly date: string; readonly today: string }
  /** A remittance whose titles are all bills: `boleto pay --file` pays them. */
  | { readonly code: 'cnab_bills_only'; readonly bills: number }
  /** A list of bills with none. */
  | { readonly code: 'cnab_no_bills' }
  /** A payment to an account (a credit, TED, or a Pix by account data): paybatch pays Pix by key. */
  | { readonly code: 'cnab_account_title'; readonly form: string }
  /** A payment to an account without the payee's CPF/CNPJ, which a Pix by account data needs. */
  | { readonly code: 'cnab_account_no_document' };

/** Every reason of the sheet layer, put into words at the edge (src/words/sheet.ts). */
export type SheetReason = RowReason | SheetFileReason | Cnab240Reason;

/** A problem of a sheet: where (file, line, the column as the sheet names it, or "row"/"header"/"sheet") and why. */
export interface SheetProblem {
  readonly file?: string;
  readonly line?: number;
  readonly field?: string;
  readonly reason: SheetReason;
}
