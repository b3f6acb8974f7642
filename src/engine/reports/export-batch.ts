import type { Ledger } from '../../ledger/open-ledger.js';
import { retryableItems, type RetryStatus } from '../../ledger/retry-store.js';
import type { PaymentSheetRow } from '../../sheet/payment-sheet-csv.js';

/**
 * `paybatch batch export`: the rows `batch retry` would take (failed, or returned for good, and not paid again
 * since), as payment sheet rows to fix by hand and import; the edge writes them in the columns and amounts of the run's language.
 * Rows already paid again are left out: fixing and importing them would pay those people twice.
 */
export async function exportBatchRows(ledger: Ledger, batchId: number, statuses: readonly RetryStatus[]): Promise<PaymentSheetRow[]> {
  return (await retryableItems(ledger, batchId, statuses)).map(({ item }) => ({
    key: item.key,
    keyType: item.key_type,
    amountCents: item.amount_cents,
    description: item.description,
    name: item.sheet_name ?? item.recipient_name,
    document: item.sheet_document,
    reason: item.reason,
  }));
}
