import { PaybatchError } from '../errors.js';
import type { Ledger } from '../ledger/open-ledger.js';
import type { ProviderClient } from '../provider/client.js';
import { looksLikePdf, writePixReceipt } from '../receipts/receipt-file.js';
import { forEachConcurrent } from './concurrency.js';
import { crashPoint } from './crash-point.js';

const RECEIPT_CONCURRENCY = 4;

export interface ReceiptsResult {
  readonly saved: readonly string[];
  readonly failed: readonly { readonly identifier: string; readonly error: string }[];
}

/**
 * Saves the receipt PDF of every paid item that has none yet (or of one batch): fetched by its pix id, checked to
 * be a PDF, written atomically, and its path recorded on the item.
 */
export async function fetchReceipts(
  deps: { ledger: Ledger; provider: Pick<ProviderClient, 'receipt'>; receiptsDir: string; now: () => Date },
  o: { batchId?: number; again?: boolean } = {},
): Promise<ReceiptsResult> {
  const { ledger } = deps;
  let q = ledger.db
    .selectFrom('items')
    .innerJoin('batches', 'batches.id', 'items.batch_id')
    .select(['items.id', 'items.identifier', 'items.pix_id', 'items.line', 'items.recipient_name', 'items.end_to_end_id', 'batches.name as batchName', 'batches.id as batchId'])
    .where('items.status', 'in', ['paid', 'returned'])
    .where('items.pix_id', 'is not', null);
  if (!o.again) q = q.where('items.receipt_path', 'is', null);
  if (o.batchId !== undefined) q = q.where('batches.id', '=', o.batchId);
  const saved: string[] = [];
  const failed: { identifier: string; error: string }[] = [];
  // A few at a time: each is a round trip to the provider, and receipts are what a finished batch waits for.
  await forEachConcurrent(ledger.all(q.orderBy('items.id')), RECEIPT_CONCURRENCY, async (it) => {
    try {
      const receipt = await deps.provider.receipt(it.pix_id!);
      if (!looksLikePdf(receipt.pdf)) throw new PaybatchError('the receipt is not a complete PDF');
      const path = await writePixReceipt(deps.receiptsDir, {
        batchName: `${it.batchName} #${it.batchId}`,
        row: it.line ?? it.id,
        recipient: it.recipient_name,
        endToEndId: it.end_to_end_id,
        pdf: receipt.pdf,
      });
      crashPoint('receipt-write');
      ledger.run(ledger.db.updateTable('items').set({ receipt_path: path }).where('id', '=', it.id));
      saved.push(path);
    } catch (e) {
      if (!(e instanceof PaybatchError)) throw e;
      failed.push({ identifier: it.identifier, error: e.message });
    }
  });
  return { saved, failed };
}
