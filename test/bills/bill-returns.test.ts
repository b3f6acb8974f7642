import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../src/domain/webhook-event.js';
import { BILL_RETURN_REASONS } from '../../src/domain/reasons.js';
import { recordWebhookEvent } from '../../src/engine/webhooks/apply-event.js';
import { raiseAlerts } from '../../src/engine/alerts/attention.js';
import { callbackHandler } from '../../src/engine/webhooks/apply-callback.js';
import { blockingBills, getBill, insertBillIntent, updateBill } from '../../src/ledger/bill-repository.js';
import { callsOf, logIntent } from '../../src/ledger/call-log.js';
import { checkLedger } from '../../src/ledger/ledger-check.js';
import { openLedger, type Ledger } from '../../src/ledger/open-ledger.js';
import type { BillStatus } from '../../src/ledger/schema.js';
import { bankLine } from './fixtures.js';

/** Bills of a provider whose bill amounts are reais (as the embedded sandbox's). */
const applyCallback = callbackHandler('reais');

const ledgers: Ledger[] = [];
afterEach(async () => {
  for (const l of ledgers.splice(0)) await l.close();
});

const AT = new Date('2026-11-21T12:00:00Z');

async function ledgerWith(bills: { status: BillStatus; tx?: string | null; line?: string; amountCents?: number }[]) {
  const ledger = await openLedger(':memory:');
  ledgers.push(ledger);
  for (const [i, b] of bills.entries()) {
    const line = b.line ?? bankLine({ tail: String(1000 + i) });
    const id = await insertBillIntent(
      ledger,
      { barcode: `barcode-${line}`, line, kind: 'bank', description: null, beneficiary: 'Silva Comércio Ltda', beneficiaryDocument: null, assignor: null, dueDate: null, amountCents: b.amountCents ?? 15_990, forced: false },
      AT,
    );
    await updateBill(ledger, id, { status: b.status, transaction_id: b.tx === undefined ? `tx-${id}` : b.tx, settle_date: '2025-03-10' }, AT);
  }
  return ledger;
}

let eventSeq = 0;
function billEvent(category: string, detail: Record<string, unknown>, o: { eventId?: string; type?: string; timestamp?: string } = {}): WebhookEvent {
  const raw = { serviceId: '1', eventId: o.eventId ?? `ev-${++eventSeq}`, type: o.type ?? 'bill_payment', category, timestamp: o.timestamp ?? String(Date.parse('2025-03-11T13:00:00Z') / 1000), detail };
  return { kind: 'callback', eventId: raw.eventId, type: raw.type, category, timestamp: raw.timestamp, title: null, detail, raw };
}

const receive = (ledger: Ledger, event: WebhookEvent) => recordWebhookEvent(ledger, event, { deliveryId: event.eventId, receivedAt: AT }, { onCallback: applyCallback });
const effectOf = async (ledger: Ledger, eventId: string) => (await ledger.first(ledger.db.selectFrom('webhook_events').select('effect').where('event_id', '=', eventId)))?.effect;

