/**
 * Bill events received by the daemon (generic callbacks of type `bill_payment`): `bill_return` marks a paid bill
 * `returned` with the reason received and the meaning given to the client (SPEC.md "Return of a bill payment");
 * `bill_paid` moves a scheduled bill to `paid` when its window opens. Runs inside the transaction that stores the
 * event, so each event is applied exactly once; a repeated or late event never moves a bill backwards.
 */
import { reaisToCents } from '../domain/money.js';
import { matchBillReturnReason } from '../domain/reasons.js';
import { billByTransaction, unresolvedBillsOf, updateBill, type BillRow } from '../ledger/bill-repository.js';
import type { Ledger } from '../ledger/open-ledger.js';
import type { CallbackHandler } from './apply-event.js';

type CallbackEvent = Parameters<CallbackHandler>[1];

/** The daemon's handler of generic callbacks: bill events are applied, any other callback is only recorded. */
export const applyBillCallback: CallbackHandler = (ledger, event, at) => {
  if (event.type !== 'bill_payment') return `recorded; no handler for callbacks of type "${event.type}"`;
  if (event.category === 'bill_return') return applyBillReturn(ledger, event, at);
  if (event.category === 'bill_paid') return applyBillPaid(ledger, event, at);
  return `recorded; bill event "${event.category}" changes nothing`;
};

function applyBillReturn(ledger: Ledger, event: CallbackEvent, at: Date): string {
  const found = findBill(ledger, event);
  if (typeof found === 'string') return found;
  const { bill, resolved } = found;
  if (bill.status === 'returned') return `no change: bill #${bill.id} was already returned`;
  const reason = text(event.detail['reason']);
  const meaning = reason === null ? null : (matchBillReturnReason(reason)?.meaning ?? null);
  updateBill(
    ledger,
    bill.id,
    {
      status: 'returned',
      return_reason: reason,
      return_meaning: meaning,
      returned_at: eventTime(event, at).toISOString(),
      ...(resolved ? resolvedFields(event) : {}),
    },
    at,
  );
  return `bill #${bill.id} returned: ${reason === null ? 'no reason given' : `"${reason}"`} → ${meaning ?? 'a reason not in the table of return reasons'}`;
}

function applyBillPaid(ledger: Ledger, event: CallbackEvent, at: Date): string {
  const found = findBill(ledger, event);
  if (typeof found === 'string') return found;
  const { bill, resolved } = found;
  const settleDate = text(event.detail['settleDate']);
  if (bill.status === 'paid' || bill.status === 'returned' || bill.status === 'failed') {
    return `no change: bill #${bill.id} is already ${bill.status}`;
  }
  updateBill(ledger, bill.id, { status: 'paid', ...(settleDate === null ? {} : { settle_date: settleDate }), ...(resolved ? resolvedFields(event) : {}) }, at);
  return resolved ? `bill #${bill.id} (outcome was unknown) paid: transaction ${text(event.detail['transactionId']) ?? '?'}` : `bill #${bill.id} paid (was ${bill.status})`;
}

/**
 * The bill an event is about: by transaction id; otherwise, a bill of the same line whose payment outcome is
 * unknown and whose amount matches (the provider has just told us it went through). A string when there is none.
 */
function findBill(ledger: Ledger, event: CallbackEvent): { bill: BillRow; resolved: boolean } | string {
  const transactionId = text(event.detail['transactionId']);
  if (transactionId !== null) {
    const bill = billByTransaction(ledger, transactionId);
    if (bill) return { bill, resolved: false };
  }
  const line = text(event.detail['typefulLine'])?.replace(/\D/g, '') ?? '';
  const amount = amountCents(event.detail['amount']);
  if (transactionId !== null && line !== '') {
    const candidate = unresolvedBillsOf(ledger, line).find((b) => amount === null || amount === b.amount_cents);
    if (candidate) return { bill: candidate, resolved: true };
  }
  return `no bill in the ledger with transaction ${transactionId ?? '(none given)'}`;
}

/** What a bill whose answer was lost learns from the provider's event. */
function resolvedFields(event: CallbackEvent): { transaction_id: string | null; amount_paid_cents?: number; remote_status: string } {
  const amount = amountCents(event.detail['amount']);
  return { transaction_id: text(event.detail['transactionId']), ...(amount === null ? {} : { amount_paid_cents: amount }), remote_status: event.category };
}

function text(value: unknown): string | null {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function amountCents(value: unknown): number | null {
  if (typeof value !== 'number' && typeof value !== 'string') return null;
  const cents = reaisToCents(value);
  return cents.ok ? cents.value : null;
}

/** The event's own time (Unix seconds) when it has one, else when it was received. */
function eventTime(event: CallbackEvent, at: Date): Date {
  const seconds = event.timestamp !== null && /^\d{9,11}$/.test(event.timestamp.trim()) ? Number(event.timestamp) : null;
  return seconds === null ? at : new Date(seconds * 1000);
}
