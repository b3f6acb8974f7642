import { PaybatchError } from '../../errors.js';
import { getBill, updateBill, type BillRow } from '../../ledger/bill-repository.js';
import { closeOpenIntents } from '../../ledger/call-log.js';
import type { Ledger } from '../../ledger/ledger.js';

/** What a person found in the provider's statement about a bill payment whose outcome the ledger does not know. */
export type StatementFinding = { readonly paid: true; readonly transactionId: string | null } | { readonly paid: false };

/**
 * `paybatch boleto resolve`: records what the provider's statement shows for a payment whose outcome is unknown (a
 * lost answer, a run stopped mid-call, its events lost — bill payments cannot be looked up through the API). Paid:
 * the bill is paid and blocks paying it again. Not paid: it is closed as failed, so the bill may be paid again. Either
 * way the payment call gets its outcome, and `ledger check` stops reporting it.
 */
export function resolveBill(ledger: Ledger, billId: number, finding: StatementFinding, now: Date): Promise<BillRow> {
  return ledger.transaction(async (tx) => {
    const bill = await getBill(tx, billId);
    if (bill.status !== 'intent' && bill.status !== 'unknown') {
      throw new PaybatchError(`Bill #${billId} is ${bill.status}: only a payment whose outcome is unknown (or was never recorded) is resolved by hand.`, {
        hint: 'See the bill with: paybatch boleto list --all',
        reason: { code: 'bill_not_unknown', billId, status: bill.status },
      });
    }
    const learned = { learnedFrom: "the provider's statement, as recorded by a person", at: now.toISOString() };
    if (finding.paid) {
      await updateBill(tx, billId, { status: 'paid', error: null, ...(finding.transactionId === null ? {} : { transaction_id: finding.transactionId }) }, now);
      await closeOpenIntents(tx, 'pay_bill', `bill:${billId}`, 'ok', { ...learned, transactionId: finding.transactionId }, now);
    } else {
      await updateBill(tx, billId, { status: 'failed', error: `not paid: the provider's statement shows no payment of it (recorded ${now.toISOString()})` }, now);
      await closeOpenIntents(tx, 'pay_bill', `bill:${billId}`, 'error', { ...learned, paid: false }, now);
    }
    return getBill(tx, billId);
  });
}
