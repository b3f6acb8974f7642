import { saoPauloDate } from '../../domain/bank-calendar.js';
import { getBatch } from '../../ledger/batch-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import { mkdir } from 'node:fs/promises';
import { batchesOwedReturnFile, recordReturnFile, remittanceOfBatch } from '../../ledger/remittance-repository.js';
import { fileNamePart, writeFreeFile } from '../../reports/output-file.js';
import { rowPaymentsOfBatch } from '../../ledger/row-payments.js';
import { recordBillReturnFile, remittancesOwedBillReturnFile } from '../../ledger/remittance-bill-repository.js';
import { occurrencesOf, type ReturnTitle } from '../../sheet/cnab240/return-file.js';
import { rowStories, type RowStory } from '../row-stories.js';
import { billsReturnFileBase, remittanceBillsReturnFile } from './bill-return-file.js';
import { layoutOfRemittance, writtenReturn, type ReturnFileText } from './return-file-text.js';

/** A batch's return file, and how its titles ended. */
export interface BatchReturnFile extends ReturnFileText {
  readonly batchId: number;
}

/**
 * The CNAB 240 return file of a batch imported from a remittance (null for a batch of a sheet), each title as its
 * row ended wherever it was paid: a row paid by a `batch retry` or a new attempt after Pix instability is paid.
 */
export async function batchReturnFile(ledger: Ledger, batchId: number, now: Date): Promise<BatchReturnFile | null> {
  const remittance = await remittanceOfBatch(ledger, batchId);
  if (remittance === null) return null;
  const layout = layoutOfRemittance(remittance.layout);
  const byItem = new Map<number, RowStory>();
  for (const story of rowStories(await rowPaymentsOfBatch(ledger, batchId)).values()) for (const p of story.payments) byItem.set(p.id, story);
  const titles: ReturnTitle[] = remittance.titles.map((t) => {
    const story = byItem.get(t.itemId)!;
    const paying = story.paying;
    // Left unpaid by instability, with a new attempt owed: still open, not failed.
    const outcome = story.outcome !== 'paid' && story.last.return_action === 'reprocess' ? 'open' : story.outcome;
    return {
      lot: t.lot,
      lotHeader: t.lotHeader,
      records: t.records,
      outcome,
      reason: outcome === 'paid' || outcome === 'open' ? null : pixCode(story.last.reason),
      paidOn: paying?.paid_at ? saoPauloDate(new Date(paying.paid_at)) : null,
      paidCents: paying?.amount_cents ?? null,
      endToEndId: paying?.end_to_end_id ?? null,
    };
  });
  const { text, bytes } = writtenReturn({ layout, fileHeader: remittance.fileHeader, encoding: remittance.encoding, sequence: batchId, titles }, now);
  const said = titles.map((t) => occurrencesOf(layout.returnCodes, t)).join(' ');
  return { batchId, layout: layout.id, text, bytes, said, titles: titles.length, open: titles.filter((t) => t.outcome === 'open').length };
}

/** The name (without `.ret`, as banks name theirs) of a batch's return file. */
async function returnFileBase(ledger: Ledger, batchId: number): Promise<string> {
  return `retorno-${batchId}-${fileNamePart((await getBatch(ledger, batchId)).name) || 'lote'}`;
}

/** A return file the daemon wrote: a batch's, or the bills' of a remittance (named as it was to `boleto pay --file`). */
export type WrittenReturnFile = { readonly batchId: number; readonly path: string } | { readonly remittance: string; readonly path: string };

/**
 * The daemon's part (the `cnabReturnDir` setting): the return file of each settled batch imported from a
 * remittance, once every title has ended (a title owed a new attempt after Pix instability is waited for), and of the
 * bills paid from each remittance (`boleto pay --file`), once every bill has been paid, failed or returned, written
 * into `dir`; and a new one when what it says of a title changes (paid later by a `batch retry`, a bill returned), as
 * banks send later returns. Each file is named anew, so the ERP reads every one.
 */
export async function writeOwedReturnFiles(deps: { readonly ledger: Ledger; readonly now: () => Date; readonly dir: string }): Promise<WrittenReturnFile[]> {
  const written: WrittenReturnFile[] = [];
  // Private like the receipts (names, documents, keys, amounts).
  const write = async (base: string, bytes: Uint8Array) => {
    await mkdir(deps.dir, { recursive: true, mode: 0o700 });
    return writeFreeFile(deps.dir, base, 'ret', bytes);
  };
  for (const owed of await batchesOwedReturnFile(deps.ledger, deps.now())) {
    const file = await batchReturnFile(deps.ledger, owed.batchId, deps.now());
    if (file === null || file.open > 0 || file.said === owed.said) continue;
    const path = await write(await returnFileBase(deps.ledger, owed.batchId), file.bytes);
    await recordReturnFile(deps.ledger, owed.batchId, { path, at: deps.now(), said: file.said });
    written.push({ batchId: owed.batchId, path });
  }
  for (const owed of await remittancesOwedBillReturnFile(deps.ledger, deps.now())) {
    const file = await remittanceBillsReturnFile(deps.ledger, owed.fileHash, deps.now());
    if (file === null || file.open > 0 || file.said === owed.said) continue;
    const path = await write(billsReturnFileBase(file.fileName), file.bytes);
    await recordBillReturnFile(deps.ledger, owed.fileHash, { path, at: deps.now(), said: file.said });
    written.push({ remittance: file.fileName, path });
  }
  return written;
}

/** The Pix reason code a failure's text starts with (AB09, MD06…), if any. */
function pixCode(reason: string | null): string | null {
  return /^([A-Z]{2}\d{2})\b/.exec(reason?.trim().toUpperCase() ?? '')?.[1] ?? null;
}
