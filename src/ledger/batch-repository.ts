import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { ItemState } from '../domain/item-state.js';
import type { Ledger } from './ledger.js';
import type { BatchesTable, BatchStatus } from './schema.js';

export type BatchRow = Selectable<BatchesTable>;

/** A batch by local id (`12`, `#12`) or by the provider's id. */
export async function findBatch(ledger: Ledger, ref: string): Promise<BatchRow | undefined> {
  const local = /^#?(\d+)$/.exec(ref.trim());
  if (local) {
    const byLocal = await ledger.first(ledger.db.selectFrom('batches').selectAll().where('id', '=', Number(local[1])));
    if (byLocal) return byLocal;
  }
  return ledger.first(ledger.db.selectFrom('batches').selectAll().where('remote_id', '=', ref.trim()));
}

export async function getBatch(ledger: Ledger, id: number): Promise<BatchRow> {
  const row = await ledger.first(ledger.db.selectFrom('batches').selectAll().where('id', '=', id));
  if (!row) throw new Error(`batch ${id} is not in the ledger`);
  return row;
}

export async function listBatches(ledger: Ledger): Promise<BatchRow[]> {
  return ledger.all(ledger.db.selectFrom('batches').selectAll().orderBy('id', 'desc'));
}

/** Batches the provider holds (sent, not deleted), oldest first: what `paybatch reconcile` compares by default. */
export async function batchesSentToProvider(ledger: Ledger): Promise<BatchRow[]> {
  return ledger.all(ledger.db.selectFrom('batches').selectAll().where('remote_id', 'is not', null).where('status', '!=', 'deleted').orderBy('id'));
}

/** The batches of one import, in order: one, or the parts of a sheet split for the provider's limit. */
export async function batchesOfImport(ledger: Ledger, importId: number): Promise<BatchRow[]> {
  return ledger.all(ledger.db.selectFrom('batches').selectAll().where('import_id', '=', importId).where('kind', '=', 'sheet').orderBy('id'));
}

/** Batches the daemon still has work on: not yet fully submitted or started, or started and not settled. */
export async function unfinishedBatches(ledger: Ledger): Promise<BatchRow[]> {
  return ledger.all(ledger.db.selectFrom('batches').selectAll().where('status', 'in', ['draft', 'created', 'submitted', 'started']).orderBy('id'));
}

/**
 * Batches sent to the provider that hold a return still waiting for the provider's confirmation (a refund event
 * said so, the item pages have not shown it yet): they are reconciled again even once settled.
 */
export async function batchesAwaitingReturnConfirmation(ledger: Ledger): Promise<BatchRow[]> {
  return ledger.all(
    ledger.db
      .selectFrom('batches')
      .selectAll()
      .where('remote_id', 'is not', null)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('items')
            .select('items.id')
            .whereRef('items.batch_id', '=', 'batches.id')
            .where('items.status', '=', 'returned')
            .where('items.return_confirmed_at', 'is', null),
        ),
      )
      .orderBy('id'),
  );
}

/**
 * Settled batches still inside the return watch (settled since `settledSince`) whose item pages were not read since
 * `readBefore`: a return whose event was lost shows only there.
 */
export async function batchesToWatch(ledger: Ledger, o: { settledSince: string; readBefore: string }): Promise<BatchRow[]> {
  return ledger.all(
    ledger.db
      .selectFrom('batches')
      .selectAll()
      .where('status', '=', 'settled')
      .where('remote_id', 'is not', null)
      .where('settled_at', '>=', o.settledSince)
      .where((eb) => eb.or([eb('read_at', 'is', null), eb('read_at', '<', o.readBefore)]))
      .orderBy('id'),
  );
}

export async function updateBatch(
  ledger: Ledger,
  id: number,
  changes: { status?: BatchStatus; remote_id?: string; remote_status?: string; started_at?: string; start_requested?: number; settled_at?: string; read_at?: string },
  now: Date,
): Promise<void> {
  await ledger.run(ledger.db.updateTable('batches').set({ ...changes, updated_at: now.toISOString() }).where('id', '=', id));
}

/** A draft batch's item count and total, once its items are written. */
export async function setBatchCounts(ledger: Ledger, id: number, itemCount: number, totalCents: number): Promise<void> {
  await ledger.run(ledger.db.updateTable('batches').set({ item_count: itemCount, total_cents: totalCents }).where('id', '=', id));
}

export interface StatusCount {
  readonly status: ItemState;
  readonly count: number;
  readonly sumCents: number;
}

/** Count and sum of a batch's items by ledger state. */
export async function batchProgress(ledger: Ledger, batchId: number): Promise<StatusCount[]> {
  const rows = await ledger.all(
    ledger.db
      .selectFrom('items')
      .select((eb) => ['status', eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('amount_cents').as('sumCents')])
      .where('batch_id', '=', batchId)
      .groupBy('status')
      .orderBy('status'),
  );
  // PostgreSQL hands back SUM of a BIGINT as NUMERIC (a string): centavos are read back as numbers either way.
  return rows.map((r) => ({ status: r.status, count: Number(r.count), sumCents: Number(r.sumCents) }));
}

/** `<name> [pb:<local id>]`: the remote batch has no idempotency key, so its name carries the local id. */
export const remoteBatchName = (name: string, localId: number) => `${name} [pb:${localId}]`;

/**
 * Inserts a draft batch whose remote name carries its own id; call inside a transaction. The id comes from the
 * database (several hosts may add batches at once), so the name is written once the id is known.
 */
export async function insertDraftBatch(
  ledger: Ledger,
  o: { importId: number | null; kind: 'sheet' | 'reprocess'; name: string; itemCount: number; totalCents: number; at: string; importedBy?: string | null },
): Promise<number> {
  const inserted = await ledger.first(
    ledger.db
      .insertInto('batches')
      .values({
        import_id: o.importId,
        kind: o.kind,
        name: o.name,
        // Unique until the next statement gives the batch its real remote name, in the same transaction.
        remote_name: `${o.name} [pb:new ${randomUUID()}]`,
        status: 'draft',
        item_count: o.itemCount,
        total_cents: o.totalCents,
        created_at: o.at,
        updated_at: o.at,
        imported_by: o.importedBy ?? null,
      })
      .returning('id'),
  );
  const id = inserted!.id;
  await ledger.run(ledger.db.updateTable('batches').set({ remote_name: remoteBatchName(o.name, id) }).where('id', '=', id));
  return id;
}
