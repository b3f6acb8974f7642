import { sql } from 'kysely';
import type { Ledger } from './ledger.js';

/**
 * One payment of a sheet row as the statement and a batch's lineage read it: the item, its batch, and the row it
 * belongs to (`root`: the row's first item, the same id for its `batch retry` items and reprocess attempts).
 */
export interface RowPaymentRow {
  readonly id: number;
  readonly root: number;
  readonly batch_id: number;
  readonly batch_kind: 'sheet' | 'reprocess';
  readonly batch_name: string;
  readonly line: number | null;
  readonly key: string;
  readonly key_type: string;
  readonly amount_cents: number;
  readonly sheet_name: string | null;
  readonly sheet_document: string | null;
  readonly recipient_name: string | null;
  readonly destination_json: string | null;
  readonly status: string;
  readonly reason: string | null;
  readonly end_to_end_id: string | null;
  readonly retry_of: number | null;
  readonly original_item_id: number | null;
  readonly attempt: number;
  readonly created_at: string;
  readonly status_changed_at: string;
  /** When it settled, kept if it was later returned; null when it never paid. */
  readonly paid_at: string | null;
  /** For a failure or return: `reprocess` when instability left it unpaid and a new attempt is owed. */
  readonly return_action: 'reprocess' | 'final' | null;
}

// The row of item i: what a retry names, or its reprocess original's row (sheet-row.ts rootOf says the same).
const COLUMNS = sql.raw(`i.id AS id, COALESCE(i.retry_root_id, p.retry_root_id, p.id, i.id) AS root, i.batch_id AS batch_id,
  b.kind AS batch_kind, b.name AS batch_name, i.line AS line, i.key AS key, i.key_type AS key_type, i.amount_cents AS amount_cents,
  i.sheet_name AS sheet_name, i.sheet_document AS sheet_document, i.recipient_name AS recipient_name, i.destination_json AS destination_json,
  i.status AS status, i.reason AS reason, i.end_to_end_id AS end_to_end_id, i.retry_of AS retry_of, i.original_item_id AS original_item_id,
  i.attempt AS attempt, i.created_at AS created_at, i.status_changed_at AS status_changed_at, i.paid_at AS paid_at,
  i.return_action AS return_action
  FROM items i LEFT JOIN items p ON p.id = i.original_item_id JOIN batches b ON b.id = i.batch_id`);

/** Every payment of every sheet row of the ledger, in ledger order. */
export async function allRowPayments(ledger: Ledger): Promise<RowPaymentRow[]> {
  return numbers(await ledger.all(sql<RowPaymentRow>`SELECT ${COLUMNS} ORDER BY i.id`));
}

/**
 * Every payment of the sheet rows that batch `batchId` pays — its own items, the `batch retry` items and reprocess
 * attempts of the same rows in any batch, and the rows' first items when the batch is itself a retry — in ledger order.
 */
export async function rowPaymentsOfBatch(ledger: Ledger, batchId: number): Promise<RowPaymentRow[]> {
  return rowPaymentsFrom(ledger, sql`i.batch_id = ${batchId}`);
}

/** Every payment of the sheet rows items `itemIds` pay (rowPaymentsOfBatch for a page of items), in ledger order. */
export async function rowPaymentsOfItems(ledger: Ledger, itemIds: readonly number[]): Promise<RowPaymentRow[]> {
  if (itemIds.length === 0) return [];
  return rowPaymentsFrom(ledger, sql`i.id IN (${sql.join(itemIds)})`);
}

/** The payments of the rows of the items `seed` selects (as `i`). */
async function rowPaymentsFrom(ledger: Ledger, seed: ReturnType<typeof sql>): Promise<RowPaymentRow[]> {
  // By the indexed links (retry_root_id, original_item_id), not by comparing every item's computed row; the two
  // halves apart, so that each is an index lookup (an OR of both made SQLite scan the items).
  return numbers(
    await ledger.all(sql<RowPaymentRow>`
      WITH roots AS (
        SELECT DISTINCT COALESCE(i.retry_root_id, p.retry_root_id, p.id, i.id) AS root
        FROM items i LEFT JOIN items p ON p.id = i.original_item_id WHERE ${seed}),
      firsts AS (
        SELECT root AS id FROM roots
        UNION SELECT r.id FROM items r WHERE r.retry_root_id IN (SELECT root FROM roots))
      SELECT ${COLUMNS} WHERE i.id IN (SELECT id FROM firsts)
      UNION ALL
      SELECT ${COLUMNS} WHERE i.original_item_id IN (SELECT id FROM firsts) AND i.id NOT IN (SELECT id FROM firsts)
      ORDER BY id`),
  );
}

/**
 * True when some sheet row batch `batchId` pays was sent more than once: the batch is a retry or holds reprocess
 * attempts, or another item retries or reprocesses one of its items. A batch whose rows were each sent once has a
 * trivial lineage (each row ended as its own item), which its status totals already tell.
 */
export async function anyRowResent(ledger: Ledger, batchId: number): Promise<boolean> {
  // Walked from the items sent again (few, by their link indexes), not from the batch's items (up to a million):
  // `+batch_id` keeps SQLite off the batch index, `> 0` (ids are positive) lets it range over a link index where
  // IS NOT NULL made it scan the table, and CROSS JOIN keeps its join order.
  const found = await ledger.all(sql<{ one: number }>`
    SELECT 1 AS one WHERE
      EXISTS (SELECT 1 FROM items WHERE retry_root_id > 0 AND +batch_id = ${batchId})
      OR EXISTS (SELECT 1 FROM items WHERE original_item_id > 0 AND +batch_id = ${batchId})
      OR EXISTS (SELECT 1 FROM items r CROSS JOIN items i WHERE r.retry_root_id IS NOT NULL AND i.id = r.retry_root_id AND i.batch_id = ${batchId})
      OR EXISTS (SELECT 1 FROM items r CROSS JOIN items i WHERE r.original_item_id IS NOT NULL AND i.id = r.original_item_id AND i.batch_id = ${batchId})`);
  return found.length > 0;
}

// PostgreSQL returns bigint sums and some integers as text; the ledger's ids and centavos fit a number.
function numbers(rows: readonly RowPaymentRow[]): RowPaymentRow[] {
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    root: Number(r.root),
    batch_id: Number(r.batch_id),
    amount_cents: Number(r.amount_cents),
    attempt: Number(r.attempt),
    line: r.line === null ? null : Number(r.line),
    retry_of: r.retry_of === null ? null : Number(r.retry_of),
    original_item_id: r.original_item_id === null ? null : Number(r.original_item_id),
  }));
}
