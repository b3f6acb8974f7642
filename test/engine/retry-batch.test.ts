import { describe, expect, it } from 'vitest';
import { commitRetry, prepareRetry, type RetryDeps, type RetryOptions, type RetryResult, type RetrySummary } from '../../src/engine/pix-import/retry-batch.js';
import { exportBatchRows } from '../../src/engine/reports/export-batch.js';
import { CancelledError, InputRejectedError, PaybatchError } from '../../src/errors.js';
import { sqliteOf, type Ledger } from '../../src/ledger/open-ledger.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import type { ItemState } from '../../src/domain/item-state.js';
import type { Item } from '../../src/provider/types.js';
import { destination, ledgerWithStartedBatch, plannedItem } from '../helpers/ledger-fixture.js';
import { memoryBatches } from '../helpers/memory-batches.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const t0 = new Date('2026-11-20T12:00:00Z');

/**
 * A provider in memory: every key exists, batches are found by name, added items are kept, starts counted. Its item
 * pages (the record a retry reads first) show each item as the ledger has it, unless `record` says otherwise.
 */
function memoryProvider(ledger: Ledger, o: { failCreate?: boolean; unknownKeys?: readonly string[]; record?: Readonly<Record<number, Partial<Item> | null>> } = {}) {
  const { batches, calls } = memoryBatches({
    beforeCreate: () => {
      if (o.failCreate) throw new PaybatchError('connection reset');
    },
  });
  const provider = {
    dialect: { instabilityWords: [] },
    async *items(remoteId: string): AsyncIterable<Item[]> {
      const held = sqliteOf(ledger)
        .prepare('SELECT i.id, i.identifier, i.status, i.reason, i.amount_cents FROM items i JOIN batches b ON b.id = i.batch_id WHERE b.remote_id = ? ORDER BY i.id')
        .all(remoteId) as { id: number; identifier: string; status: ItemState; reason: string | null; amount_cents: number }[];
      yield held.flatMap((h) => {
        const shown = o.record?.[h.id];
        if (shown === null) return [];
        const page: Item = { itemId: `item-${h.identifier}`, status: h.status, state: h.status, description: '', amountCents: h.amount_cents, identifier: h.identifier, to: destination, ...(h.reason ? { reason: h.reason } : {}) };
        return [{ ...page, ...shown }];
      });
    },
    async lookupKey(key: string) {
      return o.unknownKeys?.includes(key) ? null : { ...destination, key };
    },
    ...calls,
  };
  return { batches, provider };
}

/** The engine's deps, and the person's answer to the plan (`batch retry` asks between prepareRetry and commitRetry). */
type Deps = RetryDeps & { readonly confirm: (summary: RetrySummary) => Promise<boolean> };

/** What `batch retry` does: prepare, confirm the plan's summary, commit. */
async function retryBatch(d: Deps, o: RetryOptions): Promise<RetryResult> {
  const prepared = await prepareRetry(d, o);
  if (prepared.kind === 'done') return prepared.result;
  if (!(await d.confirm(prepared.plan.summary))) throw new CancelledError();
  return commitRetry(d, prepared.plan);
}

function deps(ledger: Ledger, provider: object, summaries: RetrySummary[] = []): Deps {
  return {
    ledger,
    provider: async () => provider as never,
    settings: { maxBatchTotal: 100_000_00 },
    now: () => t0,
    confirm: async (s) => {
      summaries.push(s);
      return true;
    },
  };
}

const set = (ledger: Ledger, sql: string, ...ids: number[]) => sqliteOf(ledger).prepare(`UPDATE items SET ${sql} WHERE id IN (${ids.join(',')})`).run();
const rows = (ledger: Ledger, batchId: number) =>
  sqliteOf(ledger).prepare('SELECT line, identifier, amount_cents AS amount, retry_of AS retryOf, retry_root_id AS root, status FROM items WHERE batch_id = ? ORDER BY line').all(batchId);

/**
 * Batch 1 of five rows (items 1–5, lines 2–6, amounts 10,01–10,05): paid, failed, returned for good (confirmed),
 * returned for instability (reprocess), still processing.
 */
