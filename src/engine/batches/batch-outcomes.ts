/** How the payments of a batch ended, counted (what `paybatch demo` sums up once its batch has settled). */
import { itemOutcomes } from '../../ledger/item-outcomes.js';
import type { Ledger } from '../../ledger/open-ledger.js';

export interface BatchOutcomes {
  /** Sheet rows of the batch. */
  readonly rows: number;
  readonly paid: number;
  readonly paidCents: number;
  /** Paid only by a later attempt (the provider reprocessed them). */
  readonly paidAfterReprocess: number;
  readonly failed: number;
  /** Returned for good. */
  readonly returnedFinal: number;
  /** Neither paid, failed nor returned yet. */
  readonly open: number;
  /** Receipts saved for the batch's payments, every attempt counted (paidReceipts + otherReceipts). */
  readonly receipts: number;
  /** Receipts of the payments that ended paid (their last attempt's): equal to `paid` once every receipt is in. */
  readonly paidReceipts: number;
  /** Receipts of attempts that did not end paid: payments returned after they were paid (a reprocessed one, or one returned for good). */
  readonly otherReceipts: number;
}

/** Each payment first added to batch `batchId` counted by where its last attempt ended. */
export async function batchOutcomes(ledger: Ledger, batchId: number): Promise<BatchOutcomes> {
  const outcomes = await itemOutcomes(ledger, batchId);
  const count = (f: (r: (typeof outcomes)[number]) => boolean) => outcomes.filter(f).length;
  const paid = outcomes.filter((r) => r.outcome === 'paid');
  const receipts = outcomes.reduce((s, r) => s + r.receipts, 0);
  const paidReceipts = count((r) => r.outcome === 'paid' && r.receiptSaved);
  return {
    rows: outcomes.length,
    paid: paid.length,
    paidCents: paid.reduce((s, r) => s + r.cents, 0),
    paidAfterReprocess: count((r) => r.outcome === 'paid' && r.attempts > 1),
    failed: count((r) => r.outcome === 'failed'),
    returnedFinal: count((r) => r.outcome === 'returned'),
    open: count((r) => !['paid', 'failed', 'returned'].includes(r.outcome)),
    receipts,
    paidReceipts,
    otherReceipts: receipts - paidReceipts,
  };
}
