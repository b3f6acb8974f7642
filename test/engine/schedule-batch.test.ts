import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Alert } from '../../src/alerts/alert.js';
import { DEFAULT_SETTINGS } from '../../src/config/settings.js';
import { PaybatchError, UsageError } from '../../src/errors.js';
import { followUpPass } from '../../src/engine/follow-up/follow-up.js';
import { payOnStart, scheduleImportBatches } from '../../src/engine/batches/schedule-batch.js';
import { listAlerts } from '../../src/ledger/alert-repository.js';
import { getBatch, updateBatch } from '../../src/ledger/batch-repository.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { openLedger, sqliteOf } from '../../src/ledger/open-ledger.js';
import { schedulesOf } from '../../src/ledger/schedule-store.js';
import type { ProviderClient } from '../../src/provider/client.js';
import { plannedItem } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { receiptsIn } from '../helpers/receipts-dir.js';

const tempDir = useTempDir();

/** A ledger with one imported batch whose items are all at the provider, not started (an import without --start). */
async function readyBatch(at: Date) {
  const ledger = await openLedger(join(tempDir(), 'ledger.db'));
  const items = [plannedItem(1), plannedItem(2)];
  const { batchIds: [batchId] } = await recordImport(ledger, { fileHash: 'h', fileName: 'folha.csv', rowCount: 2, batchName: 'Folha', itemCount: 2, items, rejectedCount: 0, now: at });
  await updateBatch(ledger, batchId!, { status: 'submitted', remote_id: 'remote-1' }, at);
  sqliteOf(ledger).prepare("UPDATE items SET status = 'submitted', remote_status = 'waiting'").run();
  return { ledger, batchId: batchId! };
}

/** A provider that counts starts (failing while `failing`) and shows every item still waiting. */
function countingProvider() {
  const state = { starts: 0, failing: false };
  const provider = {
    dialect: { instabilityWords: [] as string[] },
    async startBatch(id: string) {
      if (state.failing) throw new PaybatchError('the provider answered 503 Service Unavailable');
      state.starts += 1;
      return { id, name: 'Folha', status: 'processing', timestamp: 0 };
    },
    async *items(): AsyncGenerator<never[]> {
      yield [];
    },
  };
  return { provider: provider as unknown as ProviderClient, state };
}

async function scheduled(payOn: string, importedAt: Date) {
  const { ledger, batchId } = await readyBatch(importedAt);
  const { provider, state } = countingProvider();
  const sent: Alert[] = [];
  await scheduleImportBatches(ledger, [batchId], payOnStart(payOn, importedAt), importedAt);
  const pass = (at: string) =>
    followUpPass({
      ledger, provider, now: () => new Date(at), ...receiptsIn(tempDir()), settings: { ...DEFAULT_SETTINGS, returnWatch: 0 },
      send: async (a) => {
        sent.push(a);
        return [];
      },
      profile: 'default', sandbox: true,
    });
  return { ledger, batchId, state, sent, pass };
}

describe('payOnStart', () => {
  const monday = new Date('2026-11-23T15:00:00Z');

  it('starts at 08:00 São Paulo (11:00 UTC) of the day asked when it is a business day', () => {
    expect(payOnStart('2026-12-07', monday)).toEqual({ payOn: '2026-12-07', startDay: '2026-12-07', startAt: new Date('2026-12-07T11:00:00Z') });
  });

  it('moves a Saturday to Monday, and a bank holiday (Christmas) to the next business day', () => {
    expect(payOnStart('2026-12-05', monday).startDay).toBe('2026-12-07');
    expect(payOnStart('2026-12-25', monday).startAt).toEqual(new Date('2026-12-28T11:00:00Z'));
  });

  it('takes today, and refuses a past date or a date that does not exist', () => {
    expect(payOnStart('2026-11-23', monday).startAt).toEqual(new Date('2026-11-23T11:00:00Z'));
    expect(() => payOnStart('2026-11-20', monday)).toThrow(
      new UsageError('--pay-on 2026-11-20 is in the past (today is 2026-11-23 in São Paulo); nothing was imported.', {
        reason: { code: 'pay_on_past', payOn: '2026-11-20', today: '2026-11-23' },
      }),
    );
    expect(() => payOnStart('2026-02-30', monday)).toThrow(UsageError);
    expect(() => payOnStart('05/12/2026', monday)).toThrow(/YYYY-MM-DD/);
  });
});

