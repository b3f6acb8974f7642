import { commitBillPayment, prepareBillPayment, type BillDeps, type OnBillOutcome, type PayBillsResult } from '../../src/engine/bills/pay-bill.js';
import type { BillRequest, PreparedBill } from '../../src/engine/bills/plan-bills.js';
import { CancelledError } from '../../src/errors.js';

/** Prepares, asks `confirm` as `boleto pay` asks the person (false cancels, as their "no"), then commits. */
export async function payBills(
  deps: BillDeps,
  requests: readonly BillRequest[],
  o: { force: boolean; skipPaid?: boolean; confirm: (bills: readonly PreparedBill[]) => Promise<boolean>; onOutcome?: OnBillOutcome },
): Promise<PayBillsResult> {
  const prepared = await prepareBillPayment(deps, { requests, force: o.force, skipPaid: o.skipPaid });
  if (prepared.kind === 'done') return prepared.result;
  if (!(await o.confirm(prepared.plan.bills))) throw new CancelledError('paid');
  return commitBillPayment(deps, prepared.plan, o.onOutcome);
}
