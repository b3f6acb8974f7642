import { describe, expect, it } from 'vitest';
import type { ItemState } from '../../src/domain/item-state.js';
import type { WebhookEvent } from '../../src/domain/webhook-event.js';
import { recordWebhookEvent } from '../../src/engine/webhooks/apply-event.js';
import { raiseAlerts } from '../../src/engine/alerts/attention.js';
import { reconcileBatch } from '../../src/engine/follow-up/reconcile.js';
import { sqliteOf, type Ledger } from '../../src/ledger/open-ledger.js';
import type { Item } from '../../src/provider/types.js';
import { destination, ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const t0 = new Date('2026-11-20T12:00:00Z');
const after = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

/** The fixture's first item (1001 centavos) as the provider's own item page shows it. */
function page(identifier: string, status: string, state: ItemState | null, extra: Partial<Item> = {}): Item {
  return { itemId: 'it-1', status, state, description: 'row 1', amountCents: 1001, identifier, to: destination, ...extra };
}

/** A correctly signed Pix event about the same item, saying whatever it says. */
function event(identifier: string, o: Partial<Extract<WebhookEvent, { kind: 'pix' }>> & { eventId: string }): WebhookEvent {
  return { kind: 'pix', pixId: `pix-${o.eventId}`, amountCents: 1001, endToEndId: null, isRefund: false, accepted: true, transactionStatus: 'approved', reason: null, timestamp: null, raw: {}, identifier, ...o };
}

const itemOf = (ledger: Ledger, identifier: string) =>
  sqliteOf(ledger).prepare('SELECT status, record_state, reason FROM items WHERE identifier = ?').get(identifier);
const batchStatus = (ledger: Ledger, id: number) => sqliteOf(ledger).prepare('SELECT status FROM batches WHERE id = ?').pluck().get(id);
const corrections = (ledger: Ledger) => sqliteOf(ledger).prepare('SELECT claimed, recorded, remote_status FROM item_corrections ORDER BY id').all();
const reading = (ledger: Ledger, at: Date, ...pages: Item[][]) =>
  ({ ledger, now: () => at, provider: { async *items() { for (const p of pages) yield p; } } });

describe("the provider's record is the truth: the ledger converges to its item pages", () => {
  it('a false "failed" event for an item still processing is undone by the page, then the page\'s "paid" settles it; one alert says so', async () => {
    const { ledger, batchId, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, t0);
    const id = identifiers[0]!;
    await reconcileBatch(reading(ledger, after(1), [page(id, 'PROCESSING', 'processing')]), batchId);
    await recordWebhookEvent(ledger, event(id, { eventId: 'lie', accepted: false, transactionStatus: 'rejected', reason: 'AB09' }), { deliveryId: null, receivedAt: after(2) });
    expect(itemOf(ledger, id)).toEqual({ status: 'failed', record_state: 'processing', reason: 'AB09' });

    await reconcileBatch(reading(ledger, after(10), [page(id, 'PROCESSING', 'processing')]), batchId);
    expect(itemOf(ledger, id)).toEqual({ status: 'processing', record_state: 'processing', reason: null });
    expect(corrections(ledger)).toEqual([{ claimed: 'failed', recorded: 'processing', remote_status: 'PROCESSING' }]);

    await reconcileBatch(reading(ledger, after(20), [page(id, 'LIQUIDATED', 'paid', { pixId: 'P1' })]), batchId);
    expect(itemOf(ledger, id)).toEqual({ status: 'paid', record_state: 'paid', reason: null });
    expect(batchStatus(ledger, batchId)).toBe('settled');

    const sent: string[] = [];
    const settings = { staleAfter: 3600, alertAfter: 7200, alertRepeat: 86_400, maxReprocess: 3, receiptWait: 3600 };
    const { alerts } = await raiseAlerts({ ledger, now: () => after(30), settings, send: async (a) => (sent.push(a.kind), []), profile: 'default', sandbox: true });
    const correction = alerts.find((a) => a.kind === 'record-disagrees');
    expect(correction?.items.map((i) => i.status)).toEqual(["an event said failed; the provider's record shows processing (PROCESSING): now paid"]);
    // Named once: the next pass raises nothing more for it.
    const again = await raiseAlerts({ ledger, now: () => after(40), settings, send: async () => [], profile: 'default', sandbox: true });
    expect(again.alerts.filter((a) => a.kind === 'record-disagrees')).toEqual([]);
    await ledger.close();
  });

  it('a "paid" event the record contradicts with a failure becomes failed: the record wins over a terminal state', async () => {
    const { ledger, batchId, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, t0);
    const id = identifiers[0]!;
    await recordWebhookEvent(ledger, event(id, { eventId: 'paid-claim' }), { deliveryId: null, receivedAt: after(1) });
    expect(itemOf(ledger, id)).toEqual({ status: 'paid', record_state: null, reason: null });
    await reconcileBatch(reading(ledger, after(10), [page(id, 'CANCELED', 'failed', { reason: 'AC06 - blocked account' })]), batchId);
    expect(itemOf(ledger, id)).toEqual({ status: 'failed', record_state: 'failed', reason: 'AC06 - blocked account' });
    expect(corrections(ledger)).toEqual([{ claimed: 'paid', recorded: 'failed', remote_status: 'CANCELED' }]);
    await ledger.close();
  });

  it('a batch settled by events alone is not settled until its pages show every item so', async () => {
    const { ledger, batchId, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, t0);
    const [a, b] = identifiers as [string, string];
    await recordWebhookEvent(ledger, event(a, { eventId: 'ea' }), { deliveryId: null, receivedAt: after(1) });
    await recordWebhookEvent(ledger, event(b, { eventId: 'eb', amountCents: 1002 }), { deliveryId: null, receivedAt: after(1) });
    // The page shows only the first paid so far: the second is still in flight in the record (a page that lags).
    await reconcileBatch(reading(ledger, after(10), [page(a, 'paid', 'paid'), { ...page(b, 'waiting', null), amountCents: 1002 }]), batchId);
    expect(batchStatus(ledger, batchId)).toBe('started');
    await reconcileBatch(reading(ledger, after(20), [page(a, 'paid', 'paid'), { ...page(b, 'paid', 'paid'), amountCents: 1002 }]), batchId);
    expect(batchStatus(ledger, batchId)).toBe('settled');
    expect(corrections(ledger)).toEqual([]);
    await ledger.close();
  });

  it('the read that settles a batch is its last word: an amount the pages show otherwise is kept and alerted once, and a second read adds nothing', async () => {
    const { ledger, batchId, identifiers } = await ledgerWithStartedBatch(tempDir(), 2, t0);
    const [a, b] = identifiers as [string, string];
    // The provider paid the second row R$ 100,02 where the ledger sent R$ 10,02; it also lists an item the ledger never sent.
    const pages = [page(a, 'paid', 'paid'), { ...page(b, 'paid', 'paid'), amountCents: 10_002 }, { ...page('ffffffff-0000-4000-8000-000000000001', 'paid', 'paid'), amountCents: 500 }];
    await reconcileBatch(reading(ledger, after(10), pages), batchId);
    expect(batchStatus(ledger, batchId)).toBe('settled');
    const differences = () => sqliteOf(ledger).prepare('SELECT identifier, field, ledger_value, provider_value FROM record_differences ORDER BY id').all();
    expect(differences()).toEqual([
      { identifier: b, field: 'amount', ledger_value: '1002', provider_value: '10002' },
      { identifier: 'ffffffff-0000-4000-8000-000000000001', field: 'presence', ledger_value: null, provider_value: 'paid' },
    ]);
    await reconcileBatch(reading(ledger, after(20), pages), batchId);
    expect(differences()).toHaveLength(2);

    const settings = { staleAfter: 3600, alertAfter: 7200, alertRepeat: 86_400, maxReprocess: 3, receiptWait: 3600 };
    const first = await raiseAlerts({ ledger, now: () => after(30), settings, send: async () => [], profile: 'default', sandbox: true });
    expect(first.alerts.find((x) => x.kind === 'record-differs')?.items.map((i) => [i.identifier, i.status])).toEqual([
      [b, "amount: the ledger has 1002; the provider's item pages show 10002"],
      ['ffffffff-0000-4000-8000-000000000001', "presence: the ledger has nothing; the provider's item pages show paid"],
    ]);
    const again = await raiseAlerts({ ledger, now: () => after(40), settings, send: async () => [], profile: 'default', sandbox: true });
    expect(again.alerts.filter((x) => x.kind === 'record-differs')).toEqual([]);
    await ledger.close();
  });

  it('an outcome only an event gave, which the pages never show, is not left provisional for ever: refreshed, then alerted like a stale item', async () => {
    const { ledger, batchId, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, t0);
    const id = identifiers[0]!;
    await recordWebhookEvent(ledger, event(id, { eventId: 'only-claim' }), { deliveryId: null, receivedAt: after(1) });
    // The provider's pages do not list the item at all.
    await reconcileBatch(reading(ledger, after(10), []), batchId);
    expect(batchStatus(ledger, batchId)).toBe('started');
    const settings = { staleAfter: 60, alertAfter: 120, alertRepeat: 86_400, maxReprocess: 3, receiptWait: 3600 };
    const soon = await raiseAlerts({ ledger, now: () => after(60), settings, send: async () => [], profile: 'default', sandbox: true });
    expect(soon.alerts.filter((a) => a.kind === 'stale-items')).toEqual([]);
    const later = await raiseAlerts({ ledger, now: () => after(600), settings, send: async () => [], profile: 'default', sandbox: true });
    const stale = later.alerts.find((a) => a.kind === 'stale-items');
    expect(stale?.items.map((i) => [i.identifier, i.status])).toEqual([[id, "paid (an event's word; the provider's item pages show nothing)"]]);
    await ledger.close();
  });

  it('news newer than the page is not undone by it: a page asked for before an event cannot show it yet', async () => {
    const { ledger, batchId, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, t0);
    const id = identifiers[0]!;
    const provider = {
      async *items() {
        await recordWebhookEvent(ledger, event(id, { eventId: 'late' }), { deliveryId: null, receivedAt: after(11) });
        yield [page(id, 'failed', 'failed')];
      },
    };
    await reconcileBatch({ ledger, provider, now: () => after(10) }, batchId);
    expect(itemOf(ledger, id)).toEqual({ status: 'paid', record_state: null, reason: null });
    expect(corrections(ledger)).toEqual([]);
    await ledger.close();
  });
});
