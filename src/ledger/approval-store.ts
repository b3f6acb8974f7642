import type { Selectable } from 'kysely';
import type { Ledger } from './ledger.js';
import type { ApprovalsTable, MakerSignaturesTable } from './schema.js';

/**
 * Signed approvals (append-only: the ledger's triggers refuse UPDATE and DELETE) and the content they sign. Rows are
 * evidence to verify, not verdicts: engine/approvals/approval-check.ts checks every signature against the profile's keys.
 */
export type ApprovalRow = Selectable<ApprovalsTable>;

export interface NewApproval {
  readonly subject: string;
  readonly digest: string;
  readonly approverName: string;
  readonly publicKey: string;
  readonly signature: string;
  readonly signedFrom: string;
}

/** Appends an approval and returns its id. */
export async function recordApproval(ledger: Ledger, a: NewApproval, now: Date): Promise<number> {
  const row = await ledger.first(
    ledger.db
      .insertInto('approvals')
      .values({
        subject: a.subject,
        digest: a.digest,
        approver_name: a.approverName,
        public_key: a.publicKey,
        signature: a.signature,
        signed_at: now.toISOString(),
        signed_from: a.signedFrom,
      })
      .returning('id'),
  );
  return row!.id;
}

/** The approvals recorded for `subject`, oldest first. */
export async function approvalsOf(ledger: Ledger, subject: string): Promise<ApprovalRow[]> {
  return ledger.all(ledger.db.selectFrom('approvals').selectAll().where('subject', '=', subject).orderBy('id'));
}

/** A maker's signature of what they made: evidence verified like an approval (engine/approvals/approval-check.ts). */
export type MakerSignatureRow = Selectable<MakerSignaturesTable>;

/** Appends the maker's signature of a batch or a bill's payment. */
export async function recordMakerSignature(ledger: Ledger, m: Omit<NewApproval, 'approverName'> & { readonly makerName: string }, now: Date): Promise<void> {
  await ledger.run(
    ledger.db.insertInto('maker_signatures').values({
      subject: m.subject,
      digest: m.digest,
      maker_name: m.makerName,
      public_key: m.publicKey,
      signature: m.signature,
      signed_at: now.toISOString(),
      signed_from: m.signedFrom,
    }),
  );
}

/** The maker signatures recorded for `subject`, oldest first. */
export async function makerSignaturesOf(ledger: Ledger, subject: string): Promise<MakerSignatureRow[]> {
  return ledger.all(ledger.db.selectFrom('maker_signatures').selectAll().where('subject', '=', subject).orderBy('id'));
}

/** One payment of a batch as an approval's digest reads it (amount in centavos). */
export interface ContentRow {
  readonly identifier: string;
  readonly key: string;
  readonly sheet_document: string | null;
  readonly amount_cents: number;
  readonly destination_json: string | null;
}

/** Every item of a batch, whatever its state, as the digest needs them (the digest sorts them itself). */
export async function batchContent(ledger: Ledger, batchId: number): Promise<ContentRow[]> {
  return ledger.all(
    ledger.db.selectFrom('items').select(['identifier', 'key', 'sheet_document', 'amount_cents', 'destination_json']).where('batch_id', '=', batchId),
  );
}

/** Sheet batches not started yet (drafts, created, submitted): what may still wait for approvals. Oldest first. */
export async function batchesNotStarted(ledger: Ledger) {
  return ledger.all(
    ledger.db.selectFrom('batches').selectAll().where('kind', '=', 'sheet').where('status', 'in', ['draft', 'created', 'submitted']).orderBy('id'),
  );
}

/** Bill subjects (`bill:<line>`) with at least one approval recorded, oldest first. */
export async function approvedBillSubjects(ledger: Ledger): Promise<string[]> {
  const rows = await ledger.all(
    ledger.db.selectFrom('approvals').select('subject').select((eb) => eb.fn.min('id').as('first')).where('subject', 'like', 'bill:%').groupBy('subject').orderBy('first'),
  );
  return rows.map((r) => r.subject);
}

/** How many payments of the bill with this digit line the ledger holds, whatever their outcome, and the last one's time. */
export async function billAttempts(ledger: Ledger, line: string): Promise<{ count: number; lastAt: string | null }> {
  const row = await ledger.first(
    ledger.db
      .selectFrom('bills')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('created_at').as('last')])
      .where('line', '=', line),
  );
  return { count: Number(row?.n ?? 0), lastAt: row?.last ?? null };
}
