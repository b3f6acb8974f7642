/** The receipts saved for paid items, as `paybatch receipts list|open` find them. */
import { findBatch } from '../../ledger/batch-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import { savedReceipts, type SavedReceipt } from '../../ledger/receipt-store.js';

export { receiptOf, type SavedReceipt } from '../../ledger/receipt-store.js';

/**
 * The saved receipts of the batch named by `batchRef` (local #id or provider id), or of every batch when absent;
 * `no-such-batch` when the ledger has no such batch.
 */
export async function receiptsOfBatch(
  ledger: Ledger,
  batchRef: string | undefined,
): Promise<{ readonly found: true; readonly batchId: number | null; readonly receipts: SavedReceipt[] } | { readonly found: false; readonly code: 'no-such-batch'; readonly ref: string }> {
  const batch = batchRef === undefined ? undefined : await findBatch(ledger, batchRef);
  if (batchRef !== undefined && !batch) return { found: false, code: 'no-such-batch', ref: batchRef };
  return { found: true, batchId: batch?.id ?? null, receipts: await savedReceipts(ledger, batch?.id) };
}
