import { hostname } from 'node:os';
import { PaybatchError } from '../../errors.js';
import { BatchClaimLost, claimBatch, waitForBatchClaim, type BatchClaim } from '../../ledger/batch-claim.js';
import { getBatch, updateBatch, type BatchRow } from '../../ledger/batch-repository.js';
import { recordedCall } from '../../ledger/call-log.js';
import { countItemsIn, itemsOfBatchAfter, markItemsCallFailed, markItemsSent, type ItemRow } from '../../ledger/item-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import { recordStrayBatch } from '../../ledger/stray-batch-store.js';
import type { ProviderClient } from '../../provider/client.js';
import type { Destination } from '../../provider/types.js';
import { requireBatchApprovals, type ApprovalGate } from '../approvals/index.js';
import { crashPoint } from '../crash-point.js';
import type { OnProgress } from '../progress.js';

export interface SubmitDeps {
  readonly ledger: Ledger;
  readonly provider: Pick<ProviderClient, 'ensureBatch' | 'addItems' | 'startBatch'>;
  readonly now: () => Date;
  readonly onProgress?: OnProgress;
  /** The profile's approval policy and approvers: a start waits for the approvals they demand. Absent: no policy. */
  readonly approvals?: ApprovalGate;
  /** Items per add request; the provider's limit is not documented, so stay modest. */
  readonly chunkSize?: number;
  /** How long another host's claim on a batch stands without renewal (the `claimTime` setting; unset: two minutes). */
  readonly claimMs?: number;
}

/** The claim a run holds on a batch it sends lasts the profile's `claimTime`. */
export const claimOf = (settings: { readonly claimTime?: number }): { claimMs?: number } =>
  settings.claimTime === undefined ? {} : { claimMs: settings.claimTime * 1000 };

/**
 * When another run is submitting the same batch (an import with --start and the daemon, say): 'wait' for it to end,
 * then go on from where it left the batch; or 'skip' the batch, returning null (the daemon: its next pass sees it).
 */
export type OnBusy = 'wait' | 'skip';

/**
 * Takes a local batch as far as the ledger says it still has to go: create the remote batch (found again by its
 * `[pb:<id>]` name if an earlier run created it), add the items not yet accepted, and start it when asked.
 * Every step writes its intent before the call and its outcome after, so running it again after any interruption
 * continues without a second batch or a second item. One run at a time submits a batch (see claimBatch): two at
 * once would both find no remote batch of its name and each create one.
 */
export async function submitBatch(deps: SubmitDeps, batchId: number, o: { start: boolean; onBusy?: 'wait' }): Promise<BatchRow>;
export async function submitBatch(deps: SubmitDeps, batchId: number, o: { start: boolean; onBusy: OnBusy }): Promise<BatchRow | null>;
export async function submitBatch(deps: SubmitDeps, batchId: number, o: { start: boolean; onBusy?: OnBusy }): Promise<BatchRow | null> {
  const { ledger, now } = deps;
  const batch = await getBatch(ledger, batchId);
  if (batch.status === 'deleted') {
    throw new PaybatchError(`Batch #${batch.id} was deleted at the provider; it cannot be sent again.`, { reason: { code: 'batch_deleted', batchId: batch.id } });
  }
  // Maker-checker: nothing of a batch is sent to be started before it has the approvals the policy demands.
  if (o.start && deps.approvals) await requireBatchApprovals(ledger, deps.approvals, batch);
  // Remembered first, so a run that dies before the start leaves the daemon (or the next run) knowing it was asked for.
  if (o.start && !batch.start_requested) await updateBatch(ledger, batch.id, { start_requested: 1 }, now());

  let claim: BatchClaim;
  if (o.onBusy === 'skip') {
    const attempt = await claimBatch(ledger, batchId, now(), process.pid, hostname(), deps.claimMs);
    if (!('claim' in attempt)) return null;
    claim = attempt.claim;
  } else {
    claim = await waitForBatchClaim(ledger, batchId, now, undefined, deps.claimMs);
  }
  try {
    return await submitClaimed(deps, batchId, o.start, claim);
  } finally {
    await claim.release();
  }
}

/**
 * Each write of what the provider answered is fenced by the claim (in the same transaction): a run that paused past
 * its claim, and whose calls went through meanwhile, records them in the call log but writes nothing of the batch;
 * a remote batch it created is recorded as stray (resolveStrayBatches), and it stops (BatchClaimLost).
 */
