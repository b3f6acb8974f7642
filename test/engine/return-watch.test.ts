import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/config/settings.js';
import { itemStateFromWord } from '../../src/domain/provider-words.js';
import { followUpPass } from '../../src/engine/follow-up/follow-up.js';
import { getBatch } from '../../src/ledger/batch-repository.js';
import { sqliteOf } from '../../src/ledger/open-ledger.js';
import type { ProviderClient } from '../../src/provider/client.js';
import type { Item } from '../../src/provider/types.js';
import { destination, ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { receiptsIn } from '../helpers/receipts-dir.js';

const tempDir = useTempDir();
const t0 = new Date('2026-11-20T12:00:00Z');
const minutes = (n: number) => new Date(t0.getTime() + n * 60_000);

/** A provider whose item pages say what `words` holds per identifier; it records every page read. */
function pagesProvider(words: Map<string, { status: string; reason?: string }>) {
  const reads: string[] = [];
  const provider = {
    dialect: { instabilityWords: [] as string[] },
    async *items(batchId: string): AsyncGenerator<Item[]> {
      reads.push(batchId);
      yield [...words].map(([identifier, w], i) => ({
        itemId: `item-${i}`,
        status: w.status,
        state: itemStateFromWord(w.status),
        description: '',
        amountCents: 1001 + i,
        identifier,
        to: destination,
        ...(w.reason ? { reason: w.reason } : {}),
      }));
    },
    async ensureBatch(name: string) {
      return { batch: { id: 'remote-2', name, status: 'pending', quantityItems: 0, timestamp: 0, type: 'pix' }, created: true };
    },
    async addItems() {
      return [];
    },
    async startBatch() {
      return { id: 'remote-2', name: 'x', status: 'processing', timestamp: 0 };
    },
  };
  return { provider: provider as unknown as ProviderClient, reads };
}

describe('the return watch', () => {
  it('reads a settled batch again every returnWatchEvery for returnWatch: a return whose event was lost is found and paid again', async () => {
    const { ledger, batchId, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, t0);
    const words = new Map(identifiers.map((id) => [id, { status: 'approved' }] as [string, { status: string; reason?: string }]));
    const { provider, reads } = pagesProvider(words);
    const settings = { ...DEFAULT_SETTINGS, returnWatch: 3600, returnWatchEvery: 600 };
    const pass = (at: Date) => followUpPass({ ledger, provider, now: () => at, ...receiptsIn(tempDir()), settings, send: async () => [], profile: 't', sandbox: true });

    await pass(t0);
    expect(await getBatch(ledger, batchId)).toMatchObject({ status: 'settled', settled_at: t0.toISOString(), read_at: t0.toISOString() });
    expect(reads).toEqual(['remote-1']);

    // The provider refunds the first payment for instability; its webhook never arrives.
    words.set(identifiers[0]!, { status: 'refunded', reason: 'AB03' });
    await pass(minutes(5));
    expect(reads).toHaveLength(1); // read 5 minutes ago: not yet
    const found = await pass(minutes(11));
    // The watch's read finds the return; paying it again reads the pages once more, right before deciding.
    expect(reads).toHaveLength(3);
    expect(found.reprocessed).toBe(1);
    const items = sqliteOf(ledger).prepare('SELECT identifier, status, return_confirmed_at FROM items ORDER BY id').all();
    expect(items.slice(0, 2)).toEqual([
      { identifier: identifiers[0], status: 'returned', return_confirmed_at: minutes(11).toISOString() },
      { identifier: identifiers[1], status: 'paid', return_confirmed_at: null },
    ]);

    // Past the watch, the settled batch is not read again.
    await pass(minutes(75));
    expect(reads.filter((r) => r === 'remote-1')).toHaveLength(3);
    await ledger.close();
  });

  it('returnWatch 0 never reads a settled batch again', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, t0);
    const { provider, reads } = pagesProvider(new Map([[identifiers[0]!, { status: 'approved' }]]));
    const settings = { ...DEFAULT_SETTINGS, returnWatch: 0 };
    for (const at of [t0, minutes(20), minutes(40)]) {
      await followUpPass({ ledger, provider, now: () => at, ...receiptsIn(tempDir()), settings, send: async () => [], profile: 't', sandbox: true });
    }
    expect(reads).toEqual(['remote-1']);
    await ledger.close();
  });
});
