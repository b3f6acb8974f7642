import { billsOwedDocument, DOCUMENT_OF_STATUS, recordBillDocument, type BillRow } from '../../ledger/bill-repository.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { BillDocumentKind } from '../../ledger/schema.js';
import type { BillDocumentData, BillDocumentWriter } from '../../receipts/bill-receipt.js';

export type { BillDocumentWriter } from '../../receipts/bill-receipt.js';

export interface BillDocumentDeps {
  readonly ledger: Ledger;
  readonly now: () => Date;
  /**
   * Writes a document where and how the edge chose: the receipts folder, the run's language (paybatch's own documents;
   * the provider's Pix receipts come as the provider writes them), SANDBOX on the embedded sandbox.
   */
  readonly documents: BillDocumentWriter;
}

/**
 * Writes the document the bill's status is owed (scheduled: the scheduling receipt; paid: the payment receipt;
 * returned: the return notice) as a file of its own, and records it as the bill's current document. Returns its
 * path, or null when the status owes none (intent, unknown, failed) or the bill moved on while it was written.
 */
export async function writeBillDocument(deps: BillDocumentDeps, bill: BillRow): Promise<string | null> {
  const kind = DOCUMENT_OF_STATUS[bill.status];
  if (kind === undefined) return null;
  const path = await deps.documents(billDocumentData(bill, kind));
  return (await recordBillDocument(deps.ledger, bill.id, { status: bill.status, kind, path }, deps.now())) ? path : null;
}

/**
 * Writes every document the ledger's bills are owed: those whose status changed after the payment's answer (a
 * scheduled bill paid, a paid one returned, an unknown outcome resolved), and those whose writing failed before.
 * A bill whose document cannot be written is reported and tried again next time.
 */
export async function writeOwedBillDocuments(deps: BillDocumentDeps): Promise<{ saved: string[]; failed: { billId: number; error: string }[] }> {
  const saved: string[] = [];
  const failed: { billId: number; error: string }[] = [];
  for (const bill of await billsOwedDocument(deps.ledger)) {
    try {
      const path = await writeBillDocument(deps, bill);
      if (path !== null) saved.push(path);
    } catch (e) {
      failed.push({ billId: bill.id, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return { saved, failed };
}

/** What a document of this kind shows of a ledger bill. */
function billDocumentData(bill: BillRow, kind: BillDocumentKind): BillDocumentData {
  return {
    kind,
    amountCents: bill.amount_paid_cents ?? bill.amount_cents,
    billAmountCents: bill.bill_amount_cents,
    originalCents: bill.original_cents,
    discountCents: bill.discount_cents,
    interestCents: bill.interest_cents,
    fineCents: bill.fine_cents,
    payer: bill.payer,
    payerDocument: bill.payer_document,
    beneficiary: bill.beneficiary,
    beneficiaryDocument: bill.beneficiary_document,
    assignor: bill.assignor,
    line: bill.line,
    barcode: bill.barcode,
    dueDate: bill.due_date,
    settleDate: bill.settle_date,
    sentAt: new Date(bill.created_at),
    providerTime: bill.provider_timestamp,
    transactionId: bill.transaction_id,
    description: bill.description,
    billId: bill.id,
    forced: bill.forced === 1,
    returnReason: bill.return_reason,
    returnMeaning: bill.return_meaning,
    returnedAt: bill.returned_at === null ? null : new Date(bill.returned_at),
  };
}
