import { saoPauloDate, saoPauloDateTime } from '../../domain/bank-calendar.js';
import { getBatch } from '../../ledger/batch-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import { mkdir } from 'node:fs/promises';
import { batchesOwedReturnFile, recordReturnFile, remittanceOfBatch } from '../../ledger/remittance-repository.js';
import { fileNamePart, writeFreeFile } from '../../reports/output-file.js';
import { rowPaymentsOfBatch } from '../../ledger/row-payments.js';
import { layoutNamed } from '../../sheet/cnab240/layouts.js';
import { occurrencesOf, returnFile, type ReturnTitle } from '../../sheet/cnab240/return-file.js';
import { windows1252Bytes } from '../../sheet/decode-text.js';
import { rowStories, type RowStory } from '../row-stories.js';

/** A batch's return file, and how its titles ended. */
export interface BatchReturnFile {
  readonly batchId: number;
  readonly layout: string;
  readonly text: string;
  /** The file's bytes: its text in the remittance's own encoding (positions count bytes in a bank's file). */
  readonly bytes: Uint8Array;
  /** Each title's occurrence codes, in order: what the file says, to tell when a new one is owed. */
  readonly said: string;
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
  const [day, time] = saoPauloDateTime(now).split(' ');
  const text = returnFile({ layout, fileHeader: remittance.fileHeader, writtenOn: day!, writtenAt: `${time!.replace(':', '')}00`, sequence: batchId, titles });
  const bytes = remittance.encoding === 'windows-1252' ? windows1252Bytes(text) : Buffer.from(text, 'utf8');
  // The remittance was read from this encoding, so its own characters always have bytes in it.
  if (bytes === null) throw new Error('a return file holds a character its remittance could not have');
  const said = titles.map((t) => occurrencesOf(layout.returnCodes, t)).join(' ');
  return { batchId, layout: layout.id, text, bytes, said, titles: titles.length, open: titles.filter((t) => t.outcome === 'open').length };
}

/** The name (without `.ret`, as banks name theirs) of a batch's return file. */
async function returnFileBase(ledger: Ledger, batchId: number): Promise<string> {
  return `retorno-${batchId}-${fileNamePart((await getBatch(ledger, batchId)).name) || 'lote'}`;
}

/**
 * The daemon's part (the `cnabReturnDir` setting): the return file of each settled batch imported from a
 * remittance, once every title has ended (a title owed a new attempt after Pix instability is waited for), written
 * into `dir`; and a new one when what it says of a title changes (paid later by a `batch retry`), as banks send later
 * returns. Each file is named anew, so the ERP reads every one.
 */
export async function writeOwedReturnFiles(deps: { readonly ledger: Ledger; readonly now: () => Date; readonly dir: string }): Promise<{ readonly batchId: number; readonly path: string }[]> {
  const written: { batchId: number; path: string }[] = [];
  for (const owed of await batchesOwedReturnFile(deps.ledger, deps.now())) {
    const file = await batchReturnFile(deps.ledger, owed.batchId, deps.now());
    if (file === null || file.open > 0 || file.said === owed.said) continue;
    await mkdir(deps.dir, { recursive: true, mode: 0o700 });
    // Private like the receipts (names, documents, keys, amounts).
    const path = await writeFreeFile(deps.dir, await returnFileBase(deps.ledger, owed.batchId), 'ret', file.bytes);
    await recordReturnFile(deps.ledger, owed.batchId, { path, at: deps.now(), said: file.said });
    written.push({ batchId: owed.batchId, path });
  }
  return written;
}

/** The Pix reason code a failure's text starts with (AB09, MD06…), if any. */
function pixCode(reason: string | null): string | null {
  return /^([A-Z]{2}\d{2})\b/.exec(reason?.trim().toUpperCase() ?? '')?.[1] ?? null;
}
