import type Sqlite from 'better-sqlite3';
import type { Selectable, Updateable } from 'kysely';
import type { ItemState } from '../domain/item-state.js';
import { sqliteOf, type Ledger } from './ledger.js';
import type { BatchStatus, ItemsTable } from './schema.js';

export type ItemRow = Selectable<ItemsTable>;
/** Columns to change on an item; absent ones stay as they are. */
export type ItemChanges = Omit<Updateable<ItemsTable>, 'id' | 'batch_id' | 'identifier'>;

/** The item holding this identifier (the provider's idempotency key), with its batch's status; undefined when none. */
export function itemByIdentifier(ledger: Ledger, identifier: string): (ItemRow & { batchStatus: BatchStatus }) | undefined {
  return statementsOf(ledger).byIdentifier.get(identifier) as (ItemRow & { batchStatus: BatchStatus }) | undefined;
}

/** What applying a Pix event reads of its item (a webhook's hot path: the columns it needs, not the whole row). */
export type ItemForEvent = Pick<ItemRow, 'id' | 'status' | 'amount_cents' | 'key' | 'pix_id' | 'end_to_end_id' | 'return_action' | 'return_confirmed_at'> & { batchStatus: BatchStatus };

/** The item holding this identifier, as applyPixEvent reads it; undefined when none. */
export function itemForEvent(ledger: Ledger, identifier: string): ItemForEvent | undefined {
  return statementsOf(ledger).forEvent.get(identifier) as ItemForEvent | undefined;
}

/** Changes the columns named in `changes` (undefined ones are left alone). */
export function updateItem(ledger: Ledger, id: number, changes: ItemChanges): void {
  const columns = Object.keys(changes).filter((k) => changes[k as keyof ItemChanges] !== undefined) as (keyof ItemChanges)[];
  if (columns.length === 0) return;
  const s = statementsOf(ledger);
  const key = columns.join(',');
  let update = s.updates.get(key);
  if (!update) {
    // Column names come from ItemChanges (code), never from input; values are bound.
    update = sqliteOf(ledger).prepare(`UPDATE items SET ${columns.map((c) => `"${c}" = ?`).join(', ')} WHERE id = ?`);
    s.updates.set(key, update);
  }
  update.run(...columns.map((c) => changes[c]), id);
}

// Every webhook delivery and reconciled item runs these: prepared once per connection (STYLE.md: hot paths use
// prepared statements; kysely rebuilding a query per event cost 5–8%).
type Statements = { byIdentifier: Sqlite.Statement<[string]>; forEvent: Sqlite.Statement<[string]>; updates: Map<string, Sqlite.Statement> };
const prepared = new WeakMap<Sqlite.Database, Statements>();

function statementsOf(ledger: Ledger): Statements {
  const raw = sqliteOf(ledger);
  let s = prepared.get(raw);
  if (!s) {
    s = {
      byIdentifier: raw.prepare<[string]>('SELECT items.*, batches.status AS batchStatus FROM items INNER JOIN batches ON batches.id = items.batch_id WHERE items.identifier = ?'),
      forEvent: raw.prepare<[string]>(
        `SELECT items.id, items.status, items.amount_cents, items.key, items.pix_id, items.end_to_end_id, items.return_action,
           items.return_confirmed_at, batches.status AS batchStatus
         FROM items INNER JOIN batches ON batches.id = items.batch_id WHERE items.identifier = ?`,
      ),
      updates: new Map(),
    };
    prepared.set(raw, s);
  }
  return s;
}

