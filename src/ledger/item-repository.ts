import { sql, type Compilable, type RawBuilder, type Selectable, type Updateable } from 'kysely';
import type { ItemState } from '../domain/item-state.js';
import { inLists } from './chunks.js';
import { ledgerTime } from './ledger-clock.js';
import type { Ledger } from './ledger.js';
import { closePixIdClaims } from './pix-id-claims.js';
import { preparedQuery } from './prepared-query.js';
import { holderEndedHere } from './process-claim.js';
import type { BatchStatus, ItemsTable } from './schema.js';

export type ItemRow = Selectable<ItemsTable>;
/** Columns to change on an item; absent ones stay as they are. */
export type ItemChanges = Omit<Updateable<ItemsTable>, 'id' | 'batch_id' | 'identifier'>;

/** The item holding this identifier (the provider's idempotency key), with its batch's status; undefined when none. */
export async function itemByIdentifier(ledger: Ledger, identifier: string): Promise<(ItemRow & { batchStatus: BatchStatus }) | undefined> {
  return ledger.first(byIdentifier(ledger, identifier));
}

/** Which of these identifiers the ledger has items for (asked a few hundred at a time). */
export async function knownIdentifiers(ledger: Ledger, identifiers: readonly string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (const list of inLists(identifiers)) {
    for (const r of await ledger.all(ledger.db.selectFrom('items').select('identifier').where('identifier', 'in', list))) known.add(r.identifier);
  }
  return known;
}

const byIdentifier = preparedQuery((db, identifier: string) =>
  db.selectFrom('items').innerJoin('batches', 'batches.id', 'items.batch_id').selectAll('items').select('batches.status as batchStatus').where('items.identifier', '=', identifier),
);

/** What applying a Pix event reads of its item (a webhook's hot path: the columns it needs, not the whole row). */
export type ItemForEvent = Pick<ItemRow, 'id' | 'batch_id' | 'status' | 'amount_cents' | 'key' | 'pix_id' | 'end_to_end_id' | 'return_action' | 'return_confirmed_at' | 'record_state'> & {
  batchStatus: BatchStatus;
};

/** The item holding this identifier, as applyPixEvent reads it; undefined when none. */
export async function itemForEvent(ledger: Ledger, identifier: string): Promise<ItemForEvent | undefined> {
  return ledger.first(forEvent(ledger, identifier));
}

const forEvent = preparedQuery((db, identifier: string) =>
  db
    .selectFrom('items')
    .innerJoin('batches', 'batches.id', 'items.batch_id')
    .select([
      'items.id', 'items.batch_id', 'items.status', 'items.amount_cents', 'items.key', 'items.pix_id', 'items.end_to_end_id', 'items.return_action',
      'items.return_confirmed_at', 'items.record_state', 'batches.status as batchStatus',
    ])
    .where('items.identifier', '=', identifier),
);

/** Changes the columns named in `changes` (undefined ones are left alone). */
export async function updateItem(ledger: Ledger, id: number, changes: ItemChanges): Promise<void> {
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as ItemChanges;
  const columns = Object.keys(set) as (keyof ItemChanges)[];
  if (columns.length === 0) return;
  const at = set.status_changed_at ?? set.updated_at;
  // A webhook's path changes plain values: one compiled statement per set of columns, as preparedQuery does.
  if (Object.values(set).every((v) => v === null || typeof v !== 'object') && (set.status === undefined || typeof at === 'string')) {
    const paid = set.status === undefined ? 'keep' : set.status === 'paid' || set.status === 'returned' ? 'set' : 'clear';
    const key = `${paid} ${columns.join(' ')}`;
    let update = plainUpdates.get(key);
    if (!update) plainUpdates.set(key, (update = plainUpdate(columns, paid)));
    await ledger.run(update(ledger, ...columns.map((c) => set[c]), ...(paid === 'set' ? [at] : []), id));
    return;
  }
  await ledger.run(ledger.db.updateTable('items').set({ ...set, ...paidAt(set.status, at) }).where('id', '=', id));
}

