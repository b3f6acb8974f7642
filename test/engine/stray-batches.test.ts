import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors.js';
import { resolveStrayBatches } from '../../src/engine/follow-up/stray-batches.js';
import { sqliteOf } from '../../src/ledger/open-ledger.js';
import { recordStrayBatch, strayBatchesKept } from '../../src/ledger/stray-batch-store.js';
import type { Item } from '../../src/provider/types.js';
import { ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const now = new Date('2026-11-27T12:00:00Z');

/** A provider holding remote batches (their items), that deletes an empty one unless told to refuse. */
function provider(held: Record<string, number>, refuse: string[] = []) {
  const deleted: string[] = [];
  return {
    deleted,
    client: {
      async *items(batchId: string): AsyncIterable<Item[]> {
        yield Array.from({ length: held[batchId] ?? 0 }, (_, i) => ({ identifier: `x-${i}` }) as Item);
      },
      async deleteBatch(batchId: string) {
        if (refuse.includes(batchId)) {
          throw new ProviderError(`DELETE /pix/batch/${batchId}: the provider answered HTTP 422`, { status: 422, method: 'DELETE', path: `/pix/batch/${batchId}` });
        }
        deleted.push(batchId);
      },
    },
  };
}

describe('remote batches created by a run that lost its claim', () => {
  it("are deleted at the provider while empty, kept (and listed) while they hold items or the provider refuses, and forgotten when they are the batch's own", async () => {
    const { ledger, batchId } = await ledgerWithStartedBatch(tempDir(), 1, now);
    // The ledger's batch is on remote-1 (ledgerWithStartedBatch).
    for (const remote of ['remote-1', 'remote-empty', 'remote-full', 'remote-refused']) await recordStrayBatch(ledger, batchId, remote, now);
    await recordStrayBatch(ledger, batchId, 'remote-empty', now); // recorded once
    const p = provider({ 'remote-full': 2 }, ['remote-refused']);

    expect(await resolveStrayBatches({ ledger, provider: p.client, now: () => now })).toEqual({ deleted: 1, kept: 2 });
    expect(p.deleted).toEqual(['remote-empty']);
    expect(await strayBatchesKept(ledger)).toEqual([
      { batchId, remoteId: 'remote-full', reason: 'it holds 2 item(s)', foundAt: now.toISOString() },
      { batchId, remoteId: 'remote-refused', reason: 'the provider would not delete it (DELETE /pix/batch/remote-refused: the provider answered HTTP 422)', foundAt: now.toISOString() },
    ]);
    // A deletion is a call like any other: each one's intent and outcome are in the call log, the refused one's too.
    const calls = sqliteOf(ledger).prepare("SELECT phase, outcome, detail_json FROM provider_calls WHERE operation = 'delete_batch' ORDER BY id").all();
    expect(calls).toEqual([
      { phase: 'intent', outcome: null, detail_json: JSON.stringify({ remoteId: 'remote-empty', stray: true }) },
      { phase: 'outcome', outcome: 'ok', detail_json: '{}' },
      { phase: 'intent', outcome: null, detail_json: JSON.stringify({ remoteId: 'remote-refused', stray: true }) },
      { phase: 'outcome', outcome: 'error', detail_json: expect.stringContaining('"status":422') },
    ]);
    // Settled strays are not looked at again.
    expect(await resolveStrayBatches({ ledger, provider: p.client, now: () => now })).toEqual({ deleted: 0, kept: 0 });
    await ledger.close();
  });

  it('wait while the batch has no remote batch recorded yet, and while another run is sending it', async () => {
    const { ledger, batchId } = await ledgerWithStartedBatch(tempDir(), 1, now);
    sqliteOf(ledger).prepare('UPDATE batches SET remote_id = NULL').run();
    await recordStrayBatch(ledger, batchId, 'remote-9', now);
    const p = provider({});
    expect(await resolveStrayBatches({ ledger, provider: p.client, now: () => now })).toEqual({ deleted: 0, kept: 0 });
    sqliteOf(ledger).prepare("UPDATE batches SET remote_id = 'remote-1'").run();
    // Another process of this host (the test's parent) is sending the batch: its claim stands.
    sqliteOf(ledger).prepare('INSERT INTO batch_claims (batch_id, pid, host, started_at) VALUES (?, ?, ?, ?)').run(batchId, process.ppid, (await import('node:os')).hostname(), now.toISOString());
    expect(await resolveStrayBatches({ ledger, provider: p.client, now: () => now })).toEqual({ deleted: 0, kept: 0 });
    expect(p.deleted).toEqual([]);
    sqliteOf(ledger).prepare('DELETE FROM batch_claims').run();
    expect(await resolveStrayBatches({ ledger, provider: p.client, now: () => now })).toEqual({ deleted: 1, kept: 0 });
    await ledger.close();
  });
});
