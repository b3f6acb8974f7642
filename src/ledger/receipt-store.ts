import type { Ledger } from './ledger.js';

/** A Pix receipt the ledger knows of: the item it proves and where its file was saved. Amount in centavos. */
export interface SavedReceipt {
  readonly itemId: number;
  readonly batchId: number;
  readonly batchName: string;
  readonly line: number | null;
  readonly identifier: string;
  readonly recipient: string | null;
  readonly amountCents: number;
  readonly status: string;
  readonly endToEndId: string | null;
  readonly path: string;
}

const receiptsQuery = (ledger: Ledger) =>
  ledger.db
    .selectFrom('items')
    .innerJoin('batches', 'batches.id', 'items.batch_id')
    .select([
      'items.id as itemId', 'batches.id as batchId', 'batches.name as batchName', 'items.line as line', 'items.identifier as identifier',
      'items.recipient_name as recipient', 'items.amount_cents as amountCents', 'items.status as status', 'items.end_to_end_id as endToEndId',
      'items.receipt_path as path',
    ])
    .where('items.receipt_path', 'is not', null);

/** Receipts saved for the items of one batch, or of every batch, in batch and sheet order. */
export async function savedReceipts(ledger: Ledger, batchId?: number): Promise<SavedReceipt[]> {
  let q = receiptsQuery(ledger);
  if (batchId !== undefined) q = q.where('batches.id', '=', batchId);
  return (await ledger.all(q.orderBy('batches.id').orderBy('items.line').orderBy('items.id'))) as SavedReceipt[];
}

/**
 * The receipt of an item named by its ledger id (`12`, `#12`), its identifier or its end-to-end id; undefined when
 * no such item has a saved receipt.
 */
export async function receiptOf(ledger: Ledger, ref: string): Promise<SavedReceipt | undefined> {
  const text = ref.trim();
  const local = /^#?(\d+)$/.exec(text);
  const q = receiptsQuery(ledger).where((eb) =>
    eb.or([
      ...(local ? [eb('items.id', '=', Number(local[1]))] : []),
      eb('items.identifier', '=', text.toLowerCase()),
      eb('items.end_to_end_id', '=', text),
    ]),
  );
  return (await ledger.first(q)) as SavedReceipt | undefined;
}
