import type { Destination } from '../domain/destination.js';
import { insertDraftBatch, updateBatch, type BatchRow } from './batch-repository.js';
import type { ItemRow, RecentPayment } from './item-repository.js';
import { sql } from 'kysely';
import { inLists, insertRuns } from './chunks.js';
import type { Ledger } from './ledger.js';
import { anotherPaymentMayPay, mayHavePaid, rootOf } from './sheet-row.js';

/** What `batch retry` and `batch export` take from a batch: rows that failed, or were returned for good. */
export type RetryStatus = 'failed' | 'returned';

/** A row that may be paid again: its item, the first item of its sheet row, and how often it was retried already. */
export interface RetryableItem {
  readonly item: ItemRow;
  readonly rootId: number;
  readonly retries: number;
}

// The statement's fixed parts (aliases from code, never input), kept as SQL text between its bound values.
const RETRYABLE_HEAD = sql.raw(`
  WITH cand AS (
    SELECT i.id AS id, ${rootOf('i', 'p')} AS root
    FROM items i LEFT JOIN items p ON p.id = i.original_item_id
    WHERE i.batch_id = `);
const RETRYABLE_TAIL = sql.raw(`
  SELECT i.*, cand.root AS "rootId", (SELECT COUNT(*) FROM items c WHERE c.retry_of = i.id) AS retries
  FROM cand JOIN items i ON i.id = cand.id
  WHERE NOT ${anotherPaymentMayPay('cand.root', 'cand.id')}
  ORDER BY i.line, i.id`);

/**
 * The items of a batch in `statuses` that may be paid again, in sheet order: failed, or returned with a final reason
 * the provider's item page confirmed — and only when no other payment of the same sheet row (its original, an earlier
 * retry, a reprocess attempt) is under way or paid. Rows retried into a batch whose payment failed again qualify.
 */
export async function retryableItems(ledger: Ledger, batchId: number, statuses: readonly RetryStatus[]): Promise<RetryableItem[]> {
  const failed = statuses.includes('failed') ? 1 : 0;
  const returned = statuses.includes('returned') ? 1 : 0;
  const rows = await ledger.all(
    sql<ItemRow & { rootId: number; retries: number }>`${RETRYABLE_HEAD}${batchId}
      AND ((${failed} = 1 AND i.status = 'failed')
        OR (${returned} = 1 AND i.status = 'returned' AND i.return_action = 'final' AND i.return_confirmed_at IS NOT NULL)))
      ${RETRYABLE_TAIL}`,
  );
  return rows.map(({ rootId, retries, ...item }) => ({ item, rootId, retries: Number(retries) }));
}

/**
 * The import's duplicate rule, for a retry: first attempts of these `keys` created since `since` that may have paid
 * (mayHavePaid), except those of the rows `exceptRoots` (the rows being retried, whose own earlier
 * payments are not duplicates of themselves).
 */
export async function recentPaymentsBesides(ledger: Ledger, o: { since: Date; keys: readonly string[]; exceptRoots: readonly number[] }): Promise<RecentPayment[]> {
  const except = new Set(o.exceptRoots);
  const found: RecentPayment[] = [];
  for (const keys of inLists([...new Set(o.keys)])) {
    const rows = await ledger.all(
      ledger.db
        .selectFrom('items')
        .innerJoin('batches', 'batches.id', 'items.batch_id')
        .select((eb) => [
          'items.key as key', 'items.amount_cents as amountCents', 'batches.name as batchName', 'items.created_at as createdAt',
          eb.fn.coalesce('items.retry_root_id', 'items.id').as('root'),
        ])
        .where('items.key', 'in', keys)
        .where('items.created_at', '>=', o.since.toISOString())
        .where('items.attempt', '=', 1)
        .where(mayHavePaid)
        .orderBy('items.id'),
    );
    for (const { root, ...payment } of rows) if (!except.has(root)) found.push(payment);
  }
  return found;
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
export async function recordRetryBatch(
  ledger: Ledger,
  o: { sourceBatchId: number; statuses: readonly RetryStatus[]; name: string; items: readonly RetryItem[]; start: boolean; at: Date; importedBy?: string | null },
): Promise<number> {
  const at = o.at.toISOString();
  const total = o.items.reduce((sum, it) => sum + it.from.item.amount_cents, 0);
  const batchId = await insertDraftBatch(ledger, { importId: null, kind: 'sheet', name: o.name, itemCount: o.items.length, totalCents: total, at, importedBy: o.importedBy ?? null });
  if (o.start) await updateBatch(ledger, batchId, { start_requested: 1 }, o.at);
  await ledger.run(ledger.db.insertInto('retries').values({ batch_id: batchId, source_batch_id: o.sourceBatchId, statuses: o.statuses.join(','), created_at: at }));
  // 17 columns a row: 512 rows a statement stay well under either database's limit on bound values.
  for (const run of insertRuns(o.items, 512)) {
    await ledger.run(
      ledger.db.insertInto('items').values(
        run.map(({ from, identifier, destination }) => ({
          batch_id: batchId,
          line: from.item.line,
          identifier,
          key: from.item.key,
          key_type: from.item.key_type,
          amount_cents: from.item.amount_cents,
          description: from.item.description,
          sheet_name: from.item.sheet_name,
          sheet_document: from.item.sheet_document,
          destination_json: JSON.stringify(destination),
          recipient_name: destination.name || null,
          status: 'resolved' as const,
          retry_of: from.item.id,
          retry_root_id: from.rootId,
          created_at: at,
          updated_at: at,
          status_changed_at: at,
        })),
      ),
    );
  }
  return batchId;
}

/** The retry batches made from `sourceBatchId`, oldest first. */
export async function retryBatchesOf(ledger: Ledger, sourceBatchId: number): Promise<BatchRow[]> {
  return ledger.all(
    ledger.db
      .selectFrom('batches')
      .innerJoin('retries', 'retries.batch_id', 'batches.id')
      .selectAll('batches')
      .where('retries.source_batch_id', '=', sourceBatchId)
      .orderBy('batches.id'),
  );
}
