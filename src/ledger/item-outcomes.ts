import { sqliteOf, type Ledger } from './ledger.js';

/** Where one payment of a batch ended: the status of its last attempt (reprocessed payments have several). */
export interface ItemOutcome {
  /** Sheet row. */
  readonly line: number;
  /** The item status of the last attempt. */
  readonly outcome: string;
  readonly attempts: number;
  /** Amount in centavos. */
  readonly cents: number;
}

/** For each item first added to batch `batchId`: how its last attempt (in any batch) ended. */
export function itemOutcomes(ledger: Ledger, batchId: number): ItemOutcome[] {
  return sqliteOf(ledger)
    .prepare(
      `SELECT original.line AS line,
         (SELECT status FROM items last WHERE coalesce(last.original_item_id, last.id) = original.id ORDER BY attempt DESC LIMIT 1) AS outcome,
         (SELECT max(attempt) FROM items a WHERE coalesce(a.original_item_id, a.id) = original.id) AS attempts,
         original.amount_cents AS cents
       FROM items original WHERE original.batch_id = ?`,
    )
    .all(batchId) as ItemOutcome[];
}

/** How many items of the ledger have a saved receipt. */
export function savedReceiptCount(ledger: Ledger): number {
  return ledger.first(ledger.db.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n')).where('receipt_path', 'is not', null))?.n ?? 0;
}
