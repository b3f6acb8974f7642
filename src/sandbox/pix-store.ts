import type { Database as Db } from 'better-sqlite3';

export interface BatchRow {
  seq: number;
  id: string;
  account: string;
  name: string;
  /** pending → processing → completed (every item settled). */
  status: string;
  quantity: number;
  created_at: number;
  started_at: number | null;
}

export interface ItemRow {
  seq: number;
  id: string;
  account: string;
  batch_id: string;
  identifier: string;
  amount: number;
  description: string;
  to_json: string;
  /** The normalized key, or for a Pix by account data (key_type `account`) the account (account-pix.ts). */
  key_norm: string;
  key_type: string;
  /** waiting → processing → paid | failed; paid → returned. */
  status: string;
  /** The outcome drawn at start: paid, failed, instabilityRejection, stale or instabilityReturn; or closedAccount. */
  plan: string | null;
  reason: string | null;
  pix_id: string | null;
  end_to_end_id: string | null;
  /** When the processor next acts on the item (settle, or refund). */
  due_at: number | null;
  /** When a stale item would have settled; it settles on an item-list query after the stale delay. */
  stale_at: number | null;
  updated_at: number;
}

export interface TransferRow {
  pix_id: string;
  account: string;
  item_id: string;
  identifier: string;
  kind: 'payment' | 'refund';
  amount: number;
  end_to_end_id: string;
  transaction_id: string;
  reason: string | null;
  created_at: number;
}

export type NewItem = Pick<ItemRow, 'id' | 'account' | 'batch_id' | 'identifier' | 'amount' | 'description' | 'to_json' | 'key_norm' | 'key_type' | 'updated_at'>;

function statements(db: Db) {
  return {
    ensureAccount: db.prepare('INSERT OR IGNORE INTO accounts (account, key_hint, balance, created_at) VALUES (?, ?, ?, ?)'),
    addToBalance: db.prepare<[number, string], { balance: number }>('UPDATE accounts SET balance = balance + ? WHERE account = ? RETURNING balance'),
    balance: db.prepare<[string], { balance: number }>('SELECT balance FROM accounts WHERE account = ?'),
    insertBatch: db.prepare("INSERT INTO batches (id, account, name, status, created_at) VALUES (?, ?, ?, 'pending', ?)"),
    batch: db.prepare<[string, string], BatchRow>('SELECT * FROM batches WHERE account = ? AND id = ?'),
    batchesAfter: db.prepare<[string, number, number], BatchRow>('SELECT * FROM batches WHERE account = ? AND seq > ? ORDER BY seq LIMIT ?'),
    deleteBatch: db.prepare('DELETE FROM batches WHERE id = ?'),
    deleteBatchItems: db.prepare('DELETE FROM items WHERE batch_id = ?'),
    startBatch: db.prepare("UPDATE batches SET status = 'processing', started_at = ? WHERE id = ?"),
    completeBatch: db.prepare(
      "UPDATE batches SET status = 'completed' WHERE id = ? AND status = 'processing' AND NOT EXISTS (SELECT 1 FROM items WHERE batch_id = ? AND status IN ('waiting', 'processing'))",
    ),
    countItems: db.prepare('UPDATE batches SET quantity = (SELECT COUNT(*) FROM items WHERE batch_id = ?) WHERE id = ?'),
    insertItem: db.prepare(
      `INSERT INTO items (id, account, batch_id, identifier, amount, description, to_json, key_norm, key_type, status, updated_at)
       VALUES (@id, @account, @batch_id, @identifier, @amount, @description, @to_json, @key_norm, @key_type, 'waiting', @updated_at)`,
    ),
    item: db.prepare<[string, string], ItemRow>('SELECT * FROM items WHERE batch_id = ? AND id = ?'),
    itemByIdentifier: db.prepare<[string, string], ItemRow>('SELECT * FROM items WHERE account = ? AND identifier = ?'),
    itemsAfter: db.prepare<[string, number, number], ItemRow>('SELECT * FROM items WHERE batch_id = ? AND seq > ? ORDER BY seq LIMIT ?'),
    batchItems: db.prepare<[string], ItemRow>('SELECT * FROM items WHERE batch_id = ? ORDER BY seq'),
    deleteItem: db.prepare('DELETE FROM items WHERE id = ?'),
    planItem: db.prepare("UPDATE items SET status = 'processing', plan = ?, due_at = ?, stale_at = ?, updated_at = ? WHERE id = ?"),
    assignPixIds: db.prepare('UPDATE items SET pix_id = ?, end_to_end_id = ? WHERE id = ?'),
    dueItems: db.prepare<[number, number], ItemRow>('SELECT * FROM items WHERE due_at <= ? ORDER BY due_at LIMIT ?'),
    nextDue: db.prepare<[], { at: number | null }>('SELECT MIN(due_at) AS at FROM items WHERE due_at IS NOT NULL'),
    staleDue: db.prepare<[string, number], ItemRow>("SELECT * FROM items WHERE batch_id = ? AND stale_at <= ? AND status = 'processing'"),
    updateItem: db.prepare(
      'UPDATE items SET status = @status, reason = @reason, pix_id = @pix_id, end_to_end_id = @end_to_end_id, due_at = @due_at, stale_at = NULL, updated_at = @updated_at WHERE id = @id',
    ),
    insertTransfer: db.prepare(
      `INSERT INTO transfers (pix_id, account, item_id, identifier, kind, amount, end_to_end_id, transaction_id, reason, created_at)
       VALUES (@pix_id, @account, @item_id, @identifier, @kind, @amount, @end_to_end_id, @transaction_id, @reason, @created_at)`,
    ),
    transfer: db.prepare<[string, string], TransferRow>('SELECT * FROM transfers WHERE account = ? AND pix_id = ?'),
    itemById: db.prepare<[string], ItemRow>('SELECT * FROM items WHERE id = ?'),
    keyOverride: db.prepare<[string], { present: number }>('SELECT present FROM key_overrides WHERE key = ?'),
    setKeyOverride: db.prepare('INSERT INTO key_overrides (key, present) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET present = excluded.present'),
  };
}

