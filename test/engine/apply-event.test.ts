import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../src/domain/webhook-event.js';
import { recordWebhookEvent, recordWebhookEvents } from '../../src/engine/webhooks/apply-event.js';
import { logIntent, logOutcome } from '../../src/ledger/call-log.js';
import { sqliteOf } from '../../src/ledger/open-ledger.js';
import { countingTransactions } from '../helpers/counting-ledger.js';
import { ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const at = new Date('2026-11-20T12:00:00Z');
const meta = { deliveryId: null, receivedAt: at };

function pix(o: Partial<Extract<WebhookEvent, { kind: 'pix' }>> & { eventId: string; identifier: string }): WebhookEvent {
  // The fixture's items are of 1000 + n centavos, n the end of their identifier.
  return { kind: 'pix', pixId: `pix-${o.eventId}`, amountCents: 1000 + Number(o.identifier.slice(-12)) || 1001, endToEndId: `E2E${o.eventId}`, isRefund: false, accepted: true, transactionStatus: 'approved', reason: null, timestamp: null, raw: { o }, ...o };
}

describe('recording webhook events', () => {
  it('applies a payment once; a repeated delivery is acknowledged and changes nothing', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, at);
    const id = identifiers[0]!;
    expect(await recordWebhookEvent(ledger, pix({ eventId: 'e1', identifier: id }), meta)).toBe('stored');
    expect(await recordWebhookEvent(ledger, pix({ eventId: 'e1', identifier: id, accepted: false }), meta)).toBe('duplicate');
    const item = sqliteOf(ledger).prepare('SELECT status, pix_id, end_to_end_id FROM items WHERE identifier = ?').get(id);
    expect(item).toEqual({ status: 'paid', pix_id: 'pix-e1', end_to_end_id: 'E2Ee1' });
    expect(sqliteOf(ledger).prepare('SELECT count(*) AS n FROM webhook_events').get()).toEqual({ n: 1 });
    await ledger.close();
  });

  it('a return first seen in the item pages (no reason) is decided by its refund event, sentence or code', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, at);
    sqliteOf(ledger).prepare("UPDATE items SET status = 'returned', return_action = NULL, status_changed_at = 'then'").run();
    await recordWebhookEvent(ledger, pix({ eventId: 'r1', identifier: identifiers[0]!, isRefund: true, reason: 'Devolução por instabilidade no SPI' }), meta);
    await recordWebhookEvent(ledger, pix({ eventId: 'r2', identifier: identifiers[1]!, isRefund: true, reason: 'FR01 - fraud' }), meta);
    const rows = sqliteOf(ledger).prepare('SELECT status, reason, return_action, status_changed_at FROM items ORDER BY id').all();
    expect(rows).toEqual([
      { status: 'returned', reason: 'Devolução por instabilidade no SPI', return_action: 'reprocess', status_changed_at: 'then' },
      { status: 'returned', reason: 'FR01 - fraud', return_action: 'final', status_changed_at: 'then' },
    ]);
    await ledger.close();
  });

  it('never moves an item backwards when events arrive out of order', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, at);
    const id = identifiers[0]!;
    await recordWebhookEvent(ledger, pix({ eventId: 'refund', identifier: id, isRefund: true, pixId: 'pix-refund', reason: 'AB03 - timeout' }), meta);
    await recordWebhookEvent(ledger, pix({ eventId: 'paid', identifier: id }), meta);
    const item = sqliteOf(ledger).prepare('SELECT status, reason, return_action, pix_id, end_to_end_id FROM items WHERE identifier = ?').get(id);
    // The refund came first: returned stays; the late payment event only fills in the receipt's ids (the refund's
    // own end-to-end id is the return's, never the payment's: a receipt named after it would be no item's).
    expect(item).toEqual({ status: 'returned', reason: 'AB03 - timeout', return_action: 'reprocess', pix_id: 'pix-paid', end_to_end_id: 'E2Epaid' });
    const effects = sqliteOf(ledger).prepare('SELECT event_id, effect FROM webhook_events ORDER BY rowid').all();
    expect(effects).toEqual([
      { event_id: 'refund', effect: 'item returned (reprocess; paid again only once the provider confirms)' },
      { event_id: 'paid', effect: 'no change: item already returned (event says paid)' },
    ]);
    await ledger.close();
  });

  it('an event accepted for processing moves its item to processing, never to paid; the word decides, not the flag', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 3, at);
    const [a, b, c] = identifiers as [string, string, string];
    await recordWebhookEvent(ledger, pix({ eventId: 'a1', identifier: a, transactionStatus: 'PROCESSING', accepted: true }), meta);
    await recordWebhookEvent(ledger, pix({ eventId: 'a2', identifier: a, transactionStatus: 'CANCELED', accepted: false, reason: 'AC06' }), meta);
    await recordWebhookEvent(ledger, pix({ eventId: 'b1', identifier: b, transactionStatus: 'EM_PROCESSAMENTO', accepted: true }), meta);
    await recordWebhookEvent(ledger, pix({ eventId: 'c1', identifier: c, transactionStatus: 'whatever', accepted: true }), meta);
    const rows = sqliteOf(ledger).prepare('SELECT status FROM items ORDER BY id').all();
    expect(rows).toEqual([{ status: 'failed' }, { status: 'processing' }, { status: 'submitted' }]);
    const effects = sqliteOf(ledger).prepare('SELECT event_id, effect FROM webhook_events ORDER BY rowid').all();
    expect(effects).toEqual([
      { event_id: 'a1', effect: 'item processing' },
      { event_id: 'a2', effect: 'item failed' },
      { event_id: 'b1', effect: 'item processing' },
      { event_id: 'c1', effect: 'no change: status "whatever" (accepted true) says nothing settled' },
    ]);
    await ledger.close();
  });

  it("reads an event's status word with the profile's statusWords", async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, at);
    await recordWebhookEvent(ledger, pix({ eventId: 'x', identifier: identifiers[0]!, transactionStatus: 'OK_DONE', accepted: true }), meta, { statusWords: { ok_done: 'paid' } });
    expect(sqliteOf(ledger).prepare('SELECT status FROM items').get()).toEqual({ status: 'paid' });
    await ledger.close();
  });

  it('classifies a return for fraud as final and a rejection as failed', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, at);
    await recordWebhookEvent(ledger, pix({ eventId: 'p', identifier: identifiers[0]! }), meta);
    await recordWebhookEvent(ledger, pix({ eventId: 'r', identifier: identifiers[0]!, isRefund: true, reason: 'FR01 - fraud' }), meta);
    await recordWebhookEvent(ledger, pix({ eventId: 'f', identifier: identifiers[1]!, accepted: false, transactionStatus: 'rejected', reason: 'AC03 - invalid account' }), meta);
    const rows = sqliteOf(ledger).prepare('SELECT status, return_action, reason FROM items ORDER BY id').all();
    expect(rows).toEqual([
      { status: 'returned', return_action: 'final', reason: 'FR01 - fraud' },
      { status: 'failed', return_action: 'final', reason: 'AC03 - invalid account' },
    ]);
    await ledger.close();
  });

  it('keeps an event for an identifier it does not know, without touching anything', async () => {
    const { ledger } = await ledgerWithStartedBatch(tempDir(), 1, at);
    expect(await recordWebhookEvent(ledger, pix({ eventId: 'x', identifier: 'ffffffff-0000-4000-8000-000000000000' }), meta)).toBe('stored');
    expect(sqliteOf(ledger).prepare('SELECT effect FROM webhook_events').get()).toEqual({ effect: 'unknown identifier ffffffff-0000-4000-8000-000000000000' });
    expect(sqliteOf(ledger).prepare("SELECT count(*) AS n FROM items WHERE status = 'submitted'").get()).toEqual({ n: 1 });
    await ledger.close();
  });

  it('stores nothing when applying the event fails, so the provider delivers it again', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, at);
    const boom = () => {
      throw new Error('disk full');
    };
    const callback: WebhookEvent = { kind: 'callback', eventId: 'c1', type: 'bill_payment', category: 'bill_return', timestamp: null, title: null, detail: {}, raw: {} };
    await expect(recordWebhookEvent(ledger, callback, meta, { onCallback: boom })).rejects.toThrow('disk full');
    expect(sqliteOf(ledger).prepare('SELECT count(*) AS n FROM webhook_events').get()).toEqual({ n: 0 });
    expect(await recordWebhookEvent(ledger, pix({ eventId: 'e', identifier: identifiers[0]! }), meta)).toBe('stored');
    await ledger.close();
  });

  it('quarantines a correctly signed event whose amount disagrees with the item, and applies nothing', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, at);
    const id = identifiers[0]!;
    expect(await recordWebhookEvent(ledger, pix({ eventId: 'cheap', identifier: id, amountCents: 1 }), meta)).toBe('stored');
    expect(sqliteOf(ledger).prepare('SELECT status, pix_id FROM items').get()).toEqual({ status: 'submitted', pix_id: null });
    expect(sqliteOf(ledger).prepare('SELECT quarantine, effect FROM webhook_events').get()).toEqual({
      quarantine: 'amount 1 centavos, but the item is of 1001',
      effect: 'quarantined: amount 1 centavos, but the item is of 1001',
    });
    await ledger.close();
  });

  it('quarantines events for the items of a batch that was never started', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, at);
    sqliteOf(ledger).prepare("UPDATE batches SET status = 'submitted'").run();
    await recordWebhookEvent(ledger, pix({ eventId: 'early', identifier: identifiers[0]! }), meta);
    expect(sqliteOf(ledger).prepare('SELECT status FROM items').get()).toEqual({ status: 'submitted' });
    expect(sqliteOf(ledger).prepare('SELECT quarantine FROM webhook_events').get()).toEqual({ quarantine: "the item's batch was never started (it is submitted)" });
    await ledger.close();
  });

  it('applies an event that arrives while the batch’s start is on its way (sent, its answer not yet recorded), not once the start was refused', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, at);
    sqliteOf(ledger).prepare("UPDATE batches SET status = 'submitted'").run();
    const intent = await logIntent(ledger, 'start_batch', 'batch:1', {}, at);
    await recordWebhookEvent(ledger, pix({ eventId: 'first', identifier: identifiers[0]!, pixId: 'E-first' }), meta);
    await logOutcome(ledger, intent, 'error', { status: 422 }, at);
    await recordWebhookEvent(ledger, pix({ eventId: 'after-refusal', identifier: identifiers[1]! }), meta);
    expect(sqliteOf(ledger).prepare('SELECT status, pix_id FROM items ORDER BY id').all()).toEqual([
      { status: 'paid', pix_id: 'E-first' },
      { status: 'submitted', pix_id: null },
    ]);
    expect(sqliteOf(ledger).prepare('SELECT event_id, quarantine FROM webhook_events ORDER BY rowid').all()).toEqual([
      { event_id: 'first', quarantine: null },
      { event_id: 'after-refusal', quarantine: "the item's batch was never started (it is submitted)" },
    ]);
    await ledger.close();
  });

  it('quarantines an event paying another key than the item’s, but reads a key written back with +55 as the same', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, at);
    sqliteOf(ledger).prepare("UPDATE items SET key = '+5511987654321' WHERE identifier = ?").run(identifiers[1]);
    const withKey = (eventId: string, identifier: string, key: string) => ({ ...pix({ eventId, identifier }), raw: { payload: { to: { key } } } });
    await recordWebhookEvent(ledger, withKey('other', identifiers[0]!, 'someone-else@example.com'), meta);
    await recordWebhookEvent(ledger, withKey('same', identifiers[1]!, '11987654321'), meta);
    expect(sqliteOf(ledger).prepare('SELECT status FROM items ORDER BY id').all()).toEqual([{ status: 'submitted' }, { status: 'paid' }]);
    expect(sqliteOf(ledger).prepare('SELECT event_id, quarantine FROM webhook_events ORDER BY rowid').all()).toEqual([
      { event_id: 'other', quarantine: "the destination key differs from the item's" },
      { event_id: 'same', quarantine: null },
    ]);
    await ledger.close();
  });
});

