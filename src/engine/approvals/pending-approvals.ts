/** What waits for approvals, and for whom. */
import { approvalsOf, approvedBillSubjects, batchesNotStarted, billAttempts } from '../../ledger/approval-store.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { ApprovalGate } from './gate.js';
import { checkApprovals, missingApprovals, type ApprovalCheck, type Content } from './approval-check.js';

/** What waits for approvals: each entry's check and the command that signs it. */
export interface PendingApproval {
  readonly check: ApprovalCheck;
  readonly command: string;
}

export interface PendingApprovals {
  /** Batches not started whose policy asks for approvals, oldest first (`missing` 0: approved, ready to start). */
  readonly batches: readonly PendingApproval[];
  /**
   * Bills with approvals recorded since their last payment attempt. A bill is known to the ledger only once someone
   * approves (or pays) it, and its digest needs the amount the provider gives on the day, so these are checked
   * against the digest their newest approval signed.
   */
  readonly bills: readonly PendingApproval[];
}

/** What waits for whom: batches and bills that need approvals, who signed, how many are missing. */
export async function pendingApprovals(ledger: Ledger, gate: ApprovalGate): Promise<PendingApprovals> {
  const batches: PendingApproval[] = [];
  for (const batch of await batchesNotStarted(ledger)) {
    const check = await missingApprovals(ledger, gate, { kind: 'batch', batch });
    if (check.need.required === 0) continue;
    const command = check.makers.length === 0 ? `paybatch batch claim ${batch.id}` : check.missing > 0 ? `paybatch batch approve ${batch.id}` : `paybatch batch start ${batch.id}`;
    batches.push({ check, command });
  }
  const bills: PendingApproval[] = [];
  for (const subject of await approvedBillSubjects(ledger)) {
    const line = subject.slice('bill:'.length);
    const rows = await approvalsOf(ledger, subject);
    const newest = rows.at(-1)!;
    const attempts = await billAttempts(ledger, line);
    if (attempts.lastAt !== null && attempts.lastAt >= newest.signed_at) continue;
    const target = { kind: 'bill' as const, line, amountCents: 0, dueDate: null };
    const content: Content = { subject, digest: newest.digest, figures: { totalCents: 0, largestCents: 0, rows: 1 }, need: { required: gate.policy.required, reasons: [] }, target };
    // The payer signs as the bill's maker when paying: until then, nobody is known to be excluded.
    const check = checkApprovals(rows, content, [], gate.approvers);
    bills.push({ check, command: check.missing > 0 ? `paybatch boleto approve ${line}` : `paybatch boleto pay ${line}` });
  }
  return { batches, bills };
}
