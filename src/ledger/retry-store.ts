import type { Destination } from '../domain/destination.js';
import { insertDraftBatch, updateBatch, type BatchRow } from './batch-repository.js';
import type { ItemRow, RecentPayment } from './item-repository.js';
import { sqliteOf, type Ledger } from './ledger.js';

/** What `batch retry` and `batch export` take from a batch: rows that failed, or were returned for good. */
export type RetryStatus = 'failed' | 'returned';

/** A row that may be paid again: its item, the first item of its sheet row, and how often it was retried already. */
export interface RetryableItem {
  readonly item: ItemRow;
  readonly rootId: number;
  readonly retries: number;
}

// The first item of a row: a retry names it; a reprocess attempt's original is it, or a retry that names it.
const rootOf = (i: string, p: string) => `COALESCE(${i}.retry_root_id, ${p}.retry_root_id, ${p}.id, ${i}.id)`;

// A payment of the row that may still pay, or has paid: anything but failed, or returned for good (a confirmed
// final return, or a return whose reprocess attempt exists and is counted on its own).
const mayPay = (f: string) => `NOT (
  ${f}.status = 'failed'
  OR (${f}.status = 'returned' AND ${f}.return_confirmed_at IS NOT NULL AND (
    ${f}.return_action = 'final'
    OR EXISTS (SELECT 1 FROM items n WHERE n.original_item_id = COALESCE(${f}.original_item_id, ${f}.id) AND n.attempt > ${f}.attempt))))`;

const RETRYABLE_SQL = `
  WITH cand AS (
    SELECT i.id AS id, ${rootOf('i', 'p')} AS root
    FROM items i LEFT JOIN items p ON p.id = i.original_item_id
    WHERE i.batch_id = ?
      AND ((? AND i.status = 'failed')
        OR (? AND i.status = 'returned' AND i.return_action = 'final' AND i.return_confirmed_at IS NOT NULL)))
  SELECT i.*, cand.root AS rootId, (SELECT count(*) FROM items c WHERE c.retry_of = i.id) AS retries
  FROM cand JOIN items i ON i.id = cand.id
  WHERE NOT EXISTS (SELECT 1 FROM items h WHERE (h.id = cand.root OR h.retry_root_id = cand.root) AND h.id <> cand.id AND ${mayPay('h')})
    AND NOT EXISTS (
      SELECT 1 FROM items h JOIN items a ON a.original_item_id = h.id
      WHERE (h.id = cand.root OR h.retry_root_id = cand.root) AND a.id <> cand.id AND ${mayPay('a')})
  ORDER BY i.line, i.id`;

/**
 * The items of a batch in `statuses` that may be paid again, in sheet order: failed, or returned with a final reason
 * the provider's item page confirmed — and only when no other payment of the same sheet row (its original, an earlier
 * retry, a reprocess attempt) is under way or paid. Rows retried into a batch whose payment failed again qualify.
 */
export function retryableItems(ledger: Ledger, batchId: number, statuses: readonly RetryStatus[]): RetryableItem[] {
  const rows = sqliteOf(ledger)
    .prepare(RETRYABLE_SQL)
    .all(batchId, statuses.includes('failed') ? 1 : 0, statuses.includes('returned') ? 1 : 0) as (ItemRow & { rootId: number; retries: number })[];
  return rows.map(({ rootId, retries, ...item }) => ({ item, rootId, retries }));
}

/**
 * The import's duplicate rule, for a retry: first attempts of these `keys` created since `since` and not failed
 * (a failed payment paid nobody), except those of the rows `exceptRoots` (the rows being retried, whose own earlier
 * payments are not duplicates of themselves).
 */
export function recentPaymentsBesides(ledger: Ledger, o: { since: Date; keys: readonly string[]; exceptRoots: readonly number[] }): RecentPayment[] {
  return sqliteOf(ledger)
    .prepare(
      `SELECT items.key AS key, items.amount_cents AS amountCents, batches.name AS batchName, items.created_at AS createdAt
       FROM items JOIN batches ON batches.id = items.batch_id
       WHERE items.key IN (SELECT value FROM json_each(?)) AND items.created_at >= ? AND items.attempt = 1 AND items.status != 'failed'
         AND COALESCE(items.retry_root_id, items.id) NOT IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(o.keys), o.since.toISOString(), JSON.stringify(o.exceptRoots)) as RecentPayment[];
}

/** One new payment of a retry: the item paid again, under a new identifier, to the destination looked up now. */
export interface RetryItem {
  readonly from: RetryableItem;
  readonly identifier: string;
  readonly destination: Destination;
}

/**
 * Writes a retry batch (draft; marked to start when `start`), its link to `sourceBatchId` and its items, each naming
 * the item it pays again and the first item of its row. Call inside a transaction, after checking the rows are
 * still retryable there. Returns the new batch's id.
 */
export function recordRetryBatch(
  ledger: Ledger,
  o: { sourceBatchId: number; statuses: readonly RetryStatus[]; name: string; items: readonly RetryItem[]; start: boolean; at: Date },
): number {
  const at = o.at.toISOString();
  const total = o.items.reduce((sum, it) => sum + it.from.item.amount_cents, 0);
  const batchId = insertDraftBatch(ledger, { importId: null, kind: 'sheet', name: o.name, itemCount: o.items.length, totalCents: total, at });
  if (o.start) updateBatch(ledger, batchId, { start_requested: 1 }, o.at);
  ledger.run(ledger.db.insertInto('retries').values({ batch_id: batchId, source_batch_id: o.sourceBatchId, statuses: o.statuses.join(','), created_at: at }));
  const insert = sqliteOf(ledger).prepare(
    `INSERT INTO items (batch_id, line, identifier, key, key_type, amount_cents, description, sheet_name, sheet_document,
       destination_json, recipient_name, status, retry_of, retry_root_id, created_at, updated_at, status_changed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'resolved', ?, ?, ?, ?, ?)`,
  );
  for (const { from, identifier, destination } of o.items) {
    const it = from.item;
    insert.run(batchId, it.line, identifier, it.key, it.key_type, it.amount_cents, it.description, it.sheet_name, it.sheet_document,
      JSON.stringify(destination), destination.name || null, it.id, from.rootId, at, at, at);
  }
  return batchId;
}

/** The retry batches made from `sourceBatchId`, oldest first. */
export function retryBatchesOf(ledger: Ledger, sourceBatchId: number): BatchRow[] {
  return ledger.all(
    ledger.db
      .selectFrom('batches')
      .innerJoin('retries', 'retries.batch_id', 'batches.id')
      .selectAll('batches')
      .where('retries.source_batch_id', '=', sourceBatchId)
      .orderBy('batches.id'),
  );
}
