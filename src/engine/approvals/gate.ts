/**
 * The approval gate: what the profile's policy demands before money moves, and the refusals (as data, worded at
 * the edge) when a batch or bill lacks them.
 */
import { approvalPolicyOf, policyActive, type ApprovalPolicy, type ApprovalReason } from '../../domain/approval-policy.js';
import { registeredApprovers, type Approvers } from '../../config/approvers.js';
import type { Profile } from '../../config/profile.js';
import { ApprovalRequiredError, ConfigError, InputRejectedError, type PaybatchError } from '../../errors.js';
import type { BatchRow } from '../../ledger/batch-repository.js';
import type { Ledger } from '../../ledger/ledger.js';
import { type ApprovalProblem, type ApprovalTarget, type ApprovalCheck, missingApprovals, approved, approvalCheckDoc } from './approval-check.js';

/** A target the gate refused, as data: what it needs, what it has, and why each recorded approval does not count. */
export interface ApprovalShortfall {
  readonly target: { readonly kind: 'batch'; readonly id: number; readonly name: string } | { readonly kind: 'bill'; readonly line: string };
  readonly required: number;
  readonly valid: number;
  readonly missing: number;
  readonly reasons: readonly ApprovalReason[];
  readonly notCounted: readonly { readonly approver: string; readonly problem: ApprovalProblem }[];
  /** False: nobody is proven to have made it, so nobody can be kept from approving their own. */
  readonly makerProven: boolean;
  readonly waitingFor: readonly string[];
}

/** Why the gate or an approval command refused, as a code and its data; the edge says it in the run's language. */
export type ApprovalRefusal =
  | { readonly code: 'reprocess_batch'; readonly batchId: number }
  | { readonly code: 'batch_not_startable'; readonly batchId: number; readonly status: string }
  | { readonly code: 'changed_while_signing'; readonly subject: string }
  | { readonly code: 'key_not_registered'; readonly fingerprint: string; readonly publicKey: string; readonly profile: string }
  | { readonly code: 'maker_cannot_approve'; readonly batchId: number }
  | { readonly code: 'already_approved'; readonly subject: string; readonly approver: string }
  | { readonly code: 'approvals_missing'; readonly profile: string; readonly approversRegistered: boolean; readonly lacking: readonly ApprovalShortfall[] };

/** The words of a refusal, bound to a language at the edge (English under `--json` and in the daemon's log). */
export type ExplainRefusal = (refusal: ApprovalRefusal) => { readonly message: string; readonly hint?: string };

/** What the gate needs from the profile: its policy and the approvers it trusts, and who words its refusals. */
export interface ApprovalGate {
  readonly policy: ApprovalPolicy;
  readonly approvers: Approvers;
  readonly profile: string;
  readonly explain: ExplainRefusal;
}

/** The gate of a profile: its approval settings and the approvers registered in its config file. */
export function approvalGate(profile: Pick<Profile, 'settings' | 'configPath' | 'name'>, explain: ExplainRefusal): ApprovalGate {
  return { policy: approvalPolicyOf(profile.settings), approvers: registeredApprovers(profile.configPath, profile.name), profile: profile.name, explain };
}

/**
 * The gate before money moves: throws an ApprovalRequiredError naming what is missing and the command that signs,
 * unless the target has every approval the policy demands. Returns the check when it passes.
 */
export async function requireApprovals(ledger: Ledger, gate: ApprovalGate, target: ApprovalTarget): Promise<ApprovalCheck> {
  const check = await missingApprovals(ledger, gate, target);
  if (!approved(check)) throw refusal(gate, [check]);
  return check;
}

/**
 * Whether a batch waits for approvals before it may start: a sheet batch not started (nor asked to start) that the
 * gate would refuse now. Content is read only under a policy.
 */
export async function awaitsApprovals(ledger: Ledger, gate: ApprovalGate, batch: BatchRow): Promise<boolean> {
  if (!policyActive(gate.policy) || batch.kind !== 'sheet' || batch.start_requested || !['draft', 'created', 'submitted'].includes(batch.status)) return false;
  return !approved(await missingApprovals(ledger, gate, { kind: 'batch', batch }));
}

/**
 * The gate before a batch starts: a sheet batch not started yet needs what the policy demands. Batches started
 * already pass (starting them again moves nothing), and so do reprocess batches, which pay again rows of a batch that
 * passed this gate when it started.
 */
export async function requireBatchApprovals(ledger: Ledger, gate: ApprovalGate, batch: BatchRow): Promise<void> {
  if (batch.kind !== 'sheet' || !['draft', 'created', 'submitted'].includes(batch.status)) return;
  await requireApprovals(ledger, gate, { kind: 'batch', batch });
}

/** The gate for several bills paid together: one refusal naming every bill that lacks approvals. */
export async function requireBillApprovals(ledger: Ledger, gate: ApprovalGate, bills: readonly Extract<ApprovalTarget, { kind: 'bill' }>[]): Promise<void> {
  const lacking: ApprovalCheck[] = [];
  for (const bill of bills) {
    const check = await missingApprovals(ledger, gate, bill);
    if (!approved(check)) lacking.push(check);
  }
  if (lacking.length) throw refusal(gate, lacking);
}

/** What a check lacks, as data. */
function shortfallOf(check: ApprovalCheck): ApprovalShortfall {
  const { target } = check;
  return {
    target: target.kind === 'batch' ? { kind: 'batch', id: target.batch.id, name: target.batch.name } : { kind: 'bill', line: target.line },
    required: check.need.required,
    valid: check.valid,
    missing: check.missing,
    reasons: check.need.reasons,
    notCounted: check.approvals.flatMap((a) => (a.problem === null ? [] : [{ approver: a.approverName, problem: a.problem }])),
    makerProven: check.makers.length > 0,
    waitingFor: check.waitingFor,
  };
}

export function refusal(gate: ApprovalGate, checks: readonly ApprovalCheck[]): ApprovalRequiredError {
  const { message, hint } = gate.explain({ code: 'approvals_missing', profile: gate.profile, approversRegistered: Object.keys(gate.approvers).length > 0, lacking: checks.map(shortfallOf) });
  return new ApprovalRequiredError(message, { subjects: checks.map(approvalCheckDoc) }, hint === undefined ? {} : { hint });
}

/**
 * The error of a refusal, worded by the gate's words: refused by the approval rules, nothing changed (exit 3, like
 * money refused for lack of approvals); a key the profile does not register is a configuration error.
 */
export function refused(gate: ApprovalGate, r: Exclude<ApprovalRefusal, { code: 'approvals_missing' }>): PaybatchError {
  const { message, hint } = gate.explain(r);
  const options = hint === undefined ? {} : { hint };
  return r.code === 'key_not_registered' ? new ConfigError(message, options) : new InputRejectedError(message, [], options);
}