async function submitClaimed(deps: SubmitDeps, batchId: number, start: boolean, claim: BatchClaim): Promise<BatchRow> {
  const { ledger, provider, now } = deps;
  // Read under the claim: a run that held it meanwhile may have taken the batch further.
  let batch = await getBatch(ledger, batchId);
  let lost = false;
  const held = async (tx: Ledger): Promise<boolean> => !(lost ||= !(await claim.holds(tx)));
  const stopIfLost = () => {
    if (lost) throw new BatchClaimLost(batchId);
  };

  if (batch.status === 'draft') {
    deps.onProgress?.({ phase: 'create-batch', name: batch.remote_name });
    await recordedCall(
      ledger,
      { operation: 'create_batch', subject: `batch:${batch.id}`, detail: { name: batch.remote_name }, now },
      () => provider.ensureBatch(batch.remote_name),
      async ({ batch: remote, created }, tx) => {
        if (!(await held(tx))) {
          if (created) await recordStrayBatch(tx, batch.id, remote.id, now());
          return { detail: { remoteId: remote.id, created, claimLost: true } };
        }
        await updateBatch(tx, batch.id, { status: 'created', remote_id: remote.id, remote_status: remote.status }, now());
        return { detail: { remoteId: remote.id, created } };
      },
    );
    stopIfLost();
    batch = await getBatch(ledger, batchId);
  }

  if (batch.status === 'created') {
    await addPendingItems(deps, batch, held);
    stopIfLost();
    await ledger.transaction(async (tx) => {
      if (await held(tx)) await updateBatch(tx, batch.id, { status: 'submitted' }, now());
    });
    stopIfLost();
    batch = await getBatch(ledger, batchId);
  }

  if (start && batch.status === 'submitted') {
    deps.onProgress?.({ phase: 'start', batchId: batch.remote_id! });
    await recordedCall(
      ledger,
      { operation: 'start_batch', subject: `batch:${batch.id}`, detail: { remoteId: batch.remote_id }, now },
      () => provider.startBatch(batch.remote_id!),
      async (started, tx) => {
        crashPoint('start');
        if (!(await held(tx))) return { detail: { ...started, claimLost: true } };
        await updateBatch(tx, batch.id, { status: 'started', remote_status: started.status, started_at: now().toISOString() }, now());
        return { detail: started };
      },
    );
    stopIfLost();
    batch = await getBatch(ledger, batchId);
  }
  return batch;
}

async function addPendingItems(deps: SubmitDeps, batch: BatchRow, held: (tx: Ledger) => Promise<boolean>): Promise<void> {
  const { ledger, provider, now } = deps;
  const size = deps.chunkSize ?? 250;
  const total = await countItemsIn(ledger, batch.id, 'resolved');
  let done = 0;
  deps.onProgress?.({ phase: 'add-items', done, total });
  // A chunk at a time from the ledger: a batch of any size is sent at the memory of one chunk.
  for (let afterId = 0; ; ) {
    const chunk = await itemsOfBatchAfter(ledger, batch.id, 'resolved', afterId, size);
    if (chunk.length === 0) break;
    afterId = chunk.at(-1)!.id;
    const identifiers = chunk.map((it) => it.identifier);
    const sent = new Set(identifiers);
    let missing: string[] = [];
    await recordedCall(
      ledger,
      { operation: 'add_items', subject: `batch:${batch.id}`, detail: { remoteId: batch.remote_id, identifiers }, now },
      () => provider.addItems(batch.remote_id!, chunk.map(toNewItem)),
      async (answered, tx) => {
        crashPoint('items-chunk');
        if (!(await held(tx))) return { detail: { accepted: answered.length, claimLost: true } };
        const confirmed = new Set(answered.map((a) => a.identifier));
        missing = identifiers.filter((id) => !confirmed.has(id));
        await markItemsSent(
          tx,
          answered
            .filter((a) => sent.has(a.identifier))
            .map((a) => ({ identifier: a.identifier, remoteItemId: a.itemId, remoteStatus: a.status, state: a.state ?? 'submitted' })),
          now(),
        );
        return { outcome: missing.length ? 'error' : 'ok', detail: { accepted: answered.length, missing } };
      },
      (e) => markItemsCallFailed(ledger, identifiers, e instanceof Error ? e.message : String(e), now()),
    );
    crashPoint('items-chunk');
    if (!(await held(ledger))) return;
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
