import type { Selectable } from 'kysely';
import type { Ledger } from './ledger.js';
import type { BillDocumentKind, BillStatus, BillsTable } from './schema.js';

export type BillRow = Selectable<BillsTable>;

/**
 * Statuses that block paying the same bill again without `--force`: it was paid, will be paid, may have been paid
 * (unknown), or a payment of it was being sent (intent: another run in flight, or one that stopped mid-call).
 */
export const BLOCKING_BILL_STATUSES: readonly BillStatus[] = Object.freeze(['intent', 'paid', 'scheduled', 'unknown']);

/** What the ledger knows of a bill before it is paid; amount in centavos. */
export interface NewBill {
  readonly barcode: string;
  readonly line: string;
  readonly kind: 'bank' | 'collection';
  readonly description: string | null;
  readonly beneficiary: string | null;
  readonly beneficiaryDocument: string | null;
  readonly assignor: string | null;
  readonly dueDate: string | null;
  readonly amountCents: number;
  readonly forced: boolean;
  /** What the provider's details said the payment is made of; absent: not known. */
  readonly charges?: BillCharges;
}

/** A bill's original amount, the discount taken off and the interest and fine added, in centavos (null: not given). */
export interface BillCharges {
  readonly originalCents: number | null;
  readonly discountCents: number | null;
  readonly interestCents: number | null;
  readonly fineCents: number | null;
}

/** Rows of the same bill (by barcode) whose status blocks another payment, oldest first. */
export async function blockingBills(ledger: Ledger, barcode: string): Promise<BillRow[]> {
  return ledger.all(
    ledger.db.selectFrom('bills').selectAll().where('barcode', '=', barcode).where('status', 'in', [...BLOCKING_BILL_STATUSES]).orderBy('id'),
  );
}

/** Inserts a bill with status `intent` (call inside the transaction that also logs the provider call) and returns its id. */
export async function insertBillIntent(ledger: Ledger, bill: NewBill, now: Date): Promise<number> {
  const at = now.toISOString();
  const row = await ledger.first(
    ledger.db
      .insertInto('bills')
      .values({
      barcode: bill.barcode,
      line: bill.line,
      kind: bill.kind,
      description: bill.description,
      beneficiary: bill.beneficiary,
      beneficiary_document: bill.beneficiaryDocument,
      assignor: bill.assignor,
      due_date: bill.dueDate,
      amount_cents: bill.amountCents,
      status: 'intent',
      forced: bill.forced ? 1 : 0,
      original_cents: bill.charges?.originalCents ?? null,
      discount_cents: bill.charges?.discountCents ?? null,
      interest_cents: bill.charges?.interestCents ?? null,
      fine_cents: bill.charges?.fineCents ?? null,
      created_at: at,
      updated_at: at,
    })
      .returning('id'),
  );
  return row!.id;
}

/** The fields an outcome or an event may set. */
export interface BillUpdate {
  readonly status?: BillStatus;
  readonly remote_status?: string | null;
  readonly transaction_id?: string | null;
  readonly settle_date?: string | null;
  readonly amount_paid_cents?: number | null;
  readonly result_json?: string | null;
  readonly beneficiary?: string | null;
  readonly beneficiary_document?: string | null;
  readonly assignor?: string | null;
  readonly due_date?: string | null;
  readonly return_reason?: string | null;
  readonly return_meaning?: string | null;
  readonly returned_at?: string | null;
  readonly receipt_path?: string | null;
  readonly document_kind?: BillDocumentKind | null;
  readonly payer?: string | null;
  readonly payer_document?: string | null;
  readonly bill_amount_cents?: number | null;
  readonly provider_timestamp?: string | null;
  readonly error?: string | null;
}

export async function updateBill(ledger: Ledger, id: number, changes: BillUpdate, now: Date): Promise<void> {
  await ledger.run(ledger.db.updateTable('bills').set({ ...changes, updated_at: now.toISOString() }).where('id', '=', id));
}

export async function findBill(ledger: Ledger, id: number): Promise<BillRow | undefined> {
  return ledger.first(ledger.db.selectFrom('bills').selectAll().where('id', '=', id));
}

