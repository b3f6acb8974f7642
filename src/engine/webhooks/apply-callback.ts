/**
 * Generic callbacks received by the daemon, read by the callback classifier whatever words the provider uses: bill
 * events move a bill (`scheduled` → `paid`, a lost answer resolved, `paid` → `returned` with the reason received and
 * the meaning given to the client); Pix and TED callbacks and anything unknown are recorded and listed by
 * `paybatch events list`. Runs inside the transaction that stores the event, so each event is applied exactly once;
 * a repeated or late event never moves a bill backwards, and one that contradicts the bill's record is quarantined.
 */
import { classifyCallback } from '../../domain/callback-classifier.js';
import { closeOpenIntents } from '../../ledger/call-log.js';
import { billByTransaction, failedBillsOf, settledBillsOf, unresolvedBillsOf, updateBill, type BillRow } from '../../ledger/bill-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import type { AmountUnit } from '../../domain/webhook-event.js';
import type { CallbackHandler } from './apply-event.js';

type BillNews = Extract<ReturnType<typeof classifyCallback>, { kind: 'bill' }>;

/**
 * The daemon's handler of generic callbacks; a bare number amount is read in the profile's `billAmountUnit`, the
 * unit of the provider's bill answers (unset: the amount is not known).
 */
export function callbackHandler(billAmountUnit: AmountUnit | null): CallbackHandler {
  return async (ledger, event, at) => {
    const news = classifyCallback(event, billAmountUnit);
    if (news.kind === 'unknown') return { effect: `recorded; not a known kind of event (type "${event.type}", category "${event.category}")`, topic: 'unknown' };
    if (news.kind !== 'bill') return { effect: `recorded; ${news.kind} transfer event`, topic: news.kind };
    return { ...(await applyBillNews(ledger, news, event, at)), topic: 'bill' };
  };
}

async function applyBillNews(ledger: Ledger, news: BillNews, event: EventRef, at: Date): Promise<{ effect: string; quarantine?: string }> {
  const found = await findBill(ledger, news);
  if (typeof found === 'string') return { effect: found };
  if ('quarantine' in found) return { effect: `quarantined: ${found.quarantine}`, quarantine: found.quarantine };
  const quarantine = contradiction(found.bill, found.resolved, news);
  if (quarantine !== null) return { effect: `quarantined: ${quarantine}`, quarantine };
  return { effect: await moveBill(ledger, found.bill, found.resolved, news, event, at) };
}

/**
 * Why an event contradicts the bill's record, or null. Bill payments cannot be looked up through the API, so the
 * record is the provider's answer to the payment call, or what a person confirmed from the statement: an event that
 * says otherwise is kept aside and alerted, and moves nothing — least of all towards paying the bill again.
 */
function contradiction(bill: BillRow, resolved: boolean, news: BillNews): string | null {
  if (bill.status === 'failed' && news.phase !== 'failed') {
    return `says bill #${bill.id} was ${news.phase}, but the ledger holds it as not paid (${bill.error ?? 'refused'}): check the provider's statement before paying it again`;
  }
  if (!resolved && news.phase === 'failed' && (bill.status === 'paid' || bill.status === 'scheduled')) {
    return `says the payment of bill #${bill.id} failed${news.reason ? ` (${news.reason})` : ''}, but the provider answered it ${bill.status}${bill.transaction_id ? ` (transaction ${bill.transaction_id})` : ''}: check the provider's statement; pay it again with --force only if the payment is not there`;
  }
  return null;
}

type EventRef = { readonly eventId: string; readonly timestamp: string | null };

