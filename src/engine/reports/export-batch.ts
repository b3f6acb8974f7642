import type { Ledger } from '../../ledger/open-ledger.js';
import { retryableItems, type RetryStatus } from '../../ledger/retry-store.js';
import type { PaymentSheetRow } from '../../sheet/payment-sheet-csv.js';

/** The rows to fix, and how many more wait for the provider's record to confirm how they ended. */
export interface ExportedRows {
  readonly rows: PaymentSheetRow[];
  readonly unconfirmed: number;
}

/**
 * `paybatch batch export`: the rows `batch retry` would take (failed, or returned for good, and not paid again
 * since), as payment sheet rows to fix by hand and import; the edge writes them in the columns and amounts of the run's language.
 * Rows already paid again are left out: fixing and importing them would pay those people twice. So are rows whose
 * outcome only an event claimed: the provider may still pay them, until its item page confirms (the daemon's next
 * read, or `batch show --refresh`).
 */
export async function exportBatchRows(ledger: Ledger, batchId: number, statuses: readonly RetryStatus[]): Promise<ExportedRows> {
  const retryable = await retryableItems(ledger, batchId, statuses);
  const confirmed = retryable.filter(({ item }) => item.record_state === item.status);
  return { rows: confirmed.map(({ item }) => ({
    key: item.key,
    keyType: item.key_type,
    amountCents: item.amount_cents,
    description: item.description,
    name: item.sheet_name ?? item.recipient_name,
    document: item.sheet_document,
    reason: item.reason,
  })), unconfirmed: retryable.length - confirmed.length };
}