describe('bill_return events', () => {
  it.each(BILL_RETURN_REASONS.map((r) => [r.family, r.received, r.meaning]))('%s: "%s" is stored with its meaning', async (_family, received, meaning) => {
    const ledger = await ledgerWith([{ status: 'paid' }]);
    expect(await receive(ledger, billEvent('bill_return', { transactionId: 'tx-1', amount: 159.9, reason: received }))).toBe('stored');
    expect(await getBill(ledger, 1)).toMatchObject({ status: 'returned', return_reason: received, return_meaning: meaning, returned_at: '2025-03-11T13:00:00.000Z', alerted_at: null });
  });

  it('matches reasons leniently and keeps a reason it does not know, without a meaning', async () => {
    const ledger = await ledgerWith([{ status: 'paid' }, { status: 'paid' }]);
    await receive(ledger, billEvent('bill_return', { transactionId: 'tx-1', reason: 'Ocorrência AJ – Invalid movement type' }));
    await receive(ledger, billEvent('bill_return', { transactionId: 'tx-2', reason: '99 - the moon is full' }));
    expect(await getBill(ledger, 1)).toMatchObject({ return_meaning: 'generic refusal; contact support' });
    expect(await getBill(ledger, 2)).toMatchObject({ status: 'returned', return_reason: '99 - the moon is full', return_meaning: null });
  });

  it('is idempotent: a repeated delivery is ignored and a second return changes nothing', async () => {
    const ledger = await ledgerWith([{ status: 'paid' }]);
    const first = billEvent('bill_return', { transactionId: 'tx-1', reason: 'Already paid' }, { eventId: 'same' });
    expect(await receive(ledger, first)).toBe('stored');
    expect(await receive(ledger, first)).toBe('duplicate');
    const other = billEvent('bill_return', { transactionId: 'tx-1', reason: 'Invalid barcode' });
    await receive(ledger, other);
    expect(await effectOf(ledger, other.eventId)).toBe('no change: bill #1 was already returned');
    expect(await getBill(ledger, 1)).toMatchObject({ return_reason: 'Already paid', return_meaning: 'bill already paid' });
  });

  it('raises the bill-return alert once', async () => {
    const ledger = await ledgerWith([{ status: 'paid' }, { status: 'paid' }]);
    await receive(ledger, billEvent('bill_return', { transactionId: 'tx-1', reason: '13 - payment deadline exceeded' }));
    const sent: string[] = [];
    const deps = {
      ledger, now: () => AT, profile: 'default', sandbox: true,
      settings: { staleAfter: 1800, alertAfter: 7200, alertRepeat: 86_400, maxReprocess: 3, receiptWait: 60 },
      send: async (a: { kind: string }) => (sent.push(a.kind), []),
    };
    const first = await raiseAlerts(deps);
    expect(first.alerts.map((a) => [a.kind, a.items.length])).toEqual([['bill-return', 1]]);
    expect(first.alerts[0]?.items[0]?.status).toBe('returned: 13 - payment deadline exceeded → payment deadline exceeded');
    expect((await raiseAlerts(deps)).alerts).toEqual([]);
  });

  it('names once the bills still without news: unknown for over alertAfter, or scheduled and past their settle date', async () => {
    // AT is 2026-11-21 09:00 in São Paulo; every bill below was last updated at AT.
    const ledger = await ledgerWith([{ status: 'unknown', tx: null }, { status: 'intent', tx: null }, { status: 'scheduled' }, { status: 'paid' }]);
    await updateBill(ledger, 3, { settle_date: '2026-11-20' }, AT);
    const sent: { kind: string; items: { identifier: string; status: string }[] }[] = [];
    const deps = (now: Date) => ({
      ledger, now: () => now, profile: 'default', sandbox: true,
      settings: { staleAfter: 1800, alertAfter: 7200, alertRepeat: 86_400, maxReprocess: 3, receiptWait: 60 },
      send: async (a: { kind: string; items: { identifier: string; status: string }[] }) => (sent.push(a), []),
    });
    // An hour later: only the scheduled bill, whose settle date (yesterday) has passed.
    await raiseAlerts(deps(new Date(AT.getTime() + 3_600_000)));
    expect(sent.map((a) => [a.kind, a.items.map((i) => [i.identifier, i.status])])).toEqual([['bills-without-news', [['tx-3', 'scheduled for 2026-11-20, no word of its payment']]]]);
    // Past alertAfter: the two payments whose outcome is not known; the scheduled one is not named again.
    await raiseAlerts(deps(new Date(AT.getTime() + 7_300_000)));
    expect(sent[1]?.items.map((i) => [i.identifier, i.status])).toEqual([['bill:1', 'outcome unknown'], ['bill:2', 'sent, outcome never recorded']]);
    await raiseAlerts(deps(new Date(AT.getTime() + 90_000_000)));
    expect(sent).toHaveLength(2);
  });

  it('records an event for a transaction the ledger does not have', async () => {
    const ledger = await ledgerWith([{ status: 'paid' }]);
    const e = billEvent('bill_return', { transactionId: 'tx-elsewhere', reason: 'Already paid' });
    expect(await receive(ledger, e)).toBe('stored');
    expect(await effectOf(ledger, e.eventId)).toBe('recorded; no bill in the ledger with transaction tx-elsewhere');
  });
});