export async function getBill(ledger: Ledger, id: number): Promise<BillRow> {
  const row = await findBill(ledger, id);
  if (!row) throw new Error(`bill ${id} is not in the ledger`);
  return row;
}

/** The bill paid with this provider transaction id (the newest when, against all odds, several share it). */
export async function billByTransaction(ledger: Ledger, transactionId: string): Promise<BillRow | undefined> {
  return ledger.first(ledger.db.selectFrom('bills').selectAll().where('transaction_id', '=', transactionId).orderBy('id', 'desc'));
}

/** Bills of this line or barcode whose outcome is not known (status `unknown` or `intent`, no transaction id), oldest first. */
export async function unresolvedBillsOf(ledger: Ledger, digits: string): Promise<BillRow[]> {
  return ledger.all(
    ledger.db
      .selectFrom('bills')
      .selectAll()
      .where((eb) => eb.or([eb('line', '=', digits), eb('barcode', '=', digits)]))
      .where('status', 'in', ['unknown', 'intent'])
      .where('transaction_id', 'is', null)
      .orderBy('id'),
  );
}

/** Bills of this line or barcode with a known payment (paid or scheduled, not yet returned), oldest first. */
export async function settledBillsOf(ledger: Ledger, digits: string): Promise<BillRow[]> {
  return billsOf(ledger, digits, ['paid', 'scheduled']);
}

/** Bills of this line or barcode whose payment the provider refused, or that a person found unpaid, oldest first. */
export async function failedBillsOf(ledger: Ledger, digits: string): Promise<BillRow[]> {
  return billsOf(ledger, digits, ['failed']);
}

async function billsOf(ledger: Ledger, digits: string, statuses: readonly BillStatus[]): Promise<BillRow[]> {
  return ledger.all(
    ledger.db
      .selectFrom('bills')
      .selectAll()
      .where((eb) => eb.or([eb('line', '=', digits), eb('barcode', '=', digits)]))
      .where('status', 'in', [...statuses])
      .orderBy('id'),
  );
}

/** Every bill of the ledger, oldest first. */
export async function allBills(ledger: Ledger): Promise<BillRow[]> {
  return ledger.all(ledger.db.selectFrom('bills').selectAll().orderBy('id'));
}

/** Bills in these statuses, newest first. */
export async function listBills(ledger: Ledger, statuses: readonly BillStatus[]): Promise<BillRow[]> {
  return ledger.all(ledger.db.selectFrom('bills').selectAll().where('status', 'in', [...statuses]).orderBy('id', 'desc'));
}

/**
 * The document a bill in each status is owed: a scheduled bill its scheduling receipt, a paid one its payment
 * receipt, a returned one its return notice (intent, unknown and failed bills none).
 */
export const DOCUMENT_OF_STATUS: Readonly<Partial<Record<BillStatus, BillDocumentKind>>> = Object.freeze({ scheduled: 'scheduling', paid: 'payment', returned: 'return' });

/** Bills whose status has no document of its kind yet, oldest first. */
export async function billsOwedDocument(ledger: Ledger): Promise<BillRow[]> {
  return ledger.all(
    ledger.db
      .selectFrom('bills')
      .selectAll()
      .where((eb) =>
        eb.or(
          Object.entries(DOCUMENT_OF_STATUS).map(([status, kind]) =>
            eb.and([eb('status', '=', status as BillStatus), eb.or([eb('document_kind', 'is', null), eb('document_kind', '!=', kind)])]),
          ),
        ),
      )
      .orderBy('id'),
  );
}

/**
 * Records a document written for a bill as its current one, if the bill is still in the status it was written for
 * (an event may have moved it meanwhile: the next document is then owed instead). True when recorded.
 */
export async function recordBillDocument(ledger: Ledger, id: number, o: { status: BillStatus; kind: BillDocumentKind; path: string }, now: Date): Promise<boolean> {
  const result = await ledger.run(
    ledger.db
      .updateTable('bills')
      .set({ receipt_path: o.path, document_kind: o.kind, updated_at: now.toISOString() })
      .where('id', '=', id)
      .where('status', '=', o.status),
  );
  return result.changes > 0;
}
