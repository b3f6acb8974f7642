import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/config/settings.js';
import { followUpPass } from '../../src/engine/follow-up/follow-up.js';
import { submitBatch } from '../../src/engine/batches/submit-batch.js';
import { BatchClaimLost } from '../../src/ledger/batch-claim.js';
import { getBatch } from '../../src/ledger/batch-repository.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { openLedger, sqliteOf, type Ledger } from '../../src/ledger/open-ledger.js';
import { strayBatchesKept } from '../../src/ledger/stray-batch-store.js';
import type { ProviderClient } from '../../src/provider/client.js';
import type { Batch, Item, NewItem } from '../../src/provider/types.js';
import { watchingTransactions } from '../helpers/counting-ledger.js';
import { plannedItem } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { receiptsIn } from '../helpers/receipts-dir.js';

const tempDir = useTempDir();
const t0 = new Date('2026-11-20T12:00:00Z');

/** What a batch claim's transaction returns when another submission holds the claim: that holder's row. */
/** A claim transaction's result when it found another run holding the claim: `{ holder }`. */
const isClaimHolder = (result: unknown): boolean =>
  typeof result === 'object' && result !== null && 'holder' in result && Object.keys(result).length === 1;

interface RemoteBatch {
  readonly id: string;
  readonly name: string;
  readonly items: string[];
  starts: number;
}

/**
 * A provider in memory whose ensureBatch, like the real one, looks the name up and then creates: `beforeCreate`
 * runs between the two, the window in which a second run finds no batch either.
 */
function memoryProvider(beforeCreate: () => Promise<void>) {
  const batches: RemoteBatch[] = [];
  const batchOf = (id: string) => batches.find((b) => b.id === id)!;
  const wire = (b: RemoteBatch): Batch => ({ id: b.id, name: b.name, status: b.starts ? 'processing' : 'pending', quantityItems: b.items.length, timestamp: 0, type: 'pix' });
  const provider = {
    async ensureBatch(name: string) {
      const found = batches.find((b) => b.name === name);
      if (found) return { batch: wire(found), created: false };
      await beforeCreate();
      const b: RemoteBatch = { id: `remote-${batches.length + 1}`, name, items: [], starts: 0 };
      batches.push(b);
      return { batch: wire(b), created: true };
    },
    async addItems(id: string, items: readonly NewItem[]): Promise<Item[]> {
      batchOf(id).items.push(...items.map((it) => it.identifier));
      return items.map((it) => ({ itemId: `item-${it.identifier}`, status: 'waiting', state: null, ...it }));
    },
    async startBatch(id: string) {
      const b = batchOf(id);
      b.starts += 1;
      return { id, name: b.name, status: 'processing', timestamp: 0 };
    },
  };
  return { batches, provider };
}

async function ledgerWithDraft(n: number): Promise<{ ledger: Ledger; batchId: number; identifiers: string[] }> {
  const ledger = await openLedger(join(tempDir(), 'ledger.db'));
  const items = Array.from({ length: n }, (_, i) => plannedItem(i + 1));
  const { batchIds: [batchId] } = await recordImport(ledger, { fileHash: 'h', fileName: 's.csv', rowCount: n, batchName: 'Folha', itemCount: items.length, items, rejectedCount: 0, now: t0 });
  return { ledger, batchId, identifiers: items.map((i) => i.identifier) };
}

describe('a run that lost its claim on a batch while sending it (it paused, another host took the batch over)', () => {
  it('writes nothing of the batch, records the remote batch it created as stray, and stops', async () => {
    const { ledger, batchId } = await ledgerWithDraft(2);
    const { batches, provider } = memoryProvider(async () => {
      // While the creation is in flight, another host takes the claim (the generation moves on).
      sqliteOf(ledger).prepare('UPDATE batches SET claim_generation = claim_generation + 1').run();
    });
    const stopped = await submitBatch({ ledger, provider, now: () => t0 }, batchId, { start: true }).catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(BatchClaimLost);
    expect((stopped as Error).message).toContain(`Batch #${batchId} was taken over by another paybatch run`);
    const batch = await getBatch(ledger, batchId);
    expect([batch.status, batch.remote_id]).toEqual(['draft', null]);
    expect(batches.map((b) => [b.id, b.items.length, b.starts])).toEqual([['remote-1', 0, 0]]);
    expect(await strayBatchesKept(ledger)).toEqual([{ batchId, remoteId: 'remote-1', reason: null, foundAt: t0.toISOString() }]);
    // The call itself is in the log, with what it created: the provider's answer is never lost.
    const outcome = sqliteOf(ledger).prepare("SELECT detail_json FROM provider_calls WHERE operation = 'create_batch' AND phase = 'outcome'").pluck().get() as string;
    expect(JSON.parse(outcome)).toEqual({ remoteId: 'remote-1', created: true, claimLost: true });
    await ledger.close();
  });
});

describe('submitting one batch from two runs at once', () => {
  it('creates one remote batch, with every item, started once', async () => {
    const { ledger, batchId, identifiers } = await ledgerWithDraft(5);
    // The first run to create the remote batch is held in the window until the other run has been turned away by
    // the claim (its claim's transaction found the holder), or has come to create as well: events, not a pause.
    let letFirstGo!: () => void;
    const firstMayCreate = new Promise<void>((r) => (letFirstGo = r));
    let creates = 0;
    const { batches, provider } = memoryProvider(async () => {
      if (++creates === 1) await firstMayCreate;
      else letFirstGo();
    });
    const watched = watchingTransactions(ledger, (result) => {
      if (isClaimHolder(result)) letFirstGo();
    });
    const deps = { ledger: watched, provider, now: () => t0, chunkSize: 2 };

    const [a, b] = await Promise.all([submitBatch(deps, batchId, { start: true }), submitBatch(deps, batchId, { start: true })]);

    expect(batches).toEqual([{ id: 'remote-1', name: (await getBatch(ledger, batchId)).remote_name, items: identifiers, starts: 1 }]);
    expect([a.status, a.remote_id, b.status, b.remote_id]).toEqual(['started', 'remote-1', 'started', 'remote-1']);
    await ledger.close();
  });

  it("leaves the batch to the run sending it when the daemon's pass comes by, without reporting an error", async () => {
    const { ledger, batchId, identifiers } = await ledgerWithDraft(3);
    // The first run to create the remote batch is held there until the pass is over; any other goes straight on.
    let entered!: () => void;
    const inCreate = new Promise<void>((resolve) => (entered = resolve));
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    let creates = 0;
    const { batches, provider } = memoryProvider(async () => {
      if (++creates > 1) return;
      entered();
      await held;
    });

    const importing = submitBatch({ ledger, provider, now: () => t0 }, batchId, { start: true });
    await inCreate;
    const pass = await followUpPass({
      ledger,
      provider: provider as unknown as ProviderClient,
      now: () => t0,
      ...receiptsIn(tempDir()),
      settings: DEFAULT_SETTINGS,
      send: async () => [],
      profile: 'test',
      sandbox: true,
    });
    expect(pass.submitted).toEqual([]);
    expect(pass.errors).toEqual([]);

    letGo();
    expect(await importing).toMatchObject({ status: 'started', remote_id: 'remote-1' });
    expect(batches).toMatchObject([{ id: 'remote-1', items: identifiers, starts: 1 }]);
    await ledger.close();
  });
});
