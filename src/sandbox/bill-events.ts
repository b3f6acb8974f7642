import { formatBRL } from '../domain/money.js';
import type { BillRow } from './bill-store.js';
import { serviceIdOf } from './payer.js';

/** What a bill event tells: a payment scheduled outside the bank window, a payment settled, a payment returned. */
export type BillEventKind = 'scheduled' | 'paid' | 'returned';

/** The facts of a bill event, before the dialect words them. Amount in centavos; dates YYYY-MM-DD. */
export interface BillEventFacts {
  readonly transactionId: string;
  readonly line: string;
  readonly amountCents: number;
  readonly settleDate: string;
  readonly beneficiary: string;
  /** SPEC.md's "Reason received" text, for returns. */
  readonly reason: string | null;
}

/** The words of the generic callback about bills that are the dialect's to choose (SPEC.md shows none of them). */
export interface BillEventStyle {
  readonly type: string;
  /** The category of each kind; null: the dialect does not tell that kind at all. */
  readonly category: Readonly<Record<BillEventKind, string | null>>;
  readonly title: Readonly<Record<BillEventKind, string>>;
  subtitle(kind: BillEventKind, facts: BillEventFacts): string;
  detail(kind: BillEventKind, facts: BillEventFacts): Record<string, unknown>;
  timestamp(atMs: number): string;
  readonly deviceType: string;
}

/**
 * Bill events in English words (the `paybatch` and `iso` dialects), amounts written by `amount`: a scheduled payment
 * is told only by the payment answer; the event comes when it is paid.
 */
export function englishBillEvents(amount: (cents: number) => unknown, timestamp: (atMs: number) => string, deviceType: string): BillEventStyle {
  return {
    type: 'bill_payment',
    category: { scheduled: null, paid: 'bill_paid', returned: 'bill_return' },
    title: { scheduled: 'Bill payment scheduled', paid: 'Bill paid', returned: 'Bill payment returned' },
    subtitle: (kind, f) => `${formatBRL(f.amountCents)} ${kind === 'returned' ? 'back from' : 'to'} ${f.beneficiary}`,
    detail: (kind, f) => ({
      transactionId: f.transactionId,
      typefulLine: f.line,
      amount: amount(f.amountCents),
      ...(kind === 'returned' ? { reason: f.reason } : { settleDate: f.settleDate }),
    }),
    timestamp,
    deviceType,
  };
}

/** The stored payment result of a bill, the parts events need. */
interface BillResult {
  beneficiary: string;
}

/**
 * A generic callback (SPEC.md "Event notification") about a bill payment, in the dialect's words; null when the
 * dialect does not tell this kind of event.
 */
export function billEvent(bill: BillRow, kind: BillEventKind, eventId: string, atMs: number, style: BillEventStyle): Record<string, unknown> | null {
  const category = style.category[kind];
  if (category === null) return null;
  const { beneficiary } = JSON.parse(bill.result_json) as BillResult;
  const facts: BillEventFacts = {
    transactionId: bill.transaction_id, line: bill.line, amountCents: bill.amount_paid, settleDate: bill.settle_date, beneficiary, reason: bill.return_reason,
  };
  return {
    serviceId: String(serviceIdOf(bill.account)),
    eventId,
    type: style.type,
    category,
    timestamp: style.timestamp(atMs),
    title: style.title[kind],
    subtitle: style.subtitle(kind, facts),
    detail: style.detail(kind, facts),
    deviceType: style.deviceType,
  };
}
