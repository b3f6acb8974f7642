import { ProviderError } from '../../errors.js';
import { claimBatch } from '../../ledger/batch-claim.js';
import { recordedCall } from '../../ledger/call-log.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import { settleStrayBatch, strayBatchesToResolve } from '../../ledger/stray-batch-store.js';
import type { ProviderClient } from '../../provider/client.js';

export interface StrayDeps {
  readonly ledger: Ledger;
  readonly provider: Pick<ProviderClient, 'items' | 'deleteBatch'>;
  readonly now: () => Date;
  readonly claimMs?: number;
}

/**
 * Settles the remote batches runs created after losing their claim (submit-batch.ts): each is looked at under its
 * batch's claim, so no submission is in flight. One the ledger's batch points at is its own (the run holding the
 * claim found it by name): not stray. Another, while it holds no item, is deleted at the provider; one holding items,
 * or that the provider will not delete, is kept for an alert and `ledger check`. A batch whose remote batch is not
 * known yet waits for a later pass. Returns how many were deleted.
 */
export async function resolveStrayBatches(deps: StrayDeps): Promise<{ deleted: number; kept: number }> {
  const { ledger, provider, now } = deps;
  let deleted = 0;
  let kept = 0;
  for (const stray of await strayBatchesToResolve(ledger)) {
    if (stray.batchRemoteId === null) continue;
    if (stray.batchRemoteId === stray.remoteId) {
      await settleStrayBatch(ledger, stray.id, { ownBatch: true });
      continue;
    }
    const attempt = await claimBatch(ledger, stray.batchId, now(), undefined, undefined, deps.claimMs);
    if (!('claim' in attempt)) continue;
    try {
      let items = 0;
      for await (const page of provider.items(stray.remoteId)) items += page.length;
      if (items > 0) {
        await settleStrayBatch(ledger, stray.id, { keptBecause: `it holds ${items} item(s)` });
        kept += 1;
        continue;
      }
      try {
        await recordedCall(
          ledger,
          { operation: 'delete_batch', subject: `batch:${stray.batchId}`, detail: { remoteId: stray.remoteId, stray: true }, now },
          () => provider.deleteBatch(stray.remoteId),
          async (_answer, tx) => {
            await settleStrayBatch(tx, stray.id, { deletedAt: now() });
            return { detail: {} };
          },
        );
        deleted += 1;
      } catch (e) {
        // A refusal (the provider deletes only pending batches, or not at all) keeps it; a failure to reach it waits.
        if (!(e instanceof ProviderError) || e.status === null || e.status >= 500 || e.outcomeUnknown) throw e;
        await settleStrayBatch(ledger, stray.id, { keptBecause: `the provider would not delete it (${e.message})` });
        kept += 1;
      }
    } finally {
      await attempt.claim.release();
    }
  }
  return { deleted, kept };
}
