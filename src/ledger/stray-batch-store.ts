import type { Ledger } from './ledger.js';
import type { ReportRow } from './attention-store.js';

/** A remote batch a run created after losing its submission claim, with the ledger batch it was created for. */
export interface StrayBatch {
  readonly id: number;
  readonly batchId: number;
  readonly remoteId: string;
  /** The remote batch the ledger's batch points at (null while none is recorded yet). */
  readonly batchRemoteId: string | null;
}

/** Records a remote batch created under a claim that was lost meanwhile (once per remote batch). */
export async function recordStrayBatch(ledger: Ledger, batchId: number, remoteId: string, now: Date): Promise<void> {
  await ledger.run(
    ledger.db.insertInto('stray_batches').values({ batch_id: batchId, remote_id: remoteId, found_at: now.toISOString() }).onConflict((oc) => oc.column('remote_id').doNothing()),
  );
}

/** Stray remote batches not yet deleted nor found impossible to delete. */
export async function strayBatchesToResolve(ledger: Ledger): Promise<StrayBatch[]> {
  const rows = await ledger.all(
    ledger.db.selectFrom('stray_batches as s').innerJoin('batches as b', 'b.id', 's.batch_id')
      .select(['s.id', 's.batch_id', 's.remote_id', 'b.remote_id as batch_remote_id'])
      .where('s.deleted_at', 'is', null).where('s.kept_reason', 'is', null).orderBy('s.id'),
  );
  return rows.map((r) => ({ id: r.id, batchId: r.batch_id, remoteId: r.remote_id, batchRemoteId: r.batch_remote_id }));
}

/**
 * What became of a stray remote batch: it is the batch's own after all (the winner found it by name and adopted it:
 * not stray), deleted at the provider, or kept there for a reason a person must hear.
 */
export async function settleStrayBatch(ledger: Ledger, id: number, outcome: { ownBatch: true } | { deletedAt: Date } | { keptBecause: string }): Promise<void> {
  if ('ownBatch' in outcome) await ledger.run(ledger.db.deleteFrom('stray_batches').where('id', '=', id));
  else if ('deletedAt' in outcome) await ledger.run(ledger.db.updateTable('stray_batches').set({ deleted_at: outcome.deletedAt.toISOString() }).where('id', '=', id));
  else await ledger.run(ledger.db.updateTable('stray_batches').set({ kept_reason: outcome.keptBecause }).where('id', '=', id));
}

/** Stray remote batches left at the provider: `ledger check` lists them until a person deletes them there. */
export async function strayBatchesKept(ledger: Ledger): Promise<{ batchId: number; remoteId: string; reason: string | null; foundAt: string }[]> {
  const rows = await ledger.all(
    ledger.db.selectFrom('stray_batches').select(['batch_id', 'remote_id', 'kept_reason', 'found_at']).where('deleted_at', 'is', null).orderBy('id'),
  );
  return rows.map((r) => ({ batchId: r.batch_id, remoteId: r.remote_id, reason: r.kept_reason, foundAt: r.found_at }));
}

/** Stray remote batches kept at the provider that no alert has named yet. */
export async function strayBatchesToReport(ledger: Ledger): Promise<ReportRow[]> {
  const rows = await ledger.all(
    ledger.db.selectFrom('stray_batches as s').innerJoin('batches as b', 'b.id', 's.batch_id')
      .select(['s.id', 's.remote_id', 's.kept_reason', 's.found_at', 'b.name', 'b.remote_id as batch_remote_id'])
      .where('s.deleted_at', 'is', null).where('s.kept_reason', 'is not', null).where('s.alerted_at', 'is', null).orderBy('s.id'),
  );
  return rows.map((r) => ({
    ref: r.id,
    alertedAt: null,
    identifier: r.remote_id,
    batch: r.name,
    line: null,
    key: '',
    amountCents: 0,
    status: `remote batch ${r.remote_id} is not this batch's (${r.batch_remote_id ?? 'none yet'}): ${r.kept_reason}`,
    lastUpdate: r.found_at,
    recipient: null,
  }));
}
