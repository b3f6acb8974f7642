import { PaybatchError } from '../errors.js';
import { getBatch, updateBatch, type BatchRow } from '../ledger/batch-repository.js';
import { failureOutcome, logIntent, logOutcome } from '../ledger/call-log.js';
import { itemsOfBatch, markItemsCallFailed, markItemsSent, type ItemRow } from '../ledger/item-repository.js';
import type { Ledger } from '../ledger/open-ledger.js';
import type { ProviderClient } from '../provider/client.js';
import type { Destination } from '../provider/types.js';
import { crashPoint } from './crash-point.js';
import type { OnProgress } from './progress.js';

export interface SubmitDeps {
  readonly ledger: Ledger;
  readonly provider: Pick<ProviderClient, 'ensureBatch' | 'addItems' | 'startBatch'>;
  readonly now: () => Date;
  readonly onProgress?: OnProgress;
  /** Items per add request; the provider's limit is not documented, so stay modest. */
  readonly chunkSize?: number;
}

/**
 * Takes a local batch as far as the ledger says it still has to go: create the remote batch (found again by its
 * `[pb:<id>]` name if an earlier run created it), add the items not yet accepted, and start it when asked.
 * Every step writes its intent before the call and its outcome after, so running it again after any interruption
 * continues without a second batch or a second item.
 */
export async function submitBatch(deps: SubmitDeps, batchId: number, o: { start: boolean }): Promise<BatchRow> {
  const { ledger, provider, now } = deps;
  let batch = getBatch(ledger, batchId);
  if (batch.status === 'deleted') throw new PaybatchError(`Batch #${batch.id} was deleted at the provider; it cannot be sent again.`);
  // Remembered first, so a run that dies before the start leaves the daemon (or the next run) knowing it was asked for.
  if (o.start && !batch.start_requested) updateBatch(ledger, batch.id, { start_requested: 1 }, now());

  if (batch.status === 'draft') {
    deps.onProgress?.({ phase: 'create-batch', name: batch.remote_name });
    const subject = `batch:${batch.id}`;
    const intent = logIntent(ledger, 'create_batch', subject, { name: batch.remote_name }, now());
    try {
      const { batch: remote, created } = await provider.ensureBatch(batch.remote_name);
      ledger.transaction(() => {
        updateBatch(ledger, batch.id, { status: 'created', remote_id: remote.id, remote_status: remote.status }, now());
        logOutcome(ledger, intent, 'ok', { remoteId: remote.id, created }, now());
      });
    } catch (e) {
      const f = failureOutcome(e);
      logOutcome(ledger, intent, f.outcome, f.detail, now());
      throw e;
    }
    batch = getBatch(ledger, batchId);
  }

  if (batch.status === 'created') {
    await addPendingItems(deps, batch);
    updateBatch(ledger, batch.id, { status: 'submitted' }, now());
    batch = getBatch(ledger, batchId);
  }

  if (o.start && batch.status === 'submitted') {
    deps.onProgress?.({ phase: 'start', batchId: batch.remote_id! });
    const intent = logIntent(ledger, 'start_batch', `batch:${batch.id}`, { remoteId: batch.remote_id }, now());
    try {
      const started = await provider.startBatch(batch.remote_id!);
      crashPoint('start');
      ledger.transaction(() => {
        updateBatch(ledger, batch.id, { status: 'started', remote_status: started.status, started_at: now().toISOString() }, now());
        logOutcome(ledger, intent, 'ok', started, now());
      });
    } catch (e) {
      const f = failureOutcome(e);
      logOutcome(ledger, intent, f.outcome, f.detail, now());
      throw e;
    }
    batch = getBatch(ledger, batchId);
  }
  return batch;
}

async function addPendingItems(deps: SubmitDeps, batch: BatchRow): Promise<void> {
  const { ledger, provider, now } = deps;
  const pending = itemsOfBatch(ledger, batch.id, 'resolved');
  const size = deps.chunkSize ?? 250;
  const total = pending.length;
  let done = 0;
  deps.onProgress?.({ phase: 'add-items', done, total });
  for (let i = 0; i < pending.length; i += size) {
    const chunk = pending.slice(i, i + size);
    const identifiers = chunk.map((it) => it.identifier);
    const intent = logIntent(ledger, 'add_items', `batch:${batch.id}`, { remoteId: batch.remote_id, identifiers }, now());
    let answered;
    try {
      answered = await provider.addItems(batch.remote_id!, chunk.map(toNewItem));
    } catch (e) {
      const f = failureOutcome(e);
      ledger.transaction(() => logOutcome(ledger, intent, f.outcome, f.detail, now()));
      markItemsCallFailed(ledger, identifiers, e instanceof Error ? e.message : String(e), now());
      throw e;
    }
    crashPoint('items-chunk');
    const sent = new Set(identifiers);
    const confirmed = new Set(answered.map((a) => a.identifier));
    const missing = identifiers.filter((id) => !confirmed.has(id));
    ledger.transaction(() => {
      markItemsSent(
        ledger,
        answered
          .filter((a) => sent.has(a.identifier))
          .map((a) => ({ identifier: a.identifier, remoteItemId: a.itemId, remoteStatus: a.status, state: a.state ?? 'submitted' })),
        now(),
      );
      logOutcome(ledger, intent, missing.length ? 'error' : 'ok', { accepted: answered.length, missing }, now());
    });
    crashPoint('items-chunk');
    if (missing.length) {
      throw new PaybatchError(`The provider did not confirm ${missing.length} of ${chunk.length} items it was sent (e.g. ${missing[0]}).`, {
        hint: 'Run the same command again: items are resent with the same identifiers, so nothing is paid twice.',
      });
    }
    done += chunk.length;
    deps.onProgress?.({ phase: 'add-items', done, total });
  }
}

function toNewItem(it: ItemRow) {
  return {
    amountCents: it.amount_cents,
    identifier: it.identifier,
    description: it.description,
    to: JSON.parse(it.destination_json!) as Destination,
  };
}
