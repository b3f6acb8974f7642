import { describe, expect, it } from 'vitest';
import { raiseAlerts } from '../../src/engine/attention.js';
import { reprocessConfirmedReturns } from '../../src/engine/reprocess.js';
import { reprocessIdentifier } from '../../src/domain/identifier.js';
import type { Alert } from '../../src/alerts/alert.js';
import { DEFAULT_SETTINGS } from '../../src/config/settings.js';
import { acquireDaemonLock } from '../../src/daemon/lock.js';
import { sqliteOf } from '../../src/ledger/open-ledger.js';
import { ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const t0 = new Date('2026-11-20T12:00:00Z');

describe('reprocessing instability returns', () => {
  it('creates one new attempt per confirmed return, linked and with a derived identifier, and never a second', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 3, t0);
    sqliteOf(ledger).prepare("UPDATE items SET status = 'returned', return_action = 'reprocess' WHERE identifier = ?").run(identifiers[0]);
    sqliteOf(ledger).prepare("UPDATE items SET status = 'returned', return_action = 'final' WHERE identifier = ?").run(identifiers[1]);
    sqliteOf(ledger).prepare("UPDATE items SET status = 'paid' WHERE identifier = ?").run(identifiers[2]);
    // Only an event said so: nothing is paid again until the provider's item page confirms the return.
    expect((await reprocessConfirmedReturns(ledger, { maxReprocess: 2, now: t0 })).attempts).toBe(0);
    sqliteOf(ledger).prepare("UPDATE items SET return_confirmed_at = 'now' WHERE status = 'returned'").run();

    const first = await reprocessConfirmedReturns(ledger, { maxReprocess: 2, now: t0 });
    expect(first.attempts).toBe(1);
    const next = sqliteOf(ledger).prepare('SELECT identifier, attempt, original_item_id, status, batch_id FROM items WHERE attempt = 2').all();
    expect(next).toEqual([{ identifier: reprocessIdentifier(identifiers[0]!, 2), attempt: 2, original_item_id: 1, status: 'resolved', batch_id: first.batchId }]);
    expect(sqliteOf(ledger).prepare('SELECT kind, status, start_requested FROM batches WHERE id = ?').get(first.batchId)).toEqual({ kind: 'reprocess', status: 'draft', start_requested: 1 });
    expect((await reprocessConfirmedReturns(ledger, { maxReprocess: 2, now: t0 })).attempts).toBe(0);

    // The second attempt is returned too: a third, still derived from the original identifier.
    sqliteOf(ledger).prepare("UPDATE items SET status = 'returned', return_action = 'reprocess', return_confirmed_at = 'now' WHERE attempt = 2").run();
    expect((await reprocessConfirmedReturns(ledger, { maxReprocess: 2, now: t0 })).attempts).toBe(1);
    expect(sqliteOf(ledger).prepare('SELECT identifier FROM items WHERE attempt = 3').get()).toEqual({ identifier: reprocessIdentifier(identifiers[0]!, 3) });

    // Out of attempts: reported, not reprocessed.
    sqliteOf(ledger).prepare("UPDATE items SET status = 'returned', return_action = 'reprocess', return_confirmed_at = 'now' WHERE attempt = 3").run();
    const last = await reprocessConfirmedReturns(ledger, { maxReprocess: 2, now: t0 });
    expect(last.attempts).toBe(0);
    expect(last.exhausted.map((i) => i.attempt)).toEqual([3]);
    await ledger.close();
  });
});

describe('alerts', () => {
  it('names each payment without news in one alert, and again only after alertRepeat', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 3, t0);
    const sent: Alert[] = [];
    let now = t0;
    const deps = {
      ledger,
      now: () => now,
      settings: { ...DEFAULT_SETTINGS, staleAfter: 60, alertAfter: 600, alertRepeat: 3600 },
      send: async (a: Alert) => {
        sent.push(a);
        return [];
      },
      profile: 'default',
      sandbox: true,
    };
    now = new Date(t0.getTime() + 120_000);
    expect((await raiseAlerts(deps)).stale).toBe(3);
    expect(sent).toEqual([]);

    now = new Date(t0.getTime() + 700_000);
    await raiseAlerts(deps);
    await raiseAlerts(deps);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.items.map((i) => i.identifier)).toEqual(identifiers);

    now = new Date(t0.getTime() + 700_000 + 3_700_000);
    await raiseAlerts(deps);
    expect(sent).toHaveLength(2);
    expect(sqliteOf(ledger).prepare('SELECT count(*) AS n FROM alerts WHERE acked_at IS NULL').get()).toEqual({ n: 2 });
    await ledger.close();
  });

  it('reports failures and final returns once each', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 3, t0);
    sqliteOf(ledger).prepare("UPDATE items SET status = 'failed', reason = 'AC03' WHERE identifier = ?").run(identifiers[0]);
    sqliteOf(ledger).prepare("UPDATE items SET status = 'returned', return_action = 'final', reason = 'FR01' WHERE identifier = ?").run(identifiers[1]);
    sqliteOf(ledger).prepare("UPDATE items SET status = 'paid' WHERE identifier = ?").run(identifiers[2]);
    const kinds: string[] = [];
    const deps = { ledger, now: () => t0, settings: DEFAULT_SETTINGS, send: async (a: Alert) => (kinds.push(a.kind), []), profile: 'p', sandbox: false };
    await raiseAlerts(deps);
    await raiseAlerts(deps);
    expect(kinds.sort()).toEqual(['failures', 'final-return']);
    await ledger.close();
  });
});

describe('the daemon lock', () => {
  it('lets one daemon hold a ledger, names the holder, and is taken over when the holder is gone', async () => {
    const { ledger } = await ledgerWithStartedBatch(tempDir(), 1, t0);
    const mine = await acquireDaemonLock(ledger, () => t0);
    // A live process (this test's parent) on this host holds it.
    sqliteOf(ledger).prepare('UPDATE daemon_lock SET pid = ?').run(process.ppid);
    await expect(acquireDaemonLock(ledger, () => t0)).rejects.toThrow(new RegExp(`pid ${process.ppid} on `));
    // A dead pid on this host: taken over.
    sqliteOf(ledger).prepare('UPDATE daemon_lock SET pid = 2147483646').run();
    const again = await acquireDaemonLock(ledger, () => t0);
    await again.release();
    await mine.release();
    expect(sqliteOf(ledger).prepare('SELECT count(*) AS n FROM daemon_lock').get()).toEqual({ n: 0 });
    await ledger.close();
  });

  it('beats at most every 10 s, however often the daemon passes', async () => {
    const { ledger } = await ledgerWithStartedBatch(tempDir(), 1, t0);
    let now = t0;
    const lock = await acquireDaemonLock(ledger, () => now);
    const beat = () => (sqliteOf(ledger).prepare('SELECT heartbeat_at FROM daemon_lock').get() as { heartbeat_at: string }).heartbeat_at;
    const at = (ms: number) => new Date(t0.getTime() + ms);
    for (const ms of [100, 5_000, 9_999]) {
      now = at(ms);
      await lock.heartbeat();
    }
    expect(beat()).toBe(t0.toISOString());
    now = at(10_000);
    await lock.heartbeat();
    expect(beat()).toBe(at(10_000).toISOString());
    now = at(15_000);
    await lock.heartbeat();
    expect(beat()).toBe(at(10_000).toISOString());
    await lock.release();
    await ledger.close();
  });
});