describe('bill_paid events', () => {
  it('move a scheduled bill to paid with the settle date, and never move a returned one back', async () => {
    const ledger = await ledgerWith([{ status: 'scheduled' }, { status: 'returned' }]);
    await receive(ledger, billEvent('bill_paid', { transactionId: 'tx-1', settleDate: '2025-03-10' }));
    expect(await getBill(ledger, 1)).toMatchObject({ status: 'paid', settle_date: '2025-03-10' });
    const late = billEvent('bill_paid', { transactionId: 'tx-2', settleDate: '2025-03-10' });
    await receive(ledger, late);
    expect((await getBill(ledger, 2)).status).toBe('returned');
    expect(await effectOf(ledger, late.eventId)).toBe('no change: bill #2 is already returned');
  });

  it('settle a bill whose answer was lost, by its line and amount', async () => {
    const line = bankLine({ tail: '4242' });
    const ledger = await ledgerWith([{ status: 'unknown', tx: null, line, amountCents: 15_990 }]);
    const wrongAmount = billEvent('bill_paid', { transactionId: 'tx-x', typefulLine: line, amount: 100, settleDate: '2025-03-10' });
    await receive(ledger, wrongAmount);
    expect((await getBill(ledger, 1)).status).toBe('unknown');
    await receive(ledger, billEvent('bill_paid', { transactionId: 'tx-found', typefulLine: line, amount: 159.9, settleDate: '2025-03-10' }));
    expect(await getBill(ledger, 1)).toMatchObject({ status: 'paid', transaction_id: 'tx-found', amount_paid_cents: 15_990, settle_date: '2025-03-10' });
  });

  it('settle a payment a kill cut short (intent, its call open): the event writes the call\'s outcome', async () => {
    const line = bankLine({ tail: '4244' });
    const ledger = await ledgerWith([{ status: 'intent', tx: null, line, amountCents: 15_990 }]);
    await logIntent(ledger, 'pay_bill', 'bill:1', { code: line }, AT);
    expect((await checkLedger(ledger)).openCalls.map((c) => c.subject)).toEqual(['bill:1']);
    const e = billEvent('bill_paid', { transactionId: 'tx-cut', typefulLine: line, amount: 159.9, settleDate: '2025-03-10' });
    await receive(ledger, e);
    expect(await getBill(ledger, 1)).toMatchObject({ status: 'paid', transaction_id: 'tx-cut' });
    const calls = await callsOf(ledger, 'bill:1');
    expect(calls.map((c) => [c.phase, c.outcome])).toEqual([['intent', null], ['outcome', 'ok']]);
    expect(JSON.parse(calls[1]!.detail_json ?? 'null')).toEqual({ learnedFrom: 'provider event', eventId: e.eventId, transactionId: 'tx-cut' });
    expect(await checkLedger(ledger)).toMatchObject({ openCalls: [], clean: true });
  });

  it('a failure event does not unblock a bill whose outcome is unknown: a webhook alone never allows paying again', async () => {
    const line = bankLine({ tail: '4245' });
    const ledger = await ledgerWith([{ status: 'unknown', tx: null, line, amountCents: 15_990 }]);
    const e = billEvent('bill_failed', { typefulLine: line, amount: 159.9, reason: 'saldo insuficiente' });
    await receive(ledger, e);
    expect(await getBill(ledger, 1)).toMatchObject({ status: 'unknown', error: `the provider's event ${e.eventId} says this payment failed (saldo insuficiente); if its statement agrees, pay it again with --force` });
    expect((await blockingBills(ledger, (await getBill(ledger, 1)).barcode)).map((b) => b.id)).toEqual([1]);
  });

  it('an event naming another transaction for a bill the ledger has paid is quarantined, not taken as that payment', async () => {
    const line = bankLine({ tail: '4246' });
    const ledger = await ledgerWith([{ status: 'paid', tx: 'tx-ours', line, amountCents: 15_990 }]);
    const e = billEvent('bill_paid', { transactionId: 'tx-second', typefulLine: line, amount: 159.9 });
    await receive(ledger, e);
    const stored = await ledger.first(ledger.db.selectFrom('webhook_events').select(['effect', 'quarantine']).where('event_id', '=', e.eventId));
    expect(stored?.quarantine).toBe(`names transaction tx-second for line ${line}, which the ledger has paid as transaction tx-ours: a payment the ledger does not know`);
    expect(await getBill(ledger, 1)).toMatchObject({ status: 'paid', transaction_id: 'tx-ours' });
  });

  describe("an event that contradicts the bill's record is quarantined and alerted; it moves nothing", () => {
    const quarantineOf = async (ledger: Ledger, eventId: string) =>
      (await ledger.first(ledger.db.selectFrom('webhook_events').select('quarantine').where('event_id', '=', eventId)))?.quarantine;

    it('"paid" for a bill the provider refused: the bill stays failed, so nobody pays it again on the event\'s word', async () => {
      const line = bankLine({ tail: '4247' });
      const ledger = await ledgerWith([{ status: 'failed', tx: null, line, amountCents: 15_990 }]);
      await updateBill(ledger, 1, { error: 'saldo insuficiente' }, AT);
      const e = billEvent('bill_paid', { transactionId: 'tx-elsewhere', typefulLine: line, amount: 159.9 });
      await receive(ledger, e);
      expect(await quarantineOf(ledger, e.eventId)).toBe(`says line ${line} was paid, but the ledger holds bill #1 as not paid (saldo insuficiente): check the provider's statement before paying it again`);
      expect(await getBill(ledger, 1)).toMatchObject({ status: 'failed', transaction_id: null });
    });

    it('"returned" for a bill whose own transaction the ledger holds as failed', async () => {
      const ledger = await ledgerWith([{ status: 'failed', tx: 'tx-9' }]);
      const e = billEvent('bill_return', { transactionId: 'tx-9', amount: 159.9, reason: 'Already paid' });
      await receive(ledger, e);
      expect(await quarantineOf(ledger, e.eventId)).toMatch(/^says bill #1 was returned, but the ledger holds it as not paid/);
      expect(await getBill(ledger, 1)).toMatchObject({ status: 'failed', return_reason: null });
    });

    it('"failed" for a bill the provider answered paid', async () => {
      const ledger = await ledgerWith([{ status: 'paid', tx: 'tx-7' }]);
      const e = billEvent('bill_failed', { transactionId: 'tx-7', amount: 159.9, reason: 'erro' });
      await receive(ledger, e);
      expect(await quarantineOf(ledger, e.eventId)).toBe("says the payment of bill #1 failed (erro), but the provider answered it paid (transaction tx-7): check the provider's statement; pay it again with --force only if the payment is not there");
      expect(await getBill(ledger, 1)).toMatchObject({ status: 'paid', error: null });
    });

    it('an amount other than the payment the provider answered, under its transaction id', async () => {
      const ledger = await ledgerWith([{ status: 'paid', tx: 'tx-5', amountCents: 15_990 }]);
      const e = billEvent('bill_return', { transactionId: 'tx-5', amount: 1599, reason: 'Already paid' });
      await receive(ledger, e);
      expect(await quarantineOf(ledger, e.eventId)).toBe("names transaction tx-5 of bill #1 with 159900 centavos, but the provider's answer to its payment was 15990 centavos");
      expect(await getBill(ledger, 1)).toMatchObject({ status: 'paid' });
    });

    it('the quarantined-events alert names each of them once', async () => {
      const ledger = await ledgerWith([{ status: 'paid', tx: 'tx-7' }]);
      await receive(ledger, billEvent('bill_failed', { transactionId: 'tx-7', amount: 159.9 }, { eventId: 'lie-1' }));
      const kinds: string[] = [];
      const deps = {
        ledger, now: () => AT, profile: 'default', sandbox: true,
        settings: { staleAfter: 1800, alertAfter: 7200, alertRepeat: 86_400, maxReprocess: 3, receiptWait: 60 },
        send: async (a: { kind: string; items: readonly unknown[] }) => (kinds.push(`${a.kind}:${a.items.length}`), []),
      };
      await raiseAlerts(deps);
      await raiseAlerts(deps);
      expect(kinds).toEqual(['quarantined-events:1']);
    });
  });

  it('leave other callbacks alone', async () => {
    const ledger = await ledgerWith([{ status: 'paid' }]);
    const ted = billEvent('ted_out', { transactionId: 'tx-1' }, { type: 'transfer' });
    await receive(ledger, ted);
    expect(await effectOf(ledger, ted.eventId)).toBe('recorded; ted transfer event');
    expect((await getBill(ledger, 1)).status).toBe('paid');
  });
});

describe('bill events in another provider’s words', () => {
  const topicOf = async (ledger: Ledger, eventId: string) => (await ledger.first(ledger.db.selectFrom('webhook_events').select('topic').where('event_id', '=', eventId)))?.topic;

  it('a Portuguese return event, reason under `motivo`, bill found by its transaction id', async () => {
    const ledger = await ledgerWith([{ status: 'paid' }]);
    const e = billEvent('pagamento_devolvido', { idTransacao: 'tx-1', linhaDigitavel: 'x', valor: '159.90', motivo: 'Bill at a notary or protested' }, { type: 'boleto' });
    await receive(ledger, e);
    expect(await getBill(ledger, 1)).toMatchObject({ status: 'returned', return_reason: 'Bill at a notary or protested', return_meaning: 'bill protested' });
    expect(await topicOf(ledger, e.eventId)).toBe('bill');
  });

  it('a scheduled bill is paid by an event that names no transaction the ledger knows: found by line and amount', async () => {
    const line = bankLine({ tail: '4242' });
    const ledger = await ledgerWith([{ status: 'scheduled', line, tx: 'tx-own', amountCents: 15_990 }]);
    await receive(ledger, billEvent('pagamento_confirmado', { linhaDigitavel: line, valor: '159.90', dataPagamento: '2025-03-10T00:00:00' }, { type: 'boleto' }));
    expect(await getBill(ledger, 1)).toMatchObject({ status: 'paid', settle_date: '2025-03-10' });
  });

  it('the same line with another amount is not that bill', async () => {
    const line = bankLine({ tail: '4243' });
    const ledger = await ledgerWith([{ status: 'scheduled', line, tx: 'tx-own', amountCents: 15_990 }]);
    const e = billEvent('pagamento_confirmado', { linhaDigitavel: line, valor: '1.00' }, { type: 'boleto' });
    await receive(ledger, e);
    expect((await getBill(ledger, 1)).status).toBe('scheduled');
    expect(await effectOf(ledger, e.eventId)).toMatch(/^recorded; no bill in the ledger/);
  });

  it('an event of a kind nobody knows is kept with the topic unknown', async () => {
    const ledger = await ledgerWith([]);
    const e = billEvent('limite_alterado', { novoLimite: 1000 }, { type: 'conta_corrente' });
    await receive(ledger, e);
    expect(await topicOf(ledger, e.eventId)).toBe('unknown');
    expect(await effectOf(ledger, e.eventId)).toMatch(/not a known kind of event/);
  });
});