type PlainUpdate = (ledger: Ledger, ...values: unknown[]) => Compilable<unknown>;
const plainUpdates = new Map<string, PlainUpdate>();

/** updateItem's statement for these columns: their values bound in order, then paid_at's instant (when set), then the id. */
function plainUpdate(columns: readonly (keyof ItemChanges)[], paid: 'keep' | 'set' | 'clear'): PlainUpdate {
  return preparedQuery((db, ...values: unknown[]) => {
    const set = Object.fromEntries(columns.map((c, i) => [c, values[i]])) as ItemChanges;
    const paidAt = paid === 'keep' ? {} : paid === 'clear' ? { paid_at: sql<null>`NULL` } : { paid_at: sql<string>`COALESCE(paid_at, ${values[columns.length]})` };
    return db.updateTable('items').set({ ...set, ...paidAt }).where('id', '=', values.at(-1) as number);
  });
}

/**
 * When a payment settled follows its state: set the first time it is paid, kept when it is returned (it did pay: a
 * return seen first says it had paid by then at the latest), cleared when the provider's record says it never paid
 * (a false claim corrected to failed or back under way).
 */
function paidAt(status: unknown, at: unknown): { paid_at?: RawBuilder<string> | null } {
  if (status === undefined) return {};
  if (status !== 'paid' && status !== 'returned') return { paid_at: null };
  return { paid_at: typeof at === 'string' ? sql<string>`COALESCE(paid_at, ${at})` : sql<string>`COALESCE(paid_at, status_changed_at)` };
}

/** Keeps a correction the provider's record made to an item's state, for the alert that names it. */
export async function recordItemCorrection(ledger: Ledger, c: { itemId: number; claimed: ItemState; recorded: ItemState; remoteStatus: string; at: string }): Promise<void> {
  await ledger.run(ledger.db.insertInto('item_corrections').values({ item_id: c.itemId, claimed: c.claimed, recorded: c.recorded, remote_status: c.remoteStatus, corrected_at: c.at }));
}

/** Items of a batch whose state the provider's record has not shown yet (a claim's, or no news at all). */
export async function countItemsUnconfirmed(ledger: Ledger, batchId: number): Promise<number> {
  const row = await ledger.first(
    ledger.db.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n')).where('batch_id', '=', batchId)
      .where((eb) => eb.or([eb('record_state', 'is', null), eb('record_state', '!=', eb.ref('status'))])),
  );
  return Number(row?.n ?? 0);
}

