import { basename, extname } from 'node:path';
import type { Ledger } from '../../ledger/open-ledger.js';
import { remittanceBillsOf, remittanceLinesUnbilled } from '../../ledger/remittance-bill-repository.js';
import type { BillStatus } from '../../ledger/schema.js';
import { fileNamePart } from '../../reports/output-file.js';
import { occurrencesOf, type ReturnTitle, type TitleOutcome } from '../../sheet/cnab240/return-file.js';
import { layoutOfRemittance, writtenReturn, type ReturnFileText } from './return-file-text.js';

/**
 * The return file of the bills paid from one remittance (open: intent, unknown or scheduled, said BD; and the lines a
 * `boleto pay --file` run set out to pay that have no bill yet).
 */
export interface BillsReturnFile extends ReturnFileText {
  /** The remittance as it was named to `boleto pay --file`. */
  readonly fileName: string;
}

/**
 * Sequence numbers (NSA) of bills' return files: 500000 plus the remittance's first bill id, so they never meet a
 * batch's (its own id) before 500,000 batches.
 */
const BILLS_SEQUENCE = 500_000;

const OUTCOME: Readonly<Record<BillStatus, TitleOutcome>> = {
  paid: 'paid', intent: 'open', unknown: 'open', scheduled: 'open', failed: 'failed', returned: 'returned',
};

/**
 * The CNAB 240 return file of the bills paid from the remittance whose bytes hash to `fileHash` (sha256, hex), in
 * remittance order, each title as its last payment stands; null when no bill was paid from it.
 */
export async function remittanceBillsReturnFile(ledger: Ledger, fileHash: string, now: Date): Promise<BillsReturnFile | null> {
  const bills = await remittanceBillsOf(ledger, fileHash);
  const first = bills[0];
  if (!first) return null;
  const layout = layoutOfRemittance(first.layout);
  const titles: ReturnTitle[] = bills.map((b) => ({
    lot: b.lot,
    lotHeader: b.lotHeader,
    records: b.records,
    outcome: OUTCOME[b.status],
    reason: null,
    paidOn: b.settleDate,
    paidCents: b.amountPaidCents,
    endToEndId: null,
  }));
  const sequence = BILLS_SEQUENCE + Math.min(...bills.map((b) => b.billId));
  const { text, bytes } = writtenReturn({ layout, fileHeader: first.fileHeader, encoding: first.encoding, sequence, titles }, now);
  const said = titles.map((t) => occurrencesOf(layout.returnCodes, t, true)).join(' ');
  // A line a run set out to pay and has not reached yet (it pays one bill after another) is open too.
  const open = titles.filter((t) => t.outcome === 'open').length + (await remittanceLinesUnbilled(ledger, fileHash));
  return { fileName: first.fileName, layout: layout.id, text, bytes, said, titles: titles.length, open };
}

/** The name (without `.ret`) of a remittance's bills' return file: `retorno-boletos-<the remittance's name>`. */
export function billsReturnFileBase(fileName: string): string {
  return `retorno-boletos-${fileNamePart(basename(fileName, extname(fileName))) || 'remessa'}`;
}
