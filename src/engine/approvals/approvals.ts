/**
 * Maker-checker: a batch or bill the profile's policy names moves money only once enough distinct approvers signed
 * its content, none of them its maker. Signatures are verified every time against the keys the profile registers
 * (config file) and the digest recomputed from the ledger now: an edited approval row, a swapped key, or a batch
 * changed after it was signed simply does not count, and the check says why.
 */
import { approvalMessage, batchDigest, batchSubject, billDigest, billSubject, makerMessage } from '../../domain/approval-digest.js';
import { approvalPolicyOf, batchApprovalNeed, policyActive, billApprovalNeed, type ApprovalNeed, type ApprovalPolicy, type ApprovalReason, type BatchFigures } from '../../domain/approval-policy.js';
import { fingerprintOf, verifySignature } from '../../domain/approver-key.js';
import { registeredApprovers, type Approvers } from '../../config/approvers.js';
import type { Profile } from '../../config/profile.js';
import { ApprovalRequiredError, ConfigError, InputRejectedError, type PaybatchError } from '../../errors.js';
import {
  approvalsOf,
  approvedBillSubjects,
  batchContent,
  batchesNotStarted,
  billAttempts,
  makerSignaturesOf,
  recordApproval,
  recordMakerSignature,
  type ApprovalRow,
  type MakerSignatureRow,
} from '../../ledger/approval-store.js';
import { getBatch, type BatchRow } from '../../ledger/batch-repository.js';
import type { Ledger } from '../../ledger/ledger.js';

/** Why a recorded approval does not count. */
export type ApprovalProblem = 'not-registered' | 'key-mismatch' | 'bad-signature' | 'content-changed' | 'maker' | 'duplicate';

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
export async function missingApprovals(ledger: Ledger, gate: ApprovalGate, target: ApprovalTarget): Promise<ApprovalCheck> {
  const content = await contentOf(ledger, gate.policy, target);
  const makers = provenMakers(await makerSignaturesOf(ledger, content.subject), content, gate.approvers);
  const importer = target.kind === 'batch' ? target.batch.imported_by : null;
  return checkApprovals(await approvalsOf(ledger, content.subject), content, makers, gate.approvers, importer);
}