/** Items of a batch not settled yet (`states` lists the settled ones). */
export async function countItemsNotIn(ledger: Ledger, batchId: number, states: readonly ItemState[]): Promise<number> {
  const row = await ledger.first(ledger.db.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n')).where('batch_id', '=', batchId).where('status', 'not in', [...states]));
  return Number(row?.n ?? 0);
}

/** How many items of a batch are in this state. */
export async function countItemsIn(ledger: Ledger, batchId: number, state: ItemState): Promise<number> {
  const row = await ledger.first(ledger.db.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n')).where('batch_id', '=', batchId).where('status', '=', state));
  return Number(row?.n ?? 0);
}

/**
 * The next `limit` items of a batch in this state after item `afterId`, in the order they were recorded (the
 * sheet's): a large batch is read a chunk at a time, never all held at once.
 */
export async function itemsOfBatchAfter(ledger: Ledger, batchId: number, state: ItemState, afterId: number, limit: number): Promise<ItemRow[]> {
  return ledger.all(
    ledger.db.selectFrom('items').selectAll().where('batch_id', '=', batchId).where('status', '=', state).where('id', '>', afterId).orderBy('id').limit(limit),
  );
}

export async function itemsOfBatch(ledger: Ledger, batchId: number, status?: ItemState): Promise<ItemRow[]> {
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

/** Stores what the provider answered for added items (one statement each, called inside the caller's transaction). */
export async function markItemsSent(ledger: Ledger, updates: readonly RemoteItemUpdate[], now: Date): Promise<void> {
  const at = now.toISOString();
  for (const u of updates) {
    await ledger.run(
      ledger.db
        .updateTable('items')
        .set({
          remote_item_id: u.remoteItemId,
          remote_status: u.remoteStatus,
          status: u.state,
          // The provider's answer to the call is its own record of the item.
          record_state: u.state,
          call_attempts: sql`call_attempts + 1`,
          last_error: null,
          updated_at: at,
          status_changed_at: sql`CASE WHEN status = ${u.state} THEN status_changed_at ELSE ${at} END`,
          ...paidAt(u.state, at),
        })
        .where('identifier', '=', u.identifier),
    );
  }
}

/** Records a failed call for these items: counts the attempt and keeps the error for `batch show`. */
export async function markItemsCallFailed(ledger: Ledger, identifiers: readonly string[], error: string, now: Date): Promise<void> {
  await ledger.transaction(async (tx) => {
    for (const list of inLists(identifiers)) {
      await tx.run(
        tx.db
          .updateTable('items')
          .set({ call_attempts: sql`call_attempts + 1`, last_error: error, updated_at: now.toISOString() })
          .where('identifier', 'in', list),
      );
    }
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
export async function receiptsDue(ledger: Ledger, o: { batchId?: number; again?: boolean; ids?: readonly number[] }): Promise<ReceiptDue[]> {
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
  if (o.ids !== undefined) q = q.where('items.id', 'in', o.ids.length ? [...o.ids] : [0]);
  return (await ledger.all(q.orderBy('items.id'))).map((r) => ({
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

/**
 * Claims up to `limit` items whose receipt is due for `holder` for `claimMs` by the ledger's clock and returns them,
 * in id order from past `after`: items no other daemon holds (or whose claim expired: its holder may have died; or
 * whose holder, a process of this host, has ended). On PostgreSQL the rows are taken with FOR UPDATE SKIP LOCKED, so
 * daemons asking at the same moment get different items, none waiting for another.
 */
export async function claimReceiptsDue(ledger: Ledger, o: { holder: string; now: Date; claimMs: number; limit: number; after?: number }): Promise<ReceiptDue[]> {
  const now = ledgerTime(ledger, o.now);
  const holders = await ledger.all(
    ledger.db.selectFrom('items').select('receipt_claimed_by').distinct()
      .where('receipt_path', 'is', null).where('receipt_claimed_by', 'is not', null).where('receipt_claim_until', '>=', now),
  );
  const ended = holders.flatMap((h) => (h.receipt_claimed_by && holderEndedHere(h.receipt_claimed_by) ? [h.receipt_claimed_by] : []));
  let free = ledger.db
    .selectFrom('items')
    .select('id')
    .where('status', 'in', ['paid', 'returned'])
    .where('pix_id', 'is not', null)
    .where('receipt_path', 'is', null)
    .where('id', '>', o.after ?? 0)
    .where((eb) => eb.or([eb('receipt_claim_until', 'is', null), eb('receipt_claim_until', '<', now), eb('receipt_claimed_by', 'in', [o.holder, ...ended])]))
    .orderBy('id')
    .limit(o.limit);
  if (ledger.dialect === 'postgres') free = free.forUpdate().skipLocked();
  const claimed = await ledger.all(
    ledger.db.updateTable('items').set({ receipt_claimed_by: o.holder, receipt_claim_until: ledgerTime(ledger, o.now, o.claimMs) }).where('id', 'in', free).returning('id'),
  );
  return claimed.length ? receiptsDue(ledger, { ids: claimed.map((c) => c.id) }) : [];
}

/** Records where the receipts of many items were saved, in one transaction (one commit). */
export async function recordReceiptPaths(ledger: Ledger, saved: readonly { readonly itemId: number; readonly path: string }[]): Promise<void> {
  if (saved.length === 0) return;
  await ledger.transaction(async (tx) => {
    for (const s of saved) await tx.run(tx.db.updateTable('items').set({ receipt_path: s.path }).where('id', '=', s.itemId));
    await closePixIdClaims(tx, saved.map((s) => s.itemId));
  });
}
