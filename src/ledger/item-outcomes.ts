import { sql } from 'kysely';
import type { Ledger } from './ledger.js';

/** Where one payment of a batch ended: the status of its last attempt (reprocessed payments have several). */
export interface ItemOutcome {
  /** Sheet row. */
  readonly line: number;
  /** The item status of the last attempt. */
  readonly outcome: string;
  readonly attempts: number;
  /** Amount in centavos. */
  readonly cents: number;
  /** The last attempt's receipt is saved. */
  readonly receiptSaved: boolean;
  /** Receipts saved over every attempt (a payment paid, returned, then paid again has two). */
  readonly receipts: number;
}

/** For each item first added to batch `batchId`: how its last attempt (in any batch) ended. */
export async function itemOutcomes(ledger: Ledger, batchId: number): Promise<ItemOutcome[]> {
  const rows = await ledger.all(
    sql<ItemOutcome>`SELECT original.line AS line,
         (SELECT status FROM items latest WHERE COALESCE(latest.original_item_id, latest.id) = original.id ORDER BY latest.attempt DESC LIMIT 1) AS outcome,
         (SELECT MAX(attempt) FROM items a WHERE COALESCE(a.original_item_id, a.id) = original.id) AS attempts,
         original.amount_cents AS cents,
         (SELECT CASE WHEN latest.receipt_path IS NULL THEN 0 ELSE 1 END FROM items latest WHERE COALESCE(latest.original_item_id, latest.id) = original.id ORDER BY latest.attempt DESC LIMIT 1) AS "receiptSaved",
         (SELECT COUNT(*) FROM items a WHERE COALESCE(a.original_item_id, a.id) = original.id AND a.receipt_path IS NOT NULL) AS receipts
       FROM items original WHERE original.batch_id = ${batchId} ORDER BY original.id`,
  );
  return rows.map((r) => ({ ...r, cents: Number(r.cents), receiptSaved: Number(r.receiptSaved) === 1, receipts: Number(r.receipts) }));
}
