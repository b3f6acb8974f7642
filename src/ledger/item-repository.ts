import type { Selectable } from 'kysely';
import type { ItemState } from '../domain/item-state.js';
import type { RecentPayment } from '../engine/plan-import.js';
import type { Ledger } from './open-ledger.js';
import type { ItemsTable } from './schema.js';

export type ItemRow = Selectable<ItemsTable>;

export function itemsOfBatch(ledger: Ledger, batchId: number, status?: ItemState): ItemRow[] {
  let q = ledger.db.selectFrom('items').selectAll().where('batch_id', '=', batchId);
  if (status) q = q.where('status', '=', status);
  return ledger.all(q.orderBy('line').orderBy('id'));
}

/** Payments since `since` in other imports than the sheet `exceptSheetHash` (never itself), for the duplicate warning. */
export function recentPayments(ledger: Ledger, since: Date, exceptSheetHash: string): RecentPayment[] {
  return ledger.all(
    ledger.db
      .selectFrom('items')
      .innerJoin('batches', 'batches.id', 'items.batch_id')
      .leftJoin('imports', 'imports.id', 'batches.import_id')
      .select(['items.key as key', 'items.amount_cents as amountCents', 'batches.name as batchName', 'items.created_at as createdAt'])
      .where('items.created_at', '>=', since.toISOString())
      .where((eb) => eb.or([eb('imports.file_hash', 'is', null), eb('imports.file_hash', '!=', exceptSheetHash)]))
      .where('items.status', '!=', 'rejected')
      .where('items.attempt', '=', 1),
  );
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
  const stmt = ledger.raw.prepare(
    `UPDATE items SET remote_item_id = ?, remote_status = ?, status = ?, call_attempts = call_attempts + 1, last_error = NULL,
       updated_at = ?, status_changed_at = CASE WHEN status = ? THEN status_changed_at ELSE ? END
     WHERE identifier = ?`,
  );
  for (const u of updates) stmt.run(u.remoteItemId, u.remoteStatus, u.state, at, u.state, at, u.identifier);
}

/** Records a failed call for these items: counts the attempt and keeps the error for `batch show`. */
export function markItemsCallFailed(ledger: Ledger, identifiers: readonly string[], error: string, now: Date): void {
  const stmt = ledger.raw.prepare('UPDATE items SET call_attempts = call_attempts + 1, last_error = ?, updated_at = ? WHERE identifier = ?');
  ledger.transaction(() => {
    for (const id of identifiers) stmt.run(error, now.toISOString(), id);
  });
}
