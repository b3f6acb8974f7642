import { centsToReais, formatBRL } from '../domain/money.js';
import type { BillRow } from './bill-store.js';
import { serviceIdOf } from './payer.js';

/** The stored payment result of a bill, the parts events need. */
interface BillResult {
  beneficiary: string;
}

/**
 * A generic callback (SPEC.md "Event notification") about a bill payment, type `bill_payment`:
 * category `bill_paid` when a payment settles (at once, or when its scheduled window opens), with detail
 * {transactionId, typefulLine, amount (reais), settleDate}; category `bill_return` when the beneficiary returns it,
 * with detail {transactionId, typefulLine, amount (reais), reason (SPEC.md's "Reason received" text)}.
 */
export function billEvent(bill: BillRow, category: 'bill_paid' | 'bill_return', eventId: string, atMs: number): Record<string, unknown> {
  const { beneficiary } = JSON.parse(bill.result_json) as BillResult;
  const common = { transactionId: bill.transaction_id, typefulLine: bill.line, amount: centsToReais(bill.amount_paid) };
  return {
    serviceId: String(serviceIdOf(bill.account)),
    eventId,
    type: 'bill_payment',
    category,
    timestamp: String(Math.floor(atMs / 1000)),
    title: category === 'bill_paid' ? 'Bill paid' : 'Bill payment returned',
    subtitle: category === 'bill_paid' ? `${formatBRL(bill.amount_paid)} to ${beneficiary}` : `${formatBRL(bill.amount_paid)} back from ${beneficiary}`,
    detail: category === 'bill_paid' ? { ...common, settleDate: bill.settle_date } : { ...common, reason: bill.return_reason },
    deviceType: 'api',
  };
}
