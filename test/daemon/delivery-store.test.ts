import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../src/domain/webhook-event.js';
import { storeDeliveries } from '../../src/daemon/delivery-store.js';
import type { DaemonLogEntry } from '../../src/daemon/log-events.js';
import { storeWebhookEvents } from '../../src/engine/webhooks/stored-events.js';
import Sqlite from 'better-sqlite3';
import { NOT_APPLIED } from '../../src/ledger/event-repository.js';
import { openLedger, sqliteOf } from '../../src/ledger/open-ledger.js';
import { ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const at = new Date('2026-11-20T12:00:00Z');
const meta = { deliveryId: null, receivedAt: at };

function pix(o: Partial<Extract<WebhookEvent, { kind: 'pix' }>> & { eventId: string; identifier: string }): WebhookEvent {
  // The fixture's items are of 1000 + n centavos, n the end of their identifier.
  return { kind: 'pix', pixId: `pix-${o.eventId}`, amountCents: 1000 + Number(o.identifier.slice(-12)), endToEndId: `E2E${o.eventId}`, isRefund: false, accepted: true, transactionStatus: 'approved', reason: null, timestamp: null, raw: { o }, ...o };
}

describe("the daemon's store of deliveries (SQLite)", () => {
  it('answers once an event is stored, applies it right after, and applies what was stored before close returns', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 3, at);
    const store = storeDeliveries(ledger, {});
    const outcomes = await Promise.all([
      store.onEvent(pix({ eventId: 'a', identifier: identifiers[0]! }), meta),
      store.onEvent(pix({ eventId: 'b', identifier: identifiers[1]! }), meta),
      store.onEvent(pix({ eventId: 'a', identifier: identifiers[0]! }), meta),
    ]);
    expect(outcomes).toEqual(['stored', 'stored', 'duplicate']);
    // Answered: both are in the ledger (applied or still waiting).
    expect(sqliteOf(ledger).prepare('SELECT event_id FROM webhook_events ORDER BY rowid').all()).toEqual([{ event_id: 'a' }, { event_id: 'b' }]);
    await store.close();
    expect(sqliteOf(ledger).prepare('SELECT status FROM items ORDER BY id').all()).toEqual([{ status: 'paid' }, { status: 'paid' }, { status: 'submitted' }]);
    expect(sqliteOf(ledger).prepare('SELECT event_id, effect FROM webhook_events ORDER BY rowid').all()).toEqual([
      { event_id: 'a', effect: 'item paid' },
      { event_id: 'b', effect: 'item paid' },
    ]);
    expect(store.state()).toMatchObject({ stored: 2, applied: 2, waiting: 0, oldestWaitMs: 0 });
    await ledger.close();
  });

  it('answers deliveries committed together only once their commit is durable; both are there after a reopen', async () => {
    const dir = tempDir();
    const { ledger, identifiers } = await ledgerWithStartedBatch(dir, 2, at);
    const store = storeDeliveries(ledger, {});
    const outcomes = await Promise.all([store.onEvent(pix({ eventId: 'a', identifier: identifiers[0]! }), meta), store.onEvent(pix({ eventId: 'b', identifier: identifiers[1]! }), meta)]);
    expect(outcomes).toEqual(['stored', 'stored']);
    // Another connection sees both the moment they are answered, before any apply.
    const file = sqliteOf(ledger).name;
    const other = new Sqlite(file, { readonly: true });
    expect(other.prepare('SELECT event_id, effect FROM webhook_events ORDER BY rowid').all()).toEqual([
      { event_id: 'a', effect: NOT_APPLIED },
      { event_id: 'b', effect: NOT_APPLIED },
    ]);
    other.close();
    await store.close();
    await ledger.close();
    const reopened = await openLedger(file);
    expect(sqliteOf(reopened).prepare('SELECT status FROM items ORDER BY id').all()).toEqual([{ status: 'paid' }, { status: 'paid' }]);
    await reopened.close();
  });

  it("applies an item's events in the order they were stored", async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, at);
    const id = identifiers[0]!;
    const store = storeDeliveries(ledger, {});
    // Stored one after the other: the payment, then its return for fraud.
    await store.onEvent(pix({ eventId: 'paid', identifier: id }), meta);
    await store.onEvent(pix({ eventId: 'returned', identifier: id, isRefund: true, pixId: 'pix-refund', reason: 'FR01 - fraud' }), meta);
    await store.close();
    expect(sqliteOf(ledger).prepare('SELECT status, return_action, pix_id FROM items').get()).toEqual({ status: 'returned', return_action: 'final', pix_id: 'pix-paid' });
    expect(sqliteOf(ledger).prepare('SELECT event_id, effect FROM webhook_events ORDER BY rowid').all()).toEqual([
      { event_id: 'paid', effect: 'item paid' },
      { event_id: 'returned', effect: 'item returned (final; paid again only once the provider confirms)' },
    ]);
    await ledger.close();
  });

  it('applies first what a stopped daemon stored and left unapplied, ahead of new deliveries', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, at);
    const id = identifiers[0]!;
    const left = pix({ eventId: 'left', identifier: id });
    // What the killed daemon had stored and answered: the body as the provider sent it.
    const body = JSON.stringify({ payload: { id: 'pix-left', eventId: 'left', identifier: id, amount: 1001, endToEndId: 'E2Eleft', isRefund: false, transactionAccepted: true, transactionStatus: 'approved', reason: null } });
    await storeWebhookEvents(ledger, [{ event: left, meta: { ...meta, body } }]);
    const store = storeDeliveries(ledger, {});
    await store.onEvent(pix({ eventId: 'refund', identifier: id, isRefund: true, pixId: 'pix-refund', reason: 'AB03 - timeout' }), meta);
    await store.close();
    expect(sqliteOf(ledger).prepare('SELECT event_id, effect FROM webhook_events ORDER BY rowid').all()).toEqual([
      { event_id: 'left', effect: 'item paid' },
      { event_id: 'refund', effect: 'item returned (reprocess; paid again only once the provider confirms)' },
    ]);
    expect(store.state()).toMatchObject({ stored: 1, applied: 2, waiting: 0 });
    await ledger.close();
  });

  it('keeps an event whose effect fails stored and waiting, logs it, and still closes; the next daemon applies it', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, at);
    const logged: DaemonLogEntry[] = [];
    const callback: WebhookEvent = { kind: 'callback', eventId: 'c1', type: 'bill_payment', category: 'bill_paid', timestamp: null, title: null, detail: {}, raw: { eventId: 'c1', type: 'bill_payment', category: 'bill_paid' } };
    const failing = storeDeliveries(ledger, { onCallback: () => Promise.reject(new Error('disk full')) }, { log: (e) => logged.push(e) });
    expect(await failing.onEvent(callback, meta)).toBe('stored');
    expect(await failing.onEvent(pix({ eventId: 'p', identifier: identifiers[0]! }), meta)).toBe('stored');
    await failing.close();
    expect(sqliteOf(ledger).prepare('SELECT event_id, effect FROM webhook_events ORDER BY rowid').all()).toEqual([
      { event_id: 'c1', effect: '' },
      { event_id: 'p', effect: 'item paid' },
    ]);
    expect(failing.state()).toMatchObject({ stored: 2, applied: 1, waiting: 1 });
    expect(logged.map((e) => [e.level, e.event, e.eventId, e.error])).toContainEqual(['error', 'webhook_not_applied', 'c1', 'Error: disk full']);
    const next = storeDeliveries(ledger, { onCallback: async () => ({ effect: 'recorded; a test callback', topic: 'bill' }) });
    await next.close();
    expect(sqliteOf(ledger).prepare("SELECT effect, topic FROM webhook_events WHERE event_id = 'c1'").get()).toEqual({ effect: 'recorded; a test callback', topic: 'bill' });
    await ledger.close();
  });
});