describe('the stored payload', () => {
  it('is the body as received when the delivery gives it, else the event serialised again', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, at);
    const body = '{ "payload": {"eventId": "e1"} }';
    await recordWebhookEvent(ledger, pix({ eventId: 'e1', identifier: identifiers[0]!, raw: { payload: { eventId: 'e1' } } }), { ...meta, body });
    await recordWebhookEvent(ledger, pix({ eventId: 'e2', identifier: identifiers[1]!, raw: { payload: { eventId: 'e2' } } }), meta);
    expect(sqliteOf(ledger).prepare('SELECT event_id, payload_json FROM webhook_events ORDER BY rowid').all()).toEqual([
      { event_id: 'e1', payload_json: '{ "payload": {"eventId": "e1"} }' },
      { event_id: 'e2', payload_json: '{"payload":{"eventId":"e2"}}' },
    ]);
    await ledger.close();
  });
});

describe('recording the webhook events that arrived together', () => {
  it('stores a group with one commit; an id repeated within the group is applied once', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, at);
    const raw = sqliteOf(ledger);
    // Transactions begun outside any other are the commits; the inner ones are savepoints.
    let commits = 0;
    const counted = countingTransactions(ledger, (nested) => {
      if (!nested) commits++;
    });
    const group = [
      { event: pix({ eventId: 'a', identifier: identifiers[0]! }), meta },
      { event: pix({ eventId: 'b', identifier: identifiers[1]!, accepted: false, transactionStatus: 'rejected' }), meta },
      { event: pix({ eventId: 'a', identifier: identifiers[0]!, accepted: false }), meta },
    ];
    expect(await recordWebhookEvents(counted, group)).toEqual([
      { ok: true, outcome: 'stored' },
      { ok: true, outcome: 'stored' },
      { ok: true, outcome: 'duplicate' },
    ]);
    expect(commits).toBe(1);
    expect(raw.prepare('SELECT identifier, status FROM items ORDER BY id').all()).toEqual([
      { identifier: identifiers[0], status: 'paid' },
      { identifier: identifiers[1], status: 'failed' },
    ]);
    expect(await recordWebhookEvents(ledger, [{ event: pix({ eventId: 'b', identifier: identifiers[1]! }), meta }])).toEqual([{ ok: true, outcome: 'duplicate' }]);
    await ledger.close();
  });

  it('rolls back only the event whose effect failed; the others of its group are stored', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, at);
    const boom = () => {
      throw new Error('no handler');
    };
    const callback: WebhookEvent = { kind: 'callback', eventId: 'c1', type: 'bill_payment', category: 'bill_return', timestamp: null, title: null, detail: {}, raw: {} };
    const outcomes = await recordWebhookEvents(ledger, [{ event: callback, meta }, { event: pix({ eventId: 'e', identifier: identifiers[0]! }), meta }], { onCallback: boom });
    expect(outcomes[0]).toMatchObject({ ok: false, error: expect.objectContaining({ message: 'no handler' }) });
    expect(outcomes[1]).toEqual({ ok: true, outcome: 'stored' });
    expect(sqliteOf(ledger).prepare('SELECT event_id FROM webhook_events').all()).toEqual([{ event_id: 'e' }]);
    expect(sqliteOf(ledger).inTransaction).toBe(false);
    await ledger.close();
  });

  it('applies a group that goes through cleanly in one transaction, without a savepoint per event', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, at);
    let transactions = 0;
    const counted = countingTransactions(ledger, () => {
      transactions++;
    });
    const group = [
      { event: pix({ eventId: 'a', identifier: identifiers[0]! }), meta },
      { event: pix({ eventId: 'b', identifier: identifiers[1]! }), meta },
    ];
    expect(await recordWebhookEvents(counted, group)).toEqual([
      { ok: true, outcome: 'stored' },
      { ok: true, outcome: 'stored' },
    ]);
    expect(transactions).toBe(1);
    await ledger.close();
  });

  it('when an effect throws, the events before it in the group are applied once, as if it had not been there', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, at);
    const raw = sqliteOf(ledger);
    let calls = 0;
    const boom = () => {
      calls++;
      throw new Error('no handler');
    };
    const callback: WebhookEvent = { kind: 'callback', eventId: 'c1', type: 'bill_payment', category: 'bill_return', timestamp: null, title: null, detail: {}, raw: {} };
    const group = [
      { event: pix({ eventId: 'paid', identifier: identifiers[0]! }), meta },
      { event: callback, meta },
      { event: pix({ eventId: 'failed', identifier: identifiers[1]!, accepted: false, transactionStatus: 'rejected', reason: 'AB09 - rejected' }), meta },
    ];
    const outcomes = await recordWebhookEvents(ledger, group, { onCallback: boom });
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    // Applied a second time from the state before the group, so the first event still reads the item unpaid.
    expect(raw.prepare('SELECT event_id, effect FROM webhook_events ORDER BY rowid').all()).toEqual([
      { event_id: 'paid', effect: 'item paid' },
      { event_id: 'failed', effect: 'item failed' },
    ]);
    expect(raw.prepare('SELECT status, reason FROM items ORDER BY id').all()).toEqual([
      { status: 'paid', reason: null },
      { status: 'failed', reason: 'AB09 - rejected' },
    ]);
    expect(calls).toBe(2);
    expect(raw.inTransaction).toBe(false);
    await ledger.close();
  });

  it('stores nothing of the group when its commit fails', async () => {
    const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, at);
    const raw = sqliteOf(ledger);
    // A deferred constraint is checked at COMMIT: the commit itself fails.
    raw.exec('CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE guard (x INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)');
    raw.exec("CREATE TEMP TRIGGER poison AFTER INSERT ON webhook_events WHEN NEW.event_id = 'poison' BEGIN INSERT INTO guard VALUES (1); END");
    const group = [
      { event: pix({ eventId: 'ok', identifier: identifiers[0]! }), meta },
      { event: pix({ eventId: 'poison', identifier: 'ffffffff-0000-4000-8000-000000000000' }), meta },
    ];
    await expect(recordWebhookEvents(ledger, group)).rejects.toThrow();
    expect(raw.prepare('SELECT count(*) AS n FROM webhook_events').get()).toEqual({ n: 0 });
    expect(raw.prepare('SELECT status FROM items').get()).toEqual({ status: 'submitted' });
    await ledger.close();
  });
});
