import type { SheetReason } from '../../domain/sheet-reason.js';
import { InputRejectedError } from '../../errors.js';

/** Why a key's lookup gave no destination: the provider does not know it, refused it (its message), or it was not asked. */
export type LookupFailure =
  | { readonly code: 'key_lookup_failed'; readonly why: 'unknown_key' }
  | { readonly code: 'key_lookup_failed'; readonly why: 'refused_key'; readonly message: string }
  | { readonly code: 'key_lookup_failed'; readonly why: 'not_looked_up' };

/** Why a row is not paid, as data: the sheet's own reasons, the provider's answer about its key, or an earlier payment. */
export type RowReason =
  | SheetReason
  | LookupFailure
  | { readonly code: 'document_mismatch'; readonly shown: string; readonly given: string }
  | { readonly code: 'no_document_shown' }
  | { readonly code: 'paid_before'; readonly key: string; readonly amountCents: number; readonly batchName: string; readonly date: string }
  /** A remittance's title already paid, or still being paid, under the same company document and "seu número". */
  | { readonly code: 'title_paid'; readonly yourNumber: string; readonly batchId: number }
  | { readonly code: 'title_open'; readonly yourNumber: string; readonly batchId: number }
  /** Its last attempt failed or was returned by a claim the provider's record has not yet confirmed. */
  | { readonly code: 'title_unconfirmed'; readonly yourNumber: string; readonly batchId: number; readonly status: string }
  | { readonly code: 'company_differs'; readonly document: string; readonly configured: string };

/** A row (or, without a line, the sheet) that cannot be paid: where, and why as data; the CLI words it. */
export interface ImportProblem {
  readonly file?: string;
  readonly line?: number;
  readonly field?: string;
  readonly reason: RowReason;
}

/**
 * Why an import (or `--check`, or a retry) is refused, as data. `imported`: an import was refused (nothing was
 * written), false for `--check`. `rejectedFile`: where `--skip-invalid` would write the rows left out.
 */
export type ImportRefusal =
  | { readonly code: 'sheet_unreadable'; readonly file: string; readonly imported: boolean }
  | { readonly code: 'sheet_empty'; readonly file: string; readonly imported: boolean }
  | { readonly code: 'rows_invalid'; readonly file: string; readonly rejected: number; readonly rows: number; readonly rejectedFile: string | null }
  | { readonly code: 'rows_ruled_out'; readonly file: string; readonly rows: number; readonly rejectedFile: string }
  | { readonly code: 'no_row_payable'; readonly file: string }
  | { readonly code: 'above_batch_total'; readonly file: string; readonly totalCents: number; readonly limitCents: number; readonly imported: boolean }
  | { readonly code: 'retry_ruled_out'; readonly source: string; readonly batchId: number; readonly rows: number; readonly statuses: string }
  | { readonly code: 'duplicates'; readonly source: string; readonly rows: number; readonly days: number; readonly nothing: 'imported' | 'created' }
  /** A remittance whose titles cannot be paid as they stand (each problem names its line). */
  | { readonly code: 'remittance_refused'; readonly file: string; readonly titles: number }
  /** A remittance of bills only: they are paid by `boleto pay --file`. */
  | { readonly code: 'remittance_bills_only'; readonly file: string; readonly bills: number };

/**
 * An import refused by its rules; nothing was written. The refusal and the rows' problems are values: the CLI turns
 * the error into words (src/cli/messages/import-refusals.ts) before it is shown.
 */
export class ImportRefusedError extends InputRejectedError {
  constructor(
    readonly refusal: ImportRefusal,
    readonly rows: readonly ImportProblem[] = [],
  ) {
    super(`import refused: ${refusal.code}`);
  }
}