/** Items of a batch not settled yet (`states` lists the settled ones). */
export function countItemsNotIn(ledger: Ledger, batchId: number, states: readonly ItemState[]): number {
  const row = ledger.first(ledger.db.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n')).where('batch_id', '=', batchId).where('status', 'not in', [...states]));
  return row?.n ?? 0;
}

/** How many items of a batch are in this state. */
export function countItemsIn(ledger: Ledger, batchId: number, state: ItemState): number {
  const row = ledger.first(ledger.db.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n')).where('batch_id', '=', batchId).where('status', '=', state));
  return row?.n ?? 0;
}

/**
 * The next `limit` items of a batch in this state after item `afterId`, in the order they were recorded (the
 * sheet's): a large batch is read a chunk at a time, never all held at once.
 */
export function itemsOfBatchAfter(ledger: Ledger, batchId: number, state: ItemState, afterId: number, limit: number): ItemRow[] {
  return ledger.all(
    ledger.db.selectFrom('items').selectAll().where('batch_id', '=', batchId).where('status', '=', state).where('id', '>', afterId).orderBy('id').limit(limit),
  );
}

export function itemsOfBatch(ledger: Ledger, batchId: number, status?: ItemState): ItemRow[] {
  let q = ledger.db.selectFrom('items').selectAll().where('batch_id', '=', batchId);
  if (status) q = q.where('status', '=', status);
  return ledger.all(q.orderBy('line').orderBy('id'));
}

/** A payment the ledger already holds, for spotting a sheet that pays someone again. */
export interface RecentPayment {
  readonly key: string;
  readonly amountCents: number;
  readonly batchName: string;
  readonly createdAt: string;
}

/** The provider's answer for an item the ledger sent: its remote id and status word, and the state that follows. */
export interface RemoteItemUpdate {
  readonly identifier: string;
  readonly remoteItemId: string;
  readonly remoteStatus: string;
  readonly state: ItemState;
}

/** Stores what the provider answered for added items (one statement, called inside the caller's transaction). */
export function markItemsSent(ledger: Ledger, updates: readonly RemoteItemUpdate[], now: Date): void {
  const at = now.toISOString();
  const stmt = sqliteOf(ledger).prepare(
    `UPDATE items SET remote_item_id = ?, remote_status = ?, status = ?, call_attempts = call_attempts + 1, last_error = NULL,
       updated_at = ?, status_changed_at = CASE WHEN status = ? THEN status_changed_at ELSE ? END
     WHERE identifier = ?`,
  );
  for (const u of updates) stmt.run(u.remoteItemId, u.remoteStatus, u.state, at, u.state, at, u.identifier);
}

/** Records a failed call for these items: counts the attempt and keeps the error for `batch show`. */
export function markItemsCallFailed(ledger: Ledger, identifiers: readonly string[], error: string, now: Date): void {
  const stmt = sqliteOf(ledger).prepare('UPDATE items SET call_attempts = call_attempts + 1, last_error = ?, updated_at = ? WHERE identifier = ?');
  ledger.transaction(() => {
    for (const id of identifiers) stmt.run(error, now.toISOString(), id);
  });
}

/** A paid (or returned) item whose receipt can be fetched by its Pix id, with what names its file. */
export interface ReceiptDue {
  readonly id: number;
  readonly identifier: string;
  readonly pixId: string;
  readonly line: number | null;
  readonly recipient: string | null;
  readonly endToEndId: string | null;
  /** The batch of the payment's first attempt (the sheet's), whose folder its receipts go to. */
  readonly batchName: string;
  readonly batchId: number;
}

/** Items with a Pix id and no receipt on disk yet (every one with `again`), of one batch or all, in ledger order. */
export function receiptsDue(ledger: Ledger, o: { batchId?: number; again?: boolean }): ReceiptDue[] {
  let q = ledger.db
    .selectFrom('items')
    // A new attempt's receipt belongs with the sheet's: named by the batch of the first attempt, not the reprocess batch.
    .innerJoin('items as root', (join) => join.on((eb) => eb('root.id', '=', eb.fn.coalesce('items.original_item_id', 'items.id'))))
    .innerJoin('batches', 'batches.id', 'root.batch_id')
    .select(['items.id', 'items.identifier', 'items.pix_id', 'items.line', 'items.recipient_name', 'items.end_to_end_id', 'batches.name as batchName', 'batches.id as batchId'])
    .where('items.status', 'in', ['paid', 'returned'])
    .where('items.pix_id', 'is not', null);
  if (!o.again) q = q.where('items.receipt_path', 'is', null);
  if (o.batchId !== undefined) q = q.where('items.batch_id', '=', o.batchId);
  return ledger.all(q.orderBy('items.id')).map((r) => ({
    id: r.id,
    identifier: r.identifier,
    pixId: r.pix_id!,
    line: r.line,
    recipient: r.recipient_name,
    endToEndId: r.end_to_end_id,
    batchName: r.batchName,
    batchId: r.batchId,
  }));
}

/** Records where the receipts of many items were saved, with one prepared statement in one transaction (one commit). */
export function recordReceiptPaths(ledger: Ledger, saved: readonly { readonly itemId: number; readonly path: string }[]): void {
  if (saved.length === 0) return;
  const update = sqliteOf(ledger).prepare('UPDATE items SET receipt_path = ? WHERE id = ?');
  ledger.transaction(() => {
    for (const s of saved) update.run(s.path, s.itemId);
  });
}