/** Accounts, batches, items and the transfers they made. */
export class PixStore {
  private readonly q: ReturnType<typeof statements>;

  constructor(db: Db) {
    this.q = statements(db);
  }

  ensureAccount(account: string, keyHint: string, initialBalance: number, now: number): void {
    this.q.ensureAccount.run(account, keyHint, initialBalance, now);
  }

  /** Adds `delta` centavos to an account's balance and returns the new balance. */
  addToBalance(account: string, delta: number): number {
    return this.q.addToBalance.get(delta, account)?.balance ?? 0;
  }

  balance(account: string): number {
    return this.q.balance.get(account)?.balance ?? 0;
  }

  createBatch(account: string, id: string, name: string, now: number): BatchRow {
    this.q.insertBatch.run(id, account, name, now);
    return this.batch(account, id) as BatchRow;
  }

  batch(account: string, id: string): BatchRow | undefined {
    return this.q.batch.get(account, id);
  }

  /** Up to `limit` batches of an account after position `afterSeq`, oldest first. */
  batchesAfter(account: string, afterSeq: number, limit: number): BatchRow[] {
    return this.q.batchesAfter.all(account, afterSeq, limit);
  }

  deleteBatch(id: string): void {
    this.q.deleteBatchItems.run(id);
    this.q.deleteBatch.run(id);
  }

  startBatch(id: string, now: number): void {
    this.q.startBatch.run(now, id);
  }

  /** Marks a processing batch completed when none of its items is left waiting or processing. */
  completeBatchIfSettled(id: string): void {
    this.q.completeBatch.run(id, id);
  }

  recountBatch(id: string): void {
    this.q.countItems.run(id, id);
  }

  insertItem(item: NewItem): void {
    this.q.insertItem.run(item);
  }

  item(batchId: string, itemId: string): ItemRow | undefined {
    return this.q.item.get(batchId, itemId);
  }

  itemById(itemId: string): ItemRow | undefined {
    return this.q.itemById.get(itemId);
  }

  itemByIdentifier(account: string, identifier: string): ItemRow | undefined {
    return this.q.itemByIdentifier.get(account, identifier);
  }

  itemsAfter(batchId: string, afterSeq: number, limit: number): ItemRow[] {
    return this.q.itemsAfter.all(batchId, afterSeq, limit);
  }

  batchItems(batchId: string): ItemRow[] {
    return this.q.batchItems.all(batchId);
  }

  deleteItem(id: string): void {
    this.q.deleteItem.run(id);
  }

  /** Puts an item in `processing` with the outcome drawn for it and when it falls due (or goes stale). */
  planItem(id: string, plan: string, dueAt: number | null, staleAt: number | null, now: number): void {
    this.q.planItem.run(plan, dueAt, staleAt, now, id);
  }

  /** Gives a processing item its Pix id and end-to-end id before it settles (dialects that tell acceptance). */
  assignPixIds(id: string, pixId: string, endToEndId: string): void {
    this.q.assignPixIds.run(pixId, endToEndId, id);
  }

  dueItems(now: number, limit: number): ItemRow[] {
    return this.q.dueItems.all(now, limit);
  }

  nextDue(): number | null {
    return this.q.nextDue.get()?.at ?? null;
  }

  /** Stale items of a batch whose stale delay has run out by `cutoff`. */
  staleDue(batchId: string, cutoff: number): ItemRow[] {
    return this.q.staleDue.all(batchId, cutoff);
  }

  updateItem(u: Pick<ItemRow, 'id' | 'status' | 'reason' | 'pix_id' | 'end_to_end_id' | 'due_at' | 'updated_at'>): void {
    this.q.updateItem.run(u);
  }

  insertTransfer(t: TransferRow): void {
    this.q.insertTransfer.run(t);
  }

  transfer(account: string, pixId: string): TransferRow | undefined {
    return this.q.transfer.get(account, pixId);
  }

  /** Whether the admin route said a key (as `type:normalized`) exists; undefined when it said nothing. */
  keyOverride(key: string): boolean | undefined {
    const row = this.q.keyOverride.get(key);
    return row === undefined ? undefined : row.present === 1;
  }

  setKeyOverride(key: string, present: boolean): void {
    this.q.setKeyOverride.run(key, present ? 1 : 0);
  }
}