async function settledBatch(): Promise<Ledger> {
  const { ledger } = await ledgerWithStartedBatch(tempDir(), 5, t0);
  set(ledger, "status = 'paid'", 1);
  set(ledger, "status = 'failed', reason = 'AB02'", 2);
  set(ledger, "status = 'returned', return_action = 'final', reason = 'MD06', return_confirmed_at = '2026-11-20T13:00:00Z'", 3);
  set(ledger, "status = 'returned', return_action = 'reprocess', reason = 'AB03', return_confirmed_at = '2026-11-20T13:00:00Z'", 4);
  set(ledger, "status = 'processing'", 5);
  return ledger;
}

describe('batch retry', () => {
  it('plans the failed and finally returned rows with their counts and totals, and writes the batch only when committed', async () => {
    const ledger = await settledBatch();
    const { batches, provider } = memoryProvider(ledger);
    const prepared = await prepareRetry(deps(ledger, provider), { batchId: 1, statuses: ['failed', 'returned'], start: false, allowDuplicates: false });
    if (prepared.kind !== 'plan') throw new Error(`expected a plan, got ${prepared.kind}`);
    const { plan } = prepared;
    // Line 3 (item 2, failed, R$ 10,02) and line 4 (item 3, returned for good, R$ 10,03): 2 rows, R$ 20,05, the
    // largest R$ 10,03. Line 5 (returned to be reprocessed) and lines 2 and 6 (paid, processing) are not paid again.
    expect(plan.summary).toEqual({
      sourceBatchId: 1,
      batchName: 'Folha retry 2026-11-20',
      rows: 2,
      totals: { count: 2, sumCents: 2005, largestCents: 1003, byKeyType: [{ keyType: 'email', count: 2, sumCents: 2005 }] },
      nameWarnings: [],
      duplicates: [],
      start: false,
    });
    expect(plan.items.map((i) => [i.from.item.line, i.from.item.amount_cents])).toEqual([
      [3, 1002],
      [4, 1003],
    ]);
    expect(plan.skipped).toEqual([]);
    // A plan writes nothing: no second batch in the ledger, none at the provider.
    expect(sqliteOf(ledger).prepare('SELECT count(*) AS n FROM batches').get()).toEqual({ n: 1 });
    expect(batches).toEqual([]);
    const r = await commitRetry(deps(ledger, provider), plan);
    expect(r).toMatchObject({ outcome: 'retried', batch: { id: 2, item_count: 2, total_cents: 2005, status: 'submitted' }, summary: plan.summary });
    expect(r.items.map((i) => i.line)).toEqual([3, 4]);
  });

  it("pays again only rows the provider's record, read right before, shows failed: a failure only an event claimed is not trusted", async () => {
    const ledger = await settledBatch();
    set(ledger, "status = 'failed', reason = 'AB09'", 5);
    // The ledger's news is older than the pages read now.
    set(ledger, "status_changed_at = '2026-11-20T11:00:00.000Z'", 1, 2, 3, 4, 5);
    // The record shows item 2 paid (the "failed" was a false claim) and item 5 nowhere; item 3 as the ledger has it.
    const { batches, provider } = memoryProvider(ledger, { record: { 2: { status: 'LIQUIDATED', state: 'paid', pixId: 'P2' }, 5: null } });
    const r = await retryBatch(deps(ledger, provider), { batchId: 1, statuses: ['failed', 'returned'], start: true, allowDuplicates: false });
    expect(r.outcome).toBe('retried');
    expect(r.skipped).toEqual([
      { line: 3, identifier: expect.any(String), record: 'paid' },
      { line: 6, identifier: expect.any(String), record: null },
    ]);
    // Only the row returned for good (line 4) went to the provider again.
    expect(batches.map((b) => b.items.length)).toEqual([1]);
    expect(rows(ledger, 2)).toEqual([expect.objectContaining({ line: 4, amount: 1003 })]);
    // The ledger followed the record: item 2 is paid now, and that correction waits for its alert.
    expect(sqliteOf(ledger).prepare('SELECT status, record_state FROM items WHERE id = 2').get()).toEqual({ status: 'paid', record_state: 'paid' });
    expect(sqliteOf(ledger).prepare('SELECT claimed, recorded FROM item_corrections').all()).toEqual([{ claimed: 'failed', recorded: 'paid' }]);
    await ledger.close();
  });

  it('makes a new batch of the failed and finally returned rows only, linked to them, and sends and starts it', async () => {
    const ledger = await settledBatch();
    const { batches, provider } = memoryProvider(ledger);
    const summaries: RetrySummary[] = [];
    const r = await retryBatch(deps(ledger, provider, summaries), { batchId: 1, statuses: ['failed', 'returned'], start: true, allowDuplicates: false });
    expect(r.outcome).toBe('retried');
    expect(r.batch).toMatchObject({ id: 2, status: 'started', item_count: 2, total_cents: 2005, name: 'Folha retry 2026-11-20' });
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({ sourceBatchId: 1, rows: 2, totals: { count: 2, sumCents: 2005, largestCents: 1003 }, duplicates: [] });
    // Identifiers derived from the originals (UUIDv5 of "retry:<identifier>:<n>" in paybatch's namespace, computed with Python's uuid.uuid5).
    expect(rows(ledger, 2)).toEqual([
      { line: 3, identifier: 'f9dddd88-e6d3-5c9f-ad1a-b0524d7444b1', amount: 1002, retryOf: 2, root: 2, status: 'submitted' },
      { line: 4, identifier: 'e7e9792a-f220-5a66-a240-d58291241720', amount: 1003, retryOf: 3, root: 3, status: 'submitted' },
    ]);
    expect(batches).toEqual([{ id: 'r-1', name: 'Folha retry 2026-11-20 [pb:2]', items: rows(ledger, 2).map((x) => (x as { identifier: string }).identifier), starts: 1 }]);
  });

  it('run again, gives the same batch and no second one; only --status failed takes only the failed rows', async () => {
    const ledger = await settledBatch();
    const { batches, provider } = memoryProvider(ledger);
    const first = await retryBatch(deps(ledger, provider), { batchId: 1, statuses: ['failed'], start: true, allowDuplicates: false });
    expect(rows(ledger, first.batch!.id).map((x) => (x as { line: number }).line)).toEqual([3]);
    const again = await retryBatch(deps(ledger, provider), { batchId: 1, statuses: ['failed'], start: true, allowDuplicates: false });
    expect(again.outcome).toBe('already-retried');
    expect(again.batch!.id).toBe(first.batch!.id);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.starts).toBe(1);
  });

  it('after a crash between the ledger and the provider, the next run sends the batch it wrote', async () => {
    const ledger = await settledBatch();
    await expect(retryBatch(deps(ledger, memoryProvider(ledger, { failCreate: true }).provider), { batchId: 1, statuses: ['failed', 'returned'], start: true, allowDuplicates: false })).rejects.toThrow(
      'connection reset',
    );
    const { batches, provider } = memoryProvider(ledger);
    const r = await retryBatch(deps(ledger, provider), { batchId: 1, statuses: ['failed', 'returned'], start: false, allowDuplicates: false });
    expect(r.outcome).toBe('resumed');
    // The first run asked for a start: it is honoured.
    expect(r.batch).toMatchObject({ id: 2, status: 'started' });
    expect(batches.map((b) => [b.name, b.items.length, b.starts])).toEqual([['Folha retry 2026-11-20 [pb:2]', 2, 1]]);
    expect(sqliteOf(ledger).prepare('SELECT count(*) AS n FROM batches').get()).toEqual({ n: 2 });
  });

  it('a row whose retry failed again can be retried once more, from either batch but never from both', async () => {
    const ledger = await settledBatch();
    const { provider } = memoryProvider(ledger);
    await retryBatch(deps(ledger, provider), { batchId: 1, statuses: ['failed'], start: true, allowDuplicates: false });
    // The retry of line 3 (item 6, batch 2) fails too.
    set(ledger, "status = 'failed', reason = 'AB02'", 6);
    const second = await retryBatch(deps(ledger, provider), { batchId: 1, statuses: ['failed'], start: true, allowDuplicates: false });
    expect(second.outcome).toBe('retried');
    expect(rows(ledger, 3)).toEqual([{ line: 3, identifier: 'f6357ec3-250c-5f60-9321-49ec0e605ca4', amount: 1002, retryOf: 2, root: 2, status: 'submitted' }]);
    // Batch 2's failed item is the same row, now under way in batch 3.
    const fromRetry = await retryBatch(deps(ledger, provider), { batchId: 2, statuses: ['failed'], start: true, allowDuplicates: false });
    expect(fromRetry.outcome).toBe('nothing-to-retry');
    expect(await exportBatchRows(ledger, 2, ['failed'])).toEqual({ rows: [], unconfirmed: 0 });
  });

  it('refuses rows that pay a key the same amount as another recent payment, unless allowed', async () => {
    const ledger = await settledBatch();
    // Another sheet paid line 3's key (p2@example.com) R$ 10,02 the same day.
    await recordImport(ledger, { fileHash: 'other', fileName: 'o.csv', rowCount: 1, batchName: 'Outra', itemCount: 1, items: [{ ...plannedItem(2), identifier: '00000000-0000-4000-8000-00000000aaaa', line: 2 }], rejectedCount: 0, now: t0 });
    const { provider } = memoryProvider(ledger);
    const refused = retryBatch(deps(ledger, provider), { batchId: 1, statuses: ['failed'], start: false, allowDuplicates: false });
    await expect(refused).rejects.toBeInstanceOf(InputRejectedError);
    await expect(refused).rejects.toMatchObject({
      refusal: { code: 'duplicates', source: 'batch #1', rows: 1, nothing: 'created' },
      rows: [{ file: 'batch #1', line: 3, field: 'key', reason: { code: 'paid_before', key: 'p2@example.com', amountCents: 1002, batchName: 'Outra', date: '2026-11-20' } }],
    });
    const allowed = await retryBatch(deps(ledger, provider), { batchId: 1, statuses: ['failed'], start: false, allowDuplicates: true });
    expect(allowed.outcome).toBe('retried');
    expect(allowed.batch).toMatchObject({ status: 'submitted', item_count: 1 });
  });

  it('creates nothing when another run takes the rows while this one waits for its confirmation', async () => {
    const ledger = await settledBatch();
    const { provider } = memoryProvider(ledger);
    const racing: Deps = {
      ...deps(ledger, provider),
      confirm: async () => {
        await retryBatch(deps(ledger, provider), { batchId: 1, statuses: ['failed'], start: false, allowDuplicates: false });
        return true;
      },
    };
    await expect(retryBatch(racing, { batchId: 1, statuses: ['failed'], start: false, allowDuplicates: false })).rejects.toThrow('were paid again by another run meanwhile');
    expect(sqliteOf(ledger).prepare('SELECT count(*) AS n FROM retries').get()).toEqual({ n: 1 });
  });

  it('refuses the whole retry when the provider no longer knows a key, naming the row, and writes nothing', async () => {
    const ledger = await settledBatch();
    const { batches, provider } = memoryProvider(ledger, { unknownKeys: ['p3@example.com'] });
    const refused = retryBatch(deps(ledger, provider), { batchId: 1, statuses: ['failed', 'returned'], start: true, allowDuplicates: false });
    await expect(refused).rejects.toMatchObject({
      refusal: { code: 'retry_ruled_out', source: 'batch #1', batchId: 1, rows: 1, statuses: 'failed,returned' },
      rows: [{ file: 'batch #1', line: 4, field: 'key', reason: { code: 'key_lookup_failed', why: 'unknown_key' } }],
    });
    expect(batches).toEqual([]);
    expect(sqliteOf(ledger).prepare('SELECT count(*) AS n FROM batches').get()).toEqual({ n: 1 });
  });

  it('a "no" at the confirmation writes nothing, and a later run still finds the rows', async () => {
    const ledger = await settledBatch();
    const { provider } = memoryProvider(ledger);
    const declined = retryBatch({ ...deps(ledger, provider), confirm: async () => false }, { batchId: 1, statuses: ['failed'], start: true, allowDuplicates: false });
    await expect(declined).rejects.toMatchObject({ name: 'CancelledError' });
    expect(sqliteOf(ledger).prepare('SELECT count(*) AS n FROM batches').get()).toEqual({ n: 1 });
    const later = await retryBatch(deps(ledger, provider), { batchId: 1, statuses: ['failed'], start: false, allowDuplicates: false });
    expect(later).toMatchObject({ outcome: 'retried', batch: { id: 2, item_count: 1 } });
  });
});