/** True when the check lets money move: every approval the policy asks for, by others than a proven maker. */
export function approved(check: ApprovalCheck): boolean {
  return check.need.required === 0 || (check.missing === 0 && check.makers.length > 0);
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

/** An approver's key, opened (config/approver-key.ts). */
export interface Signer {
  readonly publicKey: string;
  readonly fingerprint: string;
  sign(message: Buffer): string;
}

export interface ApproveDeps {
  readonly ledger: Ledger;
  readonly gate: ApprovalGate;
  readonly now: () => Date;
  /** user@host of this process: shown beside a signature, never an identity. */
  readonly signedFrom: string;
}

/** The key a maker signs what they make with (opened by the CLI under an approval policy), and where from. */
export interface MakerKey {
  readonly signer: Signer;
  /** user@host of this process: shown, never an identity. */
  readonly signedFrom: string;
}

/** The maker signs each of these batches of theirs (an import's parts, a retry), so that they can never approve them. */
export async function signBatchesAsMaker(ledger: Ledger, gate: ApprovalGate, now: () => Date, maker: MakerKey, batchIds: readonly number[]): Promise<void> {
  const deps = { ledger, gate, now, signedFrom: maker.signedFrom };
  for (const id of batchIds) await signAsMaker(deps, { kind: 'batch', batch: await getBatch(ledger, id) }, maker.signer);
}

/** An approval checked and ready to sign: the summary shown before the person confirms. */
export interface PreparedApproval {
  readonly approverName: string;
  readonly check: ApprovalCheck;
}

/**
 * Checks that `signer` may approve batch `batchId` as it is now: the batch is not started, the key is registered in
 * the profile, the signer is not its maker, and has not approved this content already. Nothing is written.
 */
export async function prepareBatchApproval(deps: ApproveDeps, batchId: number, signer: Pick<Signer, 'publicKey' | 'fingerprint'>): Promise<PreparedApproval> {
  return prepare(deps, await startableBatch(deps, batchId), signer);
}

/**
 * Records `signer` as the maker of what they made (an import's or a retry's batch, a bill they pay): their signature
 * of its content, verified like an approval from then on, so that their own approval never counts. The key must be
 * registered in the profile. Nothing is signed twice for the same content.
 */
export async function signAsMaker(deps: ApproveDeps, target: ApprovalTarget, signer: Signer): Promise<ApprovalCheck> {
  const { ledger, gate } = deps;
  const name = registeredName(gate, signer);
  const check = await missingApprovals(ledger, gate, target);
  if (!check.makers.some((m) => m.fingerprint === signer.fingerprint)) {
    const signature = signer.sign(makerMessage(check.subject, check.digest));
    await recordMakerSignature(ledger, { subject: check.subject, digest: check.digest, makerName: name, publicKey: signer.publicKey, signature, signedFrom: deps.signedFrom }, deps.now());
  }
  return missingApprovals(ledger, gate, target);
}

/**
 * `paybatch batch claim`: a person with a registered key signs as the maker of a batch whose maker is not proven (made
 * before makers signed, or its signature erased or edited), so that it can be approved by others and started. The
 * claimant can then never approve it.
 */
export async function claimBatch(deps: ApproveDeps, batchId: number, signer: Signer): Promise<ApprovalCheck> {
  return signAsMaker(deps, await startableBatch(deps, batchId), signer);
}

async function startableBatch(deps: ApproveDeps, batchId: number): Promise<Extract<ApprovalTarget, { kind: 'batch' }>> {
  const batch = await getBatch(deps.ledger, batchId);
  if (batch.kind !== 'sheet') throw refused(deps.gate, { code: 'reprocess_batch', batchId: batch.id });
  if (!['draft', 'created', 'submitted'].includes(batch.status)) throw refused(deps.gate, { code: 'batch_not_startable', batchId: batch.id, status: batch.status });
  return { kind: 'batch', batch };
}

/** Checks that `signer` may approve the next payment of a bill (its line, amount and due date, as `boleto pay` plans it). */
export async function prepareBillApproval(deps: ApproveDeps, bill: Extract<ApprovalTarget, { kind: 'bill' }>, signer: Pick<Signer, 'publicKey' | 'fingerprint'>): Promise<PreparedApproval> {
  return prepare(deps, bill, signer);
}

/**
 * Signs and records a prepared approval. The content is read again in the transaction that records it: when it
 * changed since it was shown, nothing is signed. Returns the target's check afterwards.
 */
export async function signApproval(deps: ApproveDeps, prepared: PreparedApproval, signer: Signer): Promise<ApprovalCheck> {
  const { ledger, gate } = deps;
  const { subject, digest } = prepared.check;
  await ledger.transaction(async (tx) => {
    const target = prepared.check.target.kind === 'batch' ? { kind: 'batch' as const, batch: await getBatch(tx, prepared.check.target.batch.id) } : prepared.check.target;
    const now = await contentOf(tx, gate.policy, target);
    if (now.digest !== digest) throw refused(gate, { code: 'changed_while_signing', subject });
    const signature = signer.sign(approvalMessage(subject, digest));
    await recordApproval(tx, { subject, digest, approverName: prepared.approverName, publicKey: signer.publicKey, signature, signedFrom: deps.signedFrom }, deps.now());
  });
  const target = prepared.check.target.kind === 'batch' ? { kind: 'batch' as const, batch: await getBatch(ledger, prepared.check.target.batch.id) } : prepared.check.target;
  return missingApprovals(ledger, gate, target);
}

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
interface Content {
  readonly target: ApprovalTarget;
  readonly subject: string;
  /** The digest of the content as the ledger holds it now. */
  readonly digest: string;
  readonly figures: BatchFigures;
  readonly need: ApprovalNeed;
}

async function contentOf(ledger: Ledger, policy: ApprovalPolicy, target: ApprovalTarget): Promise<Content> {
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
function checkApprovals(rows: readonly ApprovalRow[], content: Content, makers: readonly Maker[], approvers: Approvers, importer: string | null = null): ApprovalCheck {
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

async function prepare(deps: ApproveDeps, target: ApprovalTarget, signer: Pick<Signer, 'publicKey' | 'fingerprint'>): Promise<PreparedApproval> {
  const { gate } = deps;
  const approverName = registeredName(gate, signer);
  const check = await missingApprovals(deps.ledger, gate, target);
  if (target.kind === 'batch' && check.makers.some((m) => m.fingerprint === signer.fingerprint)) throw refused(gate, { code: 'maker_cannot_approve', batchId: target.batch.id });
  if (check.approvals.some((a) => a.counted && a.fingerprint === signer.fingerprint)) throw refused(gate, { code: 'already_approved', subject: check.subject, approver: approverName });
  return { approverName, check };
}

/** The name the profile registers `signer`'s key under; refused naming the command that registers it. */
function registeredName(gate: ApprovalGate, signer: Pick<Signer, 'publicKey' | 'fingerprint'>): string {
  const name = Object.entries(gate.approvers).find(([, key]) => key === signer.publicKey)?.[0];
  if (name === undefined) throw refused(gate, { code: 'key_not_registered', fingerprint: signer.fingerprint, publicKey: signer.publicKey, profile: gate.profile });
  return name;
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

function refusal(gate: ApprovalGate, checks: readonly ApprovalCheck[]): ApprovalRequiredError {
  const { message, hint } = gate.explain({ code: 'approvals_missing', profile: gate.profile, approversRegistered: Object.keys(gate.approvers).length > 0, lacking: checks.map(shortfallOf) });
  return new ApprovalRequiredError(message, { subjects: checks.map(approvalCheckDoc) }, hint === undefined ? {} : { hint });
}

/**
 * The error of a refusal, worded by the gate's words: refused by the approval rules, nothing changed (exit 3, like
 * money refused for lack of approvals); a key the profile does not register is a configuration error.
 */
function refused(gate: ApprovalGate, r: Exclude<ApprovalRefusal, { code: 'approvals_missing' }>): PaybatchError {
  const { message, hint } = gate.explain(r);
  const options = hint === undefined ? {} : { hint };
  return r.code === 'key_not_registered' ? new ConfigError(message, options) : new InputRejectedError(message, [], options);
}

function safeFingerprint(publicKey: string): string | null {
  try {
    return fingerprintOf(publicKey);
  } catch {
    return null;
  }
}
