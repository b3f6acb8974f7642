/** Signing: a maker signs what they made; an approver checks, then signs, a batch's or a bill's content. */
import { approvalMessage, makerMessage } from '../../domain/approval-digest.js';
import { recordApproval, recordMakerSignature } from '../../ledger/approval-store.js';
import { getBatch } from '../../ledger/batch-repository.js';
import type { Ledger } from '../../ledger/ledger.js';
import { type ApprovalGate, refused } from './gate.js';
import { missingApprovals, contentOf, type ApprovalCheck, type ApprovalTarget } from './approval-check.js';

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
