import { PaybatchError } from '../../errors.js';
import { getBatch, updateBatch, type BatchRow } from '../../ledger/batch-repository.js';
import { recordedCall } from '../../ledger/call-log.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import type { ProviderClient } from '../../provider/client.js';

/**
 * Deletes a batch at the provider (only possible while it is pending there) and marks it deleted in the ledger.
 * A draft whose creation may have reached the provider is looked up by its name first, so no orphan survives.
 */
export async function deleteBatch(
  deps: { ledger: Ledger; provider: Pick<ProviderClient, 'deleteBatch' | 'findBatchByName'>; now: () => Date },
  batchId: number,
): Promise<BatchRow> {
  const { ledger, now } = deps;
  const batch = await getBatch(ledger, batchId);
  if (batch.status === 'started' || batch.status === 'settled') {
    throw new PaybatchError(`Batch #${batch.id} has been started; a provider deletes only pending batches.`, { reason: { code: 'batch_started', batchId: batch.id } });
  }
  if (batch.status === 'deleted') return batch;
  const remoteId = batch.remote_id ?? (await deps.provider.findBatchByName(batch.remote_name))?.id ?? null;
  if (remoteId) {
    await recordedCall(
      ledger,
      { operation: 'delete_batch', subject: `batch:${batch.id}`, detail: { remoteId }, now },
      () => deps.provider.deleteBatch(remoteId),
      async (_answer, tx) => {
        await updateBatch(tx, batch.id, { status: 'deleted', remote_id: remoteId }, now());
        return { detail: {} };
      },
    );
  } else {
    await updateBatch(ledger, batch.id, { status: 'deleted' }, now());
  }
  return getBatch(ledger, batchId);
}
