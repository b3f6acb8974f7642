import { saoPauloDate, saoPauloDateTime } from '../../domain/bank-calendar.js';
import { getBatch } from '../../ledger/batch-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import { join } from 'node:path';
import { batchesOwedReturnFile, recordReturnFile, remittanceOfBatch } from '../../ledger/remittance-repository.js';
import { writePrivateFile } from '../../private-files.js';
import { fileNamePart } from '../../reports/output-file.js';
import { rowPaymentsOfBatch } from '../../ledger/row-payments.js';
import { layoutNamed } from '../../sheet/cnab240/layouts.js';
import { returnFile, type ReturnTitle } from '../../sheet/cnab240/return-file.js';
import { rowStories, type RowStory } from '../row-stories.js';

/** A batch's return file, and how its titles ended. */
export interface BatchReturnFile {
  readonly batchId: number;
  readonly layout: string;
  readonly text: string;
  readonly titles: number;
  /** Titles still open (not yet paid, failed or returned): the file says so (BD), and will say more later. */
  readonly open: number;
}

/**
 * The CNAB 240 return file of a batch imported from a remittance (null for a batch of a sheet), each title as its
 * row ended wherever it was paid: a row paid by a `batch retry` or a new attempt after Pix instability is paid.
 */
export async function batchReturnFile(ledger: Ledger, batchId: number, now: Date): Promise<BatchReturnFile | null> {
  const remittance = await remittanceOfBatch(ledger, batchId);
  if (remittance === null) return null;
  const layout = layoutNamed(remittance.layout);
  // Written by this version's layouts: a ledger from a newer paybatch may name one this one lacks.
  if (!layout) throw new Error(`the remittance's layout "${remittance.layout}" is not one this paybatch knows`);
  const byItem = new Map<number, RowStory>();
  for (const story of rowStories(await rowPaymentsOfBatch(ledger, batchId)).values()) for (const p of story.payments) byItem.set(p.id, story);
  const titles: ReturnTitle[] = remittance.titles.map((t) => {
    const story = byItem.get(t.itemId)!;
    const paying = story.paying;
    return {
      lot: t.lot,
      lotHeader: t.lotHeader,
      records: t.records,
      outcome: story.outcome,
      reason: story.outcome === 'paid' || story.outcome === 'open' ? null : pixCode(story.last.reason),
      paidOn: paying?.paid_at ? saoPauloDate(new Date(paying.paid_at)) : null,
      paidCents: paying?.amount_cents ?? null,
      endToEndId: paying?.end_to_end_id ?? null,
    };
  });
  const [day, time] = saoPauloDateTime(now).split(' ');
  const text = returnFile({ layout, fileHeader: remittance.fileHeader, writtenOn: day!, writtenAt: `${time!.replace(':', '')}00`, titles });
  return { batchId, layout: layout.id, text, titles: titles.length, open: titles.filter((t) => t.outcome === 'open').length };
}

/** The file a batch's return is written to: named for the batch, `.ret` as banks name theirs. */
export async function returnFileName(ledger: Ledger, batchId: number): Promise<string> {
  return `retorno-${batchId}-${fileNamePart((await getBatch(ledger, batchId)).name) || 'lote'}.ret`;
}

/**
 * The daemon's part (the `cnabReturnDir` setting): the return file of each settled batch imported from a
 * remittance, once every title has ended (a title paid again after Pix instability waits for that attempt),
 * written into `dir` and noted so it is written once.
 */
export async function writeOwedReturnFiles(deps: { readonly ledger: Ledger; readonly now: () => Date; readonly dir: string }): Promise<{ readonly batchId: number; readonly path: string }[]> {
  const written: { batchId: number; path: string }[] = [];
  for (const batchId of await batchesOwedReturnFile(deps.ledger)) {
    const file = await batchReturnFile(deps.ledger, batchId, deps.now());
    if (file === null || file.open > 0) continue;
    const path = join(deps.dir, await returnFileName(deps.ledger, batchId));
    // Private like the receipts (names, documents, keys, amounts); a second daemon writes the same file under the same name.
    await writePrivateFile(path, file.text);
    if (await recordReturnFile(deps.ledger, batchId, path, deps.now())) written.push({ batchId, path });
  }
  return written;
}

/** The Pix reason code a failure's text starts with (AB09, MD06…), if any. */
function pixCode(reason: string | null): string | null {
  return /^([A-Z]{2}\d{2})\b/.exec(reason?.trim().toUpperCase() ?? '')?.[1] ?? null;
}
