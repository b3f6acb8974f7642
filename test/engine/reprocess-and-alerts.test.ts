import { describe, expect, it } from 'vitest';
import { raiseAlerts } from '../../src/engine/alerts/attention.js';
import { recordWebhookEvent } from '../../src/engine/webhooks/apply-event.js';
import { reconcileBatch } from '../../src/engine/follow-up/reconcile.js';
import type { WebhookEvent } from '../../src/domain/webhook-event.js';
import { reprocessUnpaidForInstability } from '../../src/engine/follow-up/reprocess.js';
import { reprocessIdentifier } from '../../src/domain/identifier.js';
import type { Alert } from '../../src/alerts/alert.js';
import { DEFAULT_SETTINGS } from '../../src/config/settings.js';
import { acquireDaemonLock } from '../../src/daemon/lock.js';
import { sqliteOf, type Ledger } from '../../src/ledger/open-ledger.js';
import { retryableItems } from '../../src/ledger/retry-store.js';
import type { ItemState } from '../../src/domain/item-state.js';
import { DEFAULT_DIALECT } from '../../src/provider/dialect.js';
import type { Item } from '../../src/provider/types.js';
import { destination, ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const t0 = new Date('2026-11-20T12:00:00Z');

type Shown = [status: string, state: ItemState, reason?: string];

/** The provider's item pages of the fixture's batch as the test says they are, read a minute after the ledger's news. */
function recordOf(ledger: Ledger, pages: Map<string, Shown>) {
  const provider = {
    dialect: DEFAULT_DIALECT,
    async *items() {
      const rows = sqliteOf(ledger).prepare('SELECT identifier, amount_cents AS amountCents FROM items WHERE batch_id = 1').all() as { identifier: string; amountCents: number }[];
      yield rows.flatMap(({ identifier, amountCents }) => {
        const shown = pages.get(identifier);
        return shown ? [{ itemId: `it-${identifier}`, status: shown[0], state: shown[1], description: 'd', amountCents, identifier, ...(shown[2] === undefined ? {} : { reason: shown[2] }), to: destination } satisfies Item] : [];
      });
    },
  };
  return { ledger, provider, now: () => new Date(t0.getTime() + 60_000) };
}

describe('paying again what instability left unpaid', () => {
  it('creates one new attempt per return the record confirms, linked and with a derived identifier, and never a second', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 3, t0);
    const record = new Map<string, Shown>([[identifiers[2]!, ['paid', 'paid']]]);
    sqliteOf(ledger).prepare("UPDATE items SET status = 'returned', return_action = 'reprocess' WHERE identifier = ?").run(identifiers[0]);
    sqliteOf(ledger).prepare("UPDATE items SET status = 'returned', return_action = 'final' WHERE identifier = ?").run(identifiers[1]);
    sqliteOf(ledger).prepare("UPDATE items SET status = 'paid' WHERE identifier = ?").run(identifiers[2]);
    // Only an event said so: nothing is paid again until the provider's item page confirms the return.
    expect((await reprocessUnpaidForInstability(recordOf(ledger, record), { maxReprocess: 2 })).attempts).toBe(0);
    sqliteOf(ledger).prepare("UPDATE items SET return_confirmed_at = 'now' WHERE status = 'returned'").run();
    record.set(identifiers[0]!, ['returned', 'returned', 'AB03']).set(identifiers[1]!, ['returned', 'returned', 'FR01']);

    const first = await reprocessUnpaidForInstability(recordOf(ledger, record), { maxReprocess: 2 });
    expect(first.attempts).toBe(1);
    const next = sqliteOf(ledger).prepare('SELECT identifier, attempt, original_item_id, status, batch_id FROM items WHERE attempt = 2').all();
    expect(next).toEqual([{ identifier: reprocessIdentifier(identifiers[0]!, 2), attempt: 2, original_item_id: 1, status: 'resolved', batch_id: first.batchId }]);
    expect(sqliteOf(ledger).prepare('SELECT kind, status, start_requested FROM batches WHERE id = ?').get(first.batchId)).toEqual({ kind: 'reprocess', status: 'draft', start_requested: 1 });
    expect((await reprocessUnpaidForInstability(recordOf(ledger, record), { maxReprocess: 2 })).attempts).toBe(0);

    // The second attempt is returned too: a third, still derived from the original identifier.
    sqliteOf(ledger).prepare("UPDATE items SET status = 'returned', return_action = 'reprocess', return_confirmed_at = 'now' WHERE attempt = 2").run();
    expect((await reprocessUnpaidForInstability(recordOf(ledger, record), { maxReprocess: 2 })).attempts).toBe(1);
    expect(sqliteOf(ledger).prepare('SELECT identifier FROM items WHERE attempt = 3').get()).toEqual({ identifier: reprocessIdentifier(identifiers[0]!, 3) });

    // Out of attempts: reported, not reprocessed.
    sqliteOf(ledger).prepare("UPDATE items SET status = 'returned', return_action = 'reprocess', return_confirmed_at = 'now' WHERE attempt = 3").run();
    const last = await reprocessUnpaidForInstability(recordOf(ledger, record), { maxReprocess: 2 });
    expect(last.attempts).toBe(0);
    expect(last.exhausted.map((i) => i.attempt)).toEqual([3]);
    await ledger.close();
  });

  it('pays again a payment rejected for instability only once the item page shows it failed, and only if it still does', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, t0);
    const [rejected, lied] = [identifiers[0]!, identifiers[1]!];
    // Both were claimed failed with AB03 by an event; the record has shown neither yet.
    sqliteOf(ledger).prepare("UPDATE items SET status = 'failed', reason = 'AB03', return_action = 'reprocess'").run();
    const record = new Map<string, Shown>([[rejected, ['failed', 'failed', 'AB03']], [lied, ['processing', 'processing']]]);

    // The pages read right before deciding: the first is failed, the second still processing (the event lied).
    const done = await reprocessUnpaidForInstability(recordOf(ledger, record), { maxReprocess: 2 });
    expect(done.attempts).toBe(0);
    sqliteOf(ledger).prepare("UPDATE items SET record_state = 'failed' WHERE identifier = ?").run(rejected);
    const paid = await reprocessUnpaidForInstability(recordOf(ledger, record), { maxReprocess: 2 });
    expect(paid.attempts).toBe(1);
    expect(sqliteOf(ledger).prepare('SELECT identifier FROM items WHERE attempt = 2').all()).toEqual([{ identifier: reprocessIdentifier(rejected, 2) }]);
    expect(sqliteOf(ledger).prepare('SELECT status, record_state FROM items WHERE identifier = ?').get(lied)).toEqual({ status: 'processing', record_state: 'processing' });
    await ledger.close();
  });

  it('reads the record right before: a payment an event claimed rejected that the page now shows paid is not paid again', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, t0);
    const id = identifiers[0]!;
    // The ledger holds a rejection the page once showed; the provider then settled it (its page now says paid).
    sqliteOf(ledger).prepare("UPDATE items SET status = 'failed', record_state = 'failed', reason = 'AB03', return_action = 'reprocess'").run();
    const result = await reprocessUnpaidForInstability(recordOf(ledger, new Map([[id, ['paid', 'paid']]])), { maxReprocess: 2 });
    expect(result.attempts).toBe(0);
    expect(sqliteOf(ledger).prepare('SELECT status, record_state FROM items').get()).toEqual({ status: 'paid', record_state: 'paid' });
    await ledger.close();
  });

  it('a failure the pages show without a reason waits for its event: an instability reason pays it again, not the failures alert', async () => {
    const { ledger, batchId, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, t0);
    const id = identifiers[0]!;
    const record = new Map<string, Shown>([[id, ['REJECTED', 'failed']]]);
    await reconcileBatch(recordOf(ledger, record), batchId);
    expect(sqliteOf(ledger).prepare('SELECT status, record_state, return_action FROM items').get()).toEqual({ status: 'failed', record_state: 'failed', return_action: null });
    const kinds: string[] = [];
    const deps = { ledger, now: () => new Date(t0.getTime() + 120_000), settings: DEFAULT_SETTINGS, send: async (a: Alert) => (kinds.push(a.kind), []), profile: 'p', sandbox: false };
    await raiseAlerts(deps);
    expect(kinds).not.toContain('failures');

    const event: WebhookEvent = { kind: 'pix', eventId: 'e1', pixId: 'P1', amountCents: 1001, endToEndId: null, isRefund: false, accepted: false, transactionStatus: 'rejected', reason: 'AB03 - timeout no SPI', timestamp: null, raw: {}, identifier: id };
    await recordWebhookEvent(ledger, event, { deliveryId: null, receivedAt: new Date(t0.getTime() + 180_000) });
    expect(sqliteOf(ledger).prepare('SELECT status, return_action FROM items').get()).toEqual({ status: 'failed', return_action: 'reprocess' });
    expect((await reprocessUnpaidForInstability(recordOf(ledger, record), { maxReprocess: 2 })).attempts).toBe(1);
    await raiseAlerts({ ...deps, now: () => new Date(t0.getTime() + 86_400_000) });
    expect(kinds).not.toContain('failures');
    await ledger.close();
  });

  it('never pays a row again when a batch retry already pays it, and a retry never takes a row a new attempt pays', async () => {
    const { ledger, batchId, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, t0);
    sqliteOf(ledger).prepare("UPDATE items SET status = 'failed', record_state = 'failed', reason = 'AB03', return_action = 'reprocess'").run();
    const record = new Map<string, Shown>(identifiers.map((i) => [i, ['failed', 'failed', 'AB03']]));
    // A person retried the first row before the daemon's pass: its retry item is on its way.
    sqliteOf(ledger).prepare("INSERT INTO items (batch_id, line, identifier, key, key_type, amount_cents, description, status, retry_of, retry_root_id, created_at, updated_at, status_changed_at) SELECT batch_id, line, 'retry-1', key, key_type, amount_cents, description, 'resolved', id, id, created_at, updated_at, status_changed_at FROM items WHERE identifier = ?").run(identifiers[0]);
    const result = await reprocessUnpaidForInstability(recordOf(ledger, record), { maxReprocess: 2 });
    expect(result.attempts).toBe(1);
    expect(sqliteOf(ledger).prepare('SELECT identifier FROM items WHERE attempt = 2').all()).toEqual([{ identifier: reprocessIdentifier(identifiers[1]!, 2) }]);
    // The second row now has a new attempt: `batch retry` finds nothing of the batch left to take.
    expect((await retryableItems(ledger, batchId, ['failed'])).map((r) => r.item.identifier)).toEqual([]);
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
    sqliteOf(ledger).prepare("UPDATE items SET status = 'failed', record_state = 'failed', reason = 'AC03', return_action = 'final' WHERE identifier = ?").run(identifiers[0]);
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