/** Moves the bill as the event says, never backwards; returns what it did. */
async function moveBill(ledger: Ledger, bill: BillRow, resolved: boolean, news: BillNews, event: EventRef, at: Date): Promise<string> {
  const learnt = resolved ? { transaction_id: news.transactionId, ...(news.amountCents === null ? {} : { amount_paid_cents: news.amountCents }) } : {};
  // A payment a kill cut short (intent without outcome) learns its outcome from the provider's event.
  const closeIntent = async () => {
    if (bill.status === 'intent') await closeOpenIntents(ledger, 'pay_bill', `bill:${bill.id}`, 'ok', { learnedFrom: 'provider event', eventId: event.eventId, transactionId: news.transactionId }, at);
  };
  switch (news.phase) {
    case 'returned': {
      if (bill.status === 'returned') return `no change: bill #${bill.id} was already returned`;
      await closeIntent();
      await updateBill(ledger, bill.id, { status: 'returned', return_reason: news.reason, return_meaning: news.meaning, returned_at: eventTime(event.timestamp, at).toISOString(), ...learnt }, at);
      return `bill #${bill.id} returned: ${news.reason === null ? 'no reason given' : `"${news.reason}"`} → ${news.meaning ?? 'a reason not in the table of return reasons'}`;
    }
    case 'paid': {
      if (bill.status === 'paid' || bill.status === 'returned') return `no change: bill #${bill.id} is already ${bill.status}`;
      await closeIntent();
      await updateBill(ledger, bill.id, { status: 'paid', ...(news.settleDate === null ? {} : { settle_date: news.settleDate }), ...learnt }, at);
      return resolved ? `bill #${bill.id} (outcome was unknown) paid: transaction ${news.transactionId ?? '?'}` : `bill #${bill.id} paid (was ${bill.status})`;
    }
    case 'scheduled': {
      if (!resolved) return `no change: bill #${bill.id} is ${bill.status}`;
      await closeIntent();
      await updateBill(ledger, bill.id, { status: 'scheduled', ...(news.settleDate === null ? {} : { settle_date: news.settleDate }), ...learnt }, at);
      return `bill #${bill.id} (outcome was unknown) scheduled: transaction ${news.transactionId ?? '?'}`;
    }
    case 'failed': {
      if (!resolved) return `no change: bill #${bill.id} is already ${bill.status}`;
      // Failed would let the bill be paid again without --force, and a webhook alone never allows paying again: the
      // bill keeps blocking, with the claim noted for the person who checks the provider's statement.
      const claim = `the provider's event ${event.eventId} says this payment failed${news.reason ? ` (${news.reason})` : ''}; if its statement agrees, pay it again with --force`;
      await updateBill(ledger, bill.id, { error: claim }, at);
      return `bill #${bill.id} (outcome unknown) reported failed; it keeps blocking until a person checks the statement`;
    }
  }
}

/**
 * The bill an event is about: by transaction id; otherwise by line and amount — first a bill whose payment outcome
 * is unknown (the event resolves it), then one already paid or scheduled whose transaction the event does not
 * contradict. A string when there is none; a quarantine when the event names another payment of a bill the ledger
 * has paid (a second payment the ledger does not know of: a person must look).
 */
async function findBill(ledger: Ledger, news: BillNews): Promise<{ bill: BillRow; resolved: boolean } | { quarantine: string } | string> {
  if (news.transactionId !== null) {
    const bill = await billByTransaction(ledger, news.transactionId);
    const paid = bill?.amount_paid_cents ?? bill?.amount_cents;
    if (bill && news.amountCents !== null && news.amountCents !== paid) {
      return { quarantine: `names transaction ${news.transactionId} of bill #${bill.id} with ${news.amountCents} centavos, but the provider's answer to its payment was ${paid} centavos` };
    }
    if (bill) return { bill, resolved: false };
  }
  if (news.line !== null) {
    const sameAmount = (b: BillRow) => news.amountCents === null || news.amountCents === (b.amount_paid_cents ?? b.amount_cents);
    const unresolved = (await unresolvedBillsOf(ledger, news.line)).find(sameAmount);
    if (unresolved) return { bill: unresolved, resolved: true };
    const settled = (await settledBillsOf(ledger, news.line)).filter(sameAmount);
    const known = settled.filter((b) => news.transactionId === null || b.transaction_id === null);
    if (known.length === 1) return { bill: known[0]!, resolved: false };
    if (known.length > 1) return `recorded; ${known.length} bills of line ${news.line} match this event and it names no transaction the ledger knows`;
    if (settled.length > 0) {
      return { quarantine: `names transaction ${news.transactionId} for line ${news.line}, which the ledger has paid as transaction ${settled.map((b) => b.transaction_id).join(', ')}: a payment the ledger does not know` };
    }
    // The record (the provider's answer to the payment, or what a person read in the statement) says nobody was
    // paid; an event saying otherwise must reach a person before anyone pays the bill again with --force.
    const refused = (await failedBillsOf(ledger, news.line)).filter(sameAmount);
    if (refused.length > 0 && news.phase !== 'failed') {
      return { quarantine: `says line ${news.line} was ${news.phase}, but the ledger holds bill #${refused.map((b) => b.id).join(', #')} as not paid (${refused[0]!.error ?? 'refused'}): check the provider's statement before paying it again` };
    }
  }
  return `recorded; no bill in the ledger with transaction ${news.transactionId ?? '(none given)'}${news.line ? ` or line ${news.line}` : ''}`;
}

/** The event's own time (Unix seconds) when it has one, else when it was received. */
function eventTime(timestamp: string | null, at: Date): Date {
  const seconds = timestamp !== null && /^\d{9,11}$/.test(timestamp.trim()) ? Number(timestamp) : null;
  return seconds === null ? at : new Date(seconds * 1000);
}
