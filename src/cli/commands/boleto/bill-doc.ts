import type { BillRow } from '../../../engine/bills/index.js';

/** The JSON of a bill row (`boleto list`, `boleto pay`): a stable contract. Loads the rules it needs lazily. */
export async function loadBillDoc() {
  const { returnPossibleUntil } = await import('../../../engine/bills/index.js');
  const returnableUntil = (b: BillRow): string | null => (b.status === 'paid' || b.status === 'scheduled' ? returnPossibleUntil(b.settle_date) : null);
  return (b: BillRow) => ({
    id: b.id,
    status: b.status,
    kind: b.kind,
    line: b.line,
    barcode: b.barcode,
    beneficiary: b.beneficiary,
    beneficiaryDocument: b.beneficiary_document,
    assignor: b.assignor,
    description: b.description,
    dueDate: b.due_date,
    amountCents: b.amount_cents,
    amountPaidCents: b.amount_paid_cents,
    /** What the payment was made of, from the provider's details when it was paid (null: not given, or paid before paybatch kept them). */
    originalCents: b.original_cents,
    discountCents: b.discount_cents,
    interestCents: b.interest_cents,
    fineCents: b.fine_cents,
    transactionId: b.transaction_id,
    remoteStatus: b.remote_status,
    settleDate: b.settle_date,
    returnableUntil: returnableUntil(b),
    returnReason: b.return_reason,
    returnMeaning: b.return_meaning,
    returnedAt: b.returned_at,
    /** The current document (`receipt` is its file): `scheduling`, `payment` or `return`; each earlier one stays in its own file. */
    document: b.document_kind,
    receipt: b.receipt_path,
    forced: b.forced === 1,
    error: b.error,
    createdAt: b.created_at,
  });
}

export type BillDoc = ReturnType<Awaited<ReturnType<typeof loadBillDoc>>>;