describe('the daemon starts scheduled batches', () => {
  it('not before 08:00 São Paulo of the day; at 08:00 once, however many passes follow', async () => {
    const { ledger, batchId, state, sent, pass } = await scheduled('2026-12-07', new Date('2026-11-23T15:00:00Z'));
    expect(await schedulesOf(ledger, [batchId])).toEqual([
      { batchId, payOn: '2026-12-07', startAt: '2026-12-07T11:00:00.000Z', state: 'scheduled', lastError: null },
    ]);

    const early = await pass('2026-12-07T10:59:00Z');
    expect(state.starts).toBe(0);
    expect(early.scheduledStarts).toEqual([]);
    expect((await getBatch(ledger, batchId)).status).toBe('submitted');

    const due = await pass('2026-12-07T11:00:00Z');
    expect(due.scheduledStarts).toEqual([batchId]);
    expect(await getBatch(ledger, batchId)).toMatchObject({ status: 'started', start_requested: 1, started_at: '2026-12-07T11:00:00.000Z' });
    await pass('2026-12-07T11:00:30Z');
    await pass('2026-12-07T12:30:00Z');
    expect(state.starts).toBe(1);
    expect((await schedulesOf(ledger, [batchId]))[0]!.state).toBe('started');
    // Its payments were added two weeks ago but wait for news only since the start: no alert 90 minutes on.
    expect(sent).toEqual([]);
    await ledger.close();
  });

  it('moves a holiday to the next business day (Consciência Negra, Friday 2026-11-20, to Monday)', async () => {
    const { ledger, batchId, state, pass } = await scheduled('2026-11-20', new Date('2026-11-19T15:00:00Z'));
    await pass('2026-11-20T12:00:00Z');
    await pass('2026-11-23T10:30:00Z');
    expect(state.starts).toBe(0);
    await pass('2026-11-23T11:00:00Z');
    expect(state.starts).toBe(1);
    expect((await getBatch(ledger, batchId)).status).toBe('started');
    await ledger.close();
  });

  it('does not start late when its day passed with the daemon down: one alert says so', async () => {
    const { ledger, batchId, state, sent, pass } = await scheduled('2026-12-07', new Date('2026-11-23T15:00:00Z'));
    const late = await pass('2026-12-08T12:00:00Z');
    await pass('2026-12-08T12:01:00Z');
    expect(state.starts).toBe(0);
    expect(late.scheduledStarts).toEqual([]);
    expect(await getBatch(ledger, batchId)).toMatchObject({ status: 'submitted', start_requested: 0 });
    expect((await schedulesOf(ledger, [batchId]))[0]!.state).toBe('missed');
    expect(sent.map((a) => [a.kind, a.title])).toEqual([['scheduled-start-missed', `Scheduled batch #${batchId} "Folha" was not started on its day`]]);
    expect(sent[0]!.summary).toContain(`It was to start at 2026-12-07 08:00 São Paulo time, but no daemon pass ran that business day.`);
    expect(sent[0]!.summary).toContain(`'paybatch batch start ${batchId}'`);
    expect((await listAlerts(ledger, { includeAcked: false })).map((a) => a.kind)).toEqual(['scheduled-start-missed']);
    await ledger.close();
  });

  it('alerts once when the start fails, and the next passes keep trying until it starts', async () => {
    const { ledger, batchId, state, sent, pass } = await scheduled('2026-12-07', new Date('2026-11-23T15:00:00Z'));
    state.failing = true;
    const failed = await pass('2026-12-07T11:00:00Z');
    expect(failed.errors).toContainEqual(expect.objectContaining({ step: 'scheduled_start', batchId, error: 'the provider answered 503 Service Unavailable' }));
    await pass('2026-12-07T11:01:00Z');
    expect(sent.map((a) => a.kind)).toEqual(['scheduled-start-failed']);
    expect((await schedulesOf(ledger, [batchId]))[0]).toMatchObject({ state: 'started', lastError: 'the provider answered 503 Service Unavailable' });

    state.failing = false;
    await pass('2026-12-07T11:02:00Z');
    expect(state.starts).toBe(1);
    expect((await getBatch(ledger, batchId)).status).toBe('started');
    expect((await schedulesOf(ledger, [batchId]))[0]).toMatchObject({ state: 'started', lastError: null });
    await ledger.close();
  });

  it('leaves alone a batch a person started before its day', async () => {
    const { ledger, batchId, state, sent, pass } = await scheduled('2026-12-07', new Date('2026-11-23T15:00:00Z'));
    await updateBatch(ledger, batchId, { status: 'started', start_requested: 1, started_at: '2026-11-30T12:00:00.000Z' }, new Date('2026-11-30T12:00:00Z'));
    expect((await schedulesOf(ledger, [batchId]))[0]!.state).toBe('started');
    await pass('2026-12-07T11:00:00Z');
    expect(state.starts).toBe(0);
    // (Its payments, waiting since 30 November, get the usual stale-items alert; nothing about the schedule.)
    expect(sent.filter((a) => a.kind.startsWith('scheduled'))).toEqual([]);
    await ledger.close();
  });
});
