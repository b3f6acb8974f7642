import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../src/domain/webhook-event.js';
import { applyStoredEvents, storeWebhookEvents, unappliedWebhookEvents } from '../../src/engine/webhooks/stored-events.js';
import { listEvents, pruneEventsBefore } from '../../src/ledger/event-repository.js';
import { sqliteOf } from '../../src/ledger/open-ledger.js';
import { countingTransactions } from '../helpers/counting-ledger.js';
import { ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const at = new Date('2026-11-20T12:00:00Z');
const meta = { deliveryId: null, receivedAt: at };

function pix(o: Partial<Extract<WebhookEvent, { kind: 'pix' }>> & { eventId: string; identifier: string }): WebhookEvent {
  // The fixture's items are of 1000 + n centavos, n the end of their identifier.
  return { kind: 'pix', pixId: `pix-${o.eventId}`, amountCents: 1000 + Number(o.identifier.slice(-12)), endToEndId: `E2E${o.eventId}`, isRefund: false, accepted: true, transactionStatus: 'approved', reason: null, timestamp: null, raw: { o }, ...o };
}

/** The body a provider would send for `pix(...)`: what the receiver stores and a restarted daemon reads back. */
function body(eventId: string, identifier: string, amount: number, status = 'approved'): string {
  return JSON.stringify({ serviceId: 1, payload: { id: `pix-${eventId}`, eventId, identifier, amount, endToEndId: `E2E${eventId}`, isRefund: false, transactionAccepted: status === 'approved', transactionStatus: status, reason: null } });
}

describe('storing a webhook event, then applying it', () => {
  it('stores a group with one commit and applies nothing; a repeated id is a duplicate', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, at);
    let commits = 0;
    const counted = countingTransactions(ledger, (nested) => {
      if (!nested) commits++;
    });
    const outcomes = await storeWebhookEvents(counted, [
      { event: pix({ eventId: 'a', identifier: identifiers[0]! }), meta: { ...meta, body: '{"a":1}' } },
      { event: pix({ eventId: 'b', identifier: identifiers[1]! }), meta: { ...meta, body: '{"b":1}' } },
      { event: pix({ eventId: 'a', identifier: identifiers[0]! }), meta: { ...meta, body: '{"a":2}' } },
    ]);
    expect(outcomes).toEqual(['stored', 'stored', 'duplicate']);
    expect(commits).toBe(1);
    expect(await storeWebhookEvents(ledger, [{ event: pix({ eventId: 'b', identifier: identifiers[1]! }), meta }])).toEqual(['duplicate']);
    const raw = sqliteOf(ledger);
    expect(raw.prepare('SELECT event_id, effect, topic, payload_json FROM webhook_events ORDER BY rowid').all()).toEqual([
      { event_id: 'a', effect: '', topic: 'pix', payload_json: '{"a":1}' },
      { event_id: 'b', effect: '', topic: 'pix', payload_json: '{"b":1}' },
    ]);
    expect(raw.prepare('SELECT status FROM items ORDER BY id').all()).toEqual([{ status: 'submitted' }, { status: 'submitted' }]);
    // Listed as waiting, never with an empty effect.
    expect((await listEvents(ledger, { limit: 10 })).map((e) => e.effect)).toEqual(['stored; not applied yet', 'stored; not applied yet']);
    await ledger.close();
  });

  it('applies stored events once, in one commit, recording each one’s effect; applying again changes nothing', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, at);
    const events = [
      { event: pix({ eventId: 'a', identifier: identifiers[0]! }), meta },
      { event: pix({ eventId: 'b', identifier: identifiers[1]!, accepted: false, transactionStatus: 'rejected', reason: 'AC03' }), meta },
    ];
    await storeWebhookEvents(ledger, events);
    let commits = 0;
    const counted = countingTransactions(ledger, (nested) => {
      if (!nested) commits++;
    });
    expect(await applyStoredEvents(counted, events)).toEqual([
      { status: 'applied', effect: 'item paid' },
      { status: 'applied', effect: 'item failed' },
    ]);
    expect(commits).toBe(1);
    const raw = sqliteOf(ledger);
    expect(raw.prepare('SELECT status, pix_id FROM items ORDER BY id').all()).toEqual([
      { status: 'paid', pix_id: 'pix-a' },
      { status: 'failed', pix_id: 'pix-b' },
    ]);
    // The same events again (a second daemon's queue, a replay): they no longer wait, and nothing moves.
    raw.prepare("UPDATE items SET status = 'submitted' WHERE id = 2").run();
    expect(await applyStoredEvents(ledger, events)).toEqual([{ status: 'gone' }, { status: 'gone' }]);
    expect(raw.prepare('SELECT status FROM items ORDER BY id').all()).toEqual([{ status: 'paid' }, { status: 'submitted' }]);
    expect(raw.prepare('SELECT event_id, effect, quarantine FROM webhook_events ORDER BY rowid').all()).toEqual([
      { event_id: 'a', effect: 'item paid', quarantine: null },
      { event_id: 'b', effect: 'item failed', quarantine: null },
    ]);
    await ledger.close();
  });

  it('an event whose effect throws is rolled back alone and waits, with the later events of its lane; the others go in', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, at);
    const callback = (eventId: string): WebhookEvent => ({ kind: 'callback', eventId, type: 'bill_payment', category: 'bill_paid', timestamp: null, title: null, detail: {}, raw: {} });
    const events = [
      { event: pix({ eventId: 'p1', identifier: identifiers[0]! }), meta },
      { event: callback('c1'), meta },
      { event: pix({ eventId: 'p2', identifier: identifiers[1]! }), meta },
      { event: callback('c2'), meta },
    ];
    await storeWebhookEvents(ledger, events);
    let calls = 0;
    const onCallback = async () => {
      calls += 1;
      throw new Error('disk full');
    };
    const outcomes = await applyStoredEvents(ledger, events, { onCallback });
    expect(outcomes.map((o) => o.status)).toEqual(['applied', 'failed', 'applied', 'held']);
    expect((outcomes[1] as { error: Error }).error.message).toBe('disk full');
    // Tried once without savepoints, once in its own: c2 waits behind c1 and is not tried the second time.
    expect(calls).toBe(2);
    expect(sqliteOf(ledger).prepare('SELECT event_id, effect FROM webhook_events ORDER BY rowid').all()).toEqual([
      { event_id: 'p1', effect: 'item paid' },
      { event_id: 'c1', effect: '' },
      { event_id: 'p2', effect: 'item paid' },
      { event_id: 'c2', effect: '' },
    ]);
    await ledger.close();
  });

  it('a restarted daemon reads back what waits, in the order stored, as the receiver read it', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, at);
    const [a, b] = identifiers as [string, string];
    const paid = pix({ eventId: 'paid', identifier: a, amountCents: 1001 });
    const refund = pix({ eventId: 'refund', identifier: a, amountCents: 1001, isRefund: true });
    await storeWebhookEvents(ledger, [
      { event: paid, meta: { deliveryId: 'd1', receivedAt: at, body: body('paid', a, 1001) } },
      { event: pix({ eventId: 'other', identifier: b }), meta: { deliveryId: null, receivedAt: at, body: body('other', b, 1002, 'rejected') } },
      { event: refund, meta: { deliveryId: null, receivedAt: at, body: '{"not":"an event"}' } },
    ]);
    const back = await unappliedWebhookEvents(ledger);
    expect(back.map((d) => [d.event.eventId, d.meta.deliveryId, d.meta.receivedAt.toISOString()])).toEqual([
      ['paid', 'd1', at.toISOString()],
      ['other', null, at.toISOString()],
    ]);
    expect(back[0]!.event).toMatchObject({ kind: 'pix', identifier: a, amountCents: 1001, pixId: 'pix-paid', accepted: true, transactionStatus: 'approved' });
    // A stored body that no longer reads as its event is quarantined, not applied and not read back again.
    const row = sqliteOf(ledger).prepare("SELECT effect, quarantine FROM webhook_events WHERE event_id = 'refund'").get() as { effect: string; quarantine: string };
    expect(row.quarantine).toMatch(/^its stored body no longer reads as this event/);
    expect(await applyStoredEvents(ledger, back)).toEqual([
      { status: 'applied', effect: 'item paid' },
      { status: 'applied', effect: 'item failed' },
    ]);
    expect(await unappliedWebhookEvents(ledger)).toEqual([]);
    await ledger.close();
  });

  it('never prunes an event that waits, however old', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, at);
    await storeWebhookEvents(ledger, [
      { event: pix({ eventId: 'waits', identifier: identifiers[0]! }), meta },
      { event: pix({ eventId: 'done', identifier: identifiers[1]! }), meta },
    ]);
    await applyStoredEvents(ledger, [{ event: pix({ eventId: 'done', identifier: identifiers[1]! }), meta }]);
    await pruneEventsBefore(ledger, new Date('2027-01-01T00:00:00Z'));
    expect(sqliteOf(ledger).prepare('SELECT event_id FROM webhook_events').all()).toEqual([{ event_id: 'waits' }]);
    await ledger.close();
  });
});
