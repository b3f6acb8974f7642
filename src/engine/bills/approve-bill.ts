import { BillsRefusedError, prepareBills, type BillDeps } from './pay-bill.js';
import type { BillRequest, PreparedBill } from './plan-bills.js';

/**
 * The bill `boleto approve` shows and signs: planned exactly as `boleto pay` plans it (offline checks, the
 * provider's details, the amount rules), so the amount and due date approved are the ones the payment will carry.
 * The ledger's earlier payments do not refuse it here (`boleto pay` still does, unless --force).
 */
export async function billToApprove(deps: Pick<BillDeps, 'ledger' | 'provider' | 'now'>, request: BillRequest): Promise<PreparedBill> {
  const [decision] = await prepareBills(deps, [request], { force: true });
  if (decision!.action === 'refuse') throw new BillsRefusedError([{ request, reasons: decision!.reasons }], 'checking');
  if (decision!.action !== 'pay') throw new Error('a bill planned with force is never skipped');
  return decision!.bill;
}
