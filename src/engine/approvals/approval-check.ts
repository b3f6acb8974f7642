/**
 * Maker-checker: a batch or bill the profile's policy names moves money only once enough distinct approvers signed
 * its content, none of them its maker. Signatures are verified every time against the keys the profile registers
 * (config file) and the digest recomputed from the ledger now: an edited approval row, a swapped key, or a batch
 * changed after it was signed simply does not count, and the check says why.
 */
import { approvalMessage, batchDigest, batchSubject, billDigest, billSubject, makerMessage } from '../../domain/approval-digest.js';
import { batchApprovalNeed, billApprovalNeed, type ApprovalNeed, type ApprovalPolicy, type BatchFigures } from '../../domain/approval-policy.js';
import { fingerprintOf, verifySignature } from '../../domain/approver-key.js';
import type { Approvers } from '../../config/approvers.js';
import { approvalsOf, batchContent, billAttempts, makerSignaturesOf, type ApprovalRow, type MakerSignatureRow } from '../../ledger/approval-store.js';
import type { BatchRow } from '../../ledger/batch-repository.js';
import type { Ledger } from '../../ledger/ledger.js';

/** Why a recorded approval does not count. */
export type ApprovalProblem = 'not-registered' | 'key-mismatch' | 'bad-signature' | 'content-changed' | 'maker' | 'duplicate';

/** What is approved: a batch of the ledger, or the next payment of a bill (amount in centavos). */
export type ApprovalTarget =
  | { readonly kind: 'batch'; readonly batch: BatchRow }
  | { readonly kind: 'bill'; readonly line: string; readonly amountCents: number; readonly dueDate: string | null };

/** A maker whose signature verifies: the name the profile registers their key under, and its fingerprint. */
export interface Maker {
  readonly name: string;
  readonly fingerprint: string;
}

/** The approval target of a bill `boleto pay` planned: its line, the amount it pays and its due date. */
export function billApprovalTarget(bill: {
  readonly decoded: { readonly line: string; readonly dueDate: string | null };
  readonly details: { readonly dueDate: string };
  readonly amountCents: number;
}): Extract<ApprovalTarget, { kind: 'bill' }> {
  return { kind: 'bill', line: bill.decoded.line, amountCents: bill.amountCents, dueDate: bill.details.dueDate || bill.decoded.dueDate };
}

/** One recorded approval as verified now. */
export interface CheckedApproval {
  readonly id: number;
  readonly approverName: string;
  /** Of the key stored in the row (null when that key is not even readable). */
  readonly fingerprint: string | null;
  readonly signedAt: string;
  readonly signedFrom: string;
  readonly counted: boolean;
  readonly problem: ApprovalProblem | null;
}

export interface ApprovalCheck extends Content {
  /**
   * Who made the target, by signatures that verify against the profile's keys and the content as it is now; none of
   * them counts as an approver. Empty: the maker is not proven, and what needs approvals cannot move money until a
   * person with a registered key signs as its maker.
   */
  readonly makers: readonly Maker[];
  readonly approvals: readonly CheckedApproval[];
  /** Distinct approvers whose approval counts. */
  readonly valid: number;
  readonly missing: number;
  /** Registered approvers who could still sign: not counted yet, not the maker, not who imported the batch. */
  readonly waitingFor: readonly string[];
  /**
   * Whose key imported the batch (batches.imported_by), with the name the profile registers it under (null: not
   * registered). Shown only: what counts is `makers`; but whoever imported a batch is not asked to approve it.
   */
  readonly importedBy: { readonly fingerprint: string; readonly name: string | null } | null;
}

/** Verifies every approval recorded for the target against the gate's keys and the content as it is now. */
export async function missingApprovals(ledger: Ledger, gate: { readonly policy: ApprovalPolicy; readonly approvers: Approvers }, target: ApprovalTarget): Promise<ApprovalCheck> {
  const content = await contentOf(ledger, gate.policy, target);
  const makers = provenMakers(await makerSignaturesOf(ledger, content.subject), content, gate.approvers);
  const importer = target.kind === 'batch' ? target.batch.imported_by : null;
  return checkApprovals(await approvalsOf(ledger, content.subject), content, makers, gate.approvers, importer);
}

/** True when the check lets money move: every approval the policy asks for, by others than a proven maker. */
export function approved(check: ApprovalCheck): boolean {
  return check.need.required === 0 || (check.missing === 0 && check.makers.length > 0);
}

