import type { Locale } from '../words/locale.js';
import type { Ledger } from '../ledger/open-ledger.js';
import { retryableItems, type RetryStatus } from '../ledger/retry-store.js';
import { paymentSheetCsv } from '../sheet/payment-sheet-csv.js';

/**
 * `paybatch batch export`: the rows `batch retry` would take (failed, or returned for good, and not paid again
 * since) as a payment sheet to fix by hand and import, in the locale's columns and amounts. Rows already paid again
 * are left out: fixing and importing them would pay those people twice.
 */
export async function exportBatchSheet(ledger: Ledger, batchId: number, statuses: readonly RetryStatus[], locale: Locale): Promise<{ csv: string; rows: number }> {
  const rows = (await retryableItems(ledger, batchId, statuses)).map(({ item }) => ({
    key: item.key,
    keyType: item.key_type,
    amountCents: item.amount_cents,
    description: item.description,
    name: item.sheet_name ?? item.recipient_name,
    document: item.sheet_document,
    reason: item.reason,
  }));
  return { csv: paymentSheetCsv(rows, locale === 'pt-BR' ? 'pt' : 'en'), rows: rows.length };
}
