import { insertRuns } from './chunks.js';
import type { Ledger } from './ledger.js';

/** Titles per INSERT: 8 columns each, well under either database's limit on bound values. */
const TITLES_PER_INSERT = 512;

/** A remittance's titles as an import writes them: each under the identifier of the item paying it. */
export interface RemittanceRecord {
  readonly layout: string;
  readonly fileHeader: string;
  readonly companyDocument: string;
  /** The remittance's text encoding, which its return file is written in. */
  readonly encoding: 'utf-8' | 'windows-1252';
  readonly titles: readonly RemittanceTitleRecord[];
}

export interface RemittanceTitleRecord {
  readonly identifier: string;
  readonly line: number;
  readonly lot: number;
  readonly lotHeader: string;
  /** The title's records as read, in order. */
  readonly records: readonly string[];
  readonly yourNumber: string;
  readonly paymentDate: string;
}

/**
 * Writes an import's remittance and the titles among `written` (the identifiers of the items the import wrote): a
 * title rejected by the import has no item, and a later remittance may send it again under the same identifier.
 * Called inside the import's transaction.
 */
export async function recordRemittance(tx: Ledger, importId: number, r: RemittanceRecord, written: ReadonlySet<string>): Promise<void> {
  await tx.run(tx.db.insertInto('remittances').values({ import_id: importId, layout: r.layout, file_header: r.fileHeader, company_document: r.companyDocument, encoding: r.encoding }));
  const rows = r.titles
    .filter((t) => written.has(t.identifier))
    .map((t) => ({
      identifier: t.identifier, import_id: importId, line: t.line, lot: t.lot, lot_header: t.lotHeader,
      records: t.records.join('\n'), your_number: t.yourNumber, payment_date: t.paymentDate,
    }));
  // A few hundred titles per INSERT, as an import writes its items.
  for (const run of insertRuns(rows, TITLES_PER_INSERT)) await tx.run(tx.db.insertInto('remittance_titles').values(run));
}

/** A title of a remittance beside the item that pays it. */
export interface RemittanceTitleOfBatch extends RemittanceTitleRecord {
  readonly itemId: number;
}

/** The remittance a batch's items were imported from, with the titles they pay in remittance order; null if none. */
export async function remittanceOfBatch(ledger: Ledger, batchId: number): Promise<(Omit<RemittanceRecord, 'titles'> & { titles: RemittanceTitleOfBatch[] }) | null> {
  const rows = await ledger.all(
    ledger.db
      .selectFrom('remittance_titles as t')
      .innerJoin('items as i', 'i.identifier', 't.identifier')
      .innerJoin('remittances as r', 'r.import_id', 't.import_id')
      .select(['i.id as itemId', 't.identifier', 't.line', 't.lot', 't.lot_header', 't.records', 't.your_number', 't.payment_date', 'r.layout', 'r.file_header', 'r.company_document', 'r.encoding'])
      .where('i.batch_id', '=', batchId)
      .orderBy('t.line'),
  );
  const first = rows[0];
  if (!first) return null;
  return {
    layout: first.layout,
    fileHeader: first.file_header,
    companyDocument: first.company_document,
    encoding: first.encoding,
    titles: rows.map((t) => ({
      itemId: Number(t.itemId), identifier: t.identifier, line: Number(t.line), lot: Number(t.lot), lotHeader: t.lot_header,
      records: t.records.split('\n'), yourNumber: t.your_number, paymentDate: t.payment_date,
    })),
  };
}

/** How long after its last return file titles are still watched for a change (a retry, a late return). */
const WATCH_DAYS = 30;

/**
 * Whether a return file may be owed, for a batch's titles or a remittance's bills alike: none written yet, or the last
 * one recent (WATCH_DAYS) and something of the ledger changed since (`lastChange`, the newest `updated_at`).
 */
export function mayOweReturnFile(writtenAt: string | null, lastChange: unknown, now: Date): boolean {
  if (writtenAt === null) return true;
  return writtenAt >= new Date(now.getTime() - WATCH_DAYS * 86_400_000).toISOString() && String(lastChange ?? '') > writtenAt;
}

/**
 * Settled batches imported from a remittance that may owe a return file, oldest first: those without one, and those
 * whose last one is recent (WATCH_DAYS) when any item of the ledger changed since it was written. With what it said.
 */
export async function batchesOwedReturnFile(ledger: Ledger, now: Date): Promise<{ batchId: number; said: string | null }[]> {
  const lastChange = await ledger.first(ledger.db.selectFrom('items').select((eb) => eb.fn.max('updated_at').as('at')));
  const rows = await ledger.all(
    ledger.db
      .selectFrom('batches as b')
      .leftJoin('return_files as f', 'f.batch_id', 'b.id')
      .select(['b.id', 'f.said', 'f.written_at'])
      .where('b.status', '=', 'settled')
      .where((eb) => eb.exists(eb.selectFrom('items as i').innerJoin('remittance_titles as t', 't.identifier', 'i.identifier').select('i.id').whereRef('i.batch_id', '=', 'b.id')))
      .orderBy('b.id'),
  );
  return rows.filter((r) => mayOweReturnFile(r.written_at, lastChange?.at, now)).map((r) => ({ batchId: Number(r.id), said: r.said ?? null }));
}

/** Notes the return file written for a batch and what it said of its titles. */
export async function recordReturnFile(ledger: Ledger, batchId: number, o: { path: string; at: Date; said: string }): Promise<void> {
  const row = { path: o.path, written_at: o.at.toISOString(), said: o.said };
  await ledger.run(ledger.db.insertInto('return_files').values({ batch_id: batchId, ...row }).onConflict((oc) => oc.column('batch_id').doUpdateSet(row)));
}

/** The payment date of each batch imported from a remittance (its titles share it: an import cuts its parts by date). */
export async function remittanceDatesOf(ledger: Ledger, batchIds: readonly number[]): Promise<Map<number, string>> {
  if (batchIds.length === 0) return new Map();
  const rows = await ledger.all(
    ledger.db
      .selectFrom('items as i')
      .innerJoin('remittance_titles as t', 't.identifier', 'i.identifier')
      .select(['i.batch_id', (eb) => eb.fn.max('t.payment_date').as('date')])
      .where('i.batch_id', 'in', batchIds)
      .groupBy('i.batch_id'),
  );
  return new Map(rows.map((r) => [Number(r.batch_id), String(r.date)]));
}