/** The JSON of a check (`--json` of the approval commands, `batch show`, and the gate's refusal): a stable contract. */
export function approvalCheckDoc(check: ApprovalCheck) {
  return {
    subject: check.subject,
    digest: check.digest,
    required: check.need.required,
    reasons: check.need.reasons,
    valid: check.valid,
    missing: check.missing,
    makers: check.makers.map((m) => m.name),
    importedBy: check.importedBy,
    waitingFor: check.waitingFor,
    approvals: check.approvals.map((a) => ({
      id: a.id,
      approver: a.approverName,
      fingerprint: a.fingerprint,
      signedAt: a.signedAt,
      signedFrom: a.signedFrom,
      counted: a.counted,
      problem: a.problem,
    })),
  };
}

/** What is approved: a batch or a bill as the ledger holds it now, and what the policy asks of it. */
export interface Content {
  readonly target: ApprovalTarget;
  readonly subject: string;
  /** The digest of the content as the ledger holds it now. */
  readonly digest: string;
  readonly figures: BatchFigures;
  readonly need: ApprovalNeed;
}

export async function contentOf(ledger: Ledger, policy: ApprovalPolicy, target: ApprovalTarget): Promise<Content> {
  if (target.kind === 'bill') {
    const { count } = await billAttempts(ledger, target.line);
    return {
      target,
      subject: billSubject(target.line),
      digest: billDigest(target.line, target.amountCents, target.dueDate, count + 1),
      figures: { totalCents: target.amountCents, largestCents: target.amountCents, rows: 1 },
      need: billApprovalNeed(policy, target.amountCents),
    };
  }
  const rows = await batchContent(ledger, target.batch.id);
  const items = rows.map((r) => ({ identifier: r.identifier, key: r.key, document: r.sheet_document, amountCents: Number(r.amount_cents), destination: r.destination_json }));
  const figures = {
    totalCents: items.reduce((sum, it) => sum + it.amountCents, 0),
    largestCents: items.reduce((max, it) => Math.max(max, it.amountCents), 0),
    rows: items.length,
  };
  return {
    target,
    subject: batchSubject(target.batch.id),
    digest: batchDigest(target.batch.id, items),
    figures,
    need: batchApprovalNeed(policy, figures),
  };
}

/** The makers whose signatures verify against the registered keys and the content as it is now; pure. */
function provenMakers(rows: readonly MakerSignatureRow[], content: Content, approvers: Approvers): Maker[] {
  const makers = new Map<string, Maker>();
  for (const row of rows) {
    const registered = approvers[row.maker_name];
    if (registered !== row.public_key || row.digest !== content.digest) continue;
    if (!verifySignature(registered, makerMessage(content.subject, row.digest), row.signature)) continue;
    makers.set(fingerprintOf(registered), { name: row.maker_name, fingerprint: fingerprintOf(registered) });
  }
  return [...makers.values()];
}

/** Each recorded approval verified against the registered keys and the content's digest; pure. */
export function checkApprovals(rows: readonly ApprovalRow[], content: Content, makers: readonly Maker[], approvers: Approvers, importer: string | null = null): ApprovalCheck {
  const counted = new Set<string>();
  const made = new Set(makers.map((m) => m.fingerprint));
  const approvals = rows.map((row): CheckedApproval => {
    const registered = approvers[row.approver_name];
    let problem: ApprovalProblem | null = null;
    if (registered === undefined) problem = 'not-registered';
    else if (registered !== row.public_key) problem = 'key-mismatch';
    else if (!verifySignature(registered, approvalMessage(content.subject, row.digest), row.signature)) problem = 'bad-signature';
    else if (row.digest !== content.digest) problem = 'content-changed';
    else if (made.has(fingerprintOf(registered))) problem = 'maker';
    else if (counted.has(fingerprintOf(registered))) problem = 'duplicate';
    if (problem === null) counted.add(fingerprintOf(registered!));
    return {
      id: row.id,
      approverName: row.approver_name,
      fingerprint: safeFingerprint(row.public_key),
      signedAt: row.signed_at,
      signedFrom: row.signed_from,
      counted: problem === null,
      problem,
    };
  });
  const waitingFor = Object.entries(approvers)
    .filter(([, key]) => !counted.has(fingerprintOf(key)) && !made.has(fingerprintOf(key)) && fingerprintOf(key) !== importer)
    .map(([name]) => name);
  return {
    ...content,
    makers,
    approvals,
    valid: counted.size,
    missing: Math.max(0, content.need.required - counted.size),
    waitingFor,
    importedBy: importer === null ? null : { fingerprint: importer, name: Object.entries(approvers).find(([, key]) => fingerprintOf(key) === importer)?.[0] ?? null },
  };
}

function safeFingerprint(publicKey: string): string | null {
  try {
    return fingerprintOf(publicKey);
  } catch {
    return null;
  }
}
