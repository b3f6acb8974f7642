import type { RemittanceBill } from '../domain/remittance-bill.js';
import type { Ledger } from './ledger.js';
import { mayOweReturnFile } from './remittance-repository.js';
import type { BillStatus } from './schema.js';

/** Links a bill to its remittance title. Called in the transaction that writes the bill's intent. */
export async function recordRemittanceBill(tx: Ledger, billId: number, r: RemittanceBill): Promise<void> {
  await tx.run(
    tx.db.insertInto('remittance_bills').values({
      bill_id: billId, file_hash: r.fileHash, file_name: r.fileName, layout: r.layout, file_header: r.fileHeader,
      company_document: r.companyDocument, encoding: r.encoding, line: r.line, lot: r.lot, lot_header: r.lotHeader,
      records: r.records.join('\n'), your_number: r.yourNumber,
    }),
  );
}

/**
 * Notes the remittance lines a run is about to pay (`boleto pay --file`), before the first bill's intent: the return
 * file waits for a bill of each (remittanceLinesUnbilled). A line noted by an earlier run of the file stays noted.
 */
export async function recordRemittanceBillLines(ledger: Ledger, lines: readonly { readonly fileHash: string; readonly line: number }[]): Promise<void> {
  if (!lines.length) return;
  await ledger.run(
    ledger.db
      .insertInto('remittance_bill_lines')
      .values(lines.map((l) => ({ file_hash: l.fileHash, line: l.line })))
      .onConflict((oc) => oc.columns(['file_hash', 'line']).doNothing()),
  );
}

/** How many lines of the remittance of `fileHash` a run set out to pay and no bill was recorded for yet. */
export async function remittanceLinesUnbilled(ledger: Ledger, fileHash: string): Promise<number> {
  const row = await ledger.first(
    ledger.db
      .selectFrom('remittance_bill_lines as l')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('l.file_hash', '=', fileHash)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('remittance_bills as r').select('r.bill_id').whereRef('r.file_hash', '=', 'l.file_hash').whereRef('r.line', '=', 'l.line'))),
      ),
  );
  return Number(row?.n ?? 0);
}

/** A remittance's bill as the ledger has it: the title, and how its payment stands. Amounts in centavos. */
export interface RemittanceBillOfFile extends RemittanceBill {
  readonly billId: number;
  readonly status: BillStatus;
  readonly settleDate: string | null;
  readonly amountPaidCents: number | null;
}

/**
 * The bills paid from the remittance of `fileHash`, in remittance line order: for a title paid more than once (a
 * failed or returned bill paid again by a later run of the same file), its last payment.
 */
export async function remittanceBillsOf(ledger: Ledger, fileHash: string): Promise<RemittanceBillOfFile[]> {
  const rows = await ledger.all(
    ledger.db
      .selectFrom('remittance_bills as r')
      .innerJoin('bills as b', 'b.id', 'r.bill_id')
      .selectAll('r')
      .select(['b.status', 'b.settle_date', 'b.amount_paid_cents'])
      .where('r.file_hash', '=', fileHash)
      .orderBy('r.line')
      .orderBy('r.bill_id'),
  );
  const last = new Map<number, (typeof rows)[number]>();
  for (const row of rows) last.set(Number(row.line), row);
  return [...last.values()].map((r) => ({
    billId: Number(r.bill_id), fileHash: r.file_hash, fileName: r.file_name, layout: r.layout, fileHeader: r.file_header,
    companyDocument: r.company_document, encoding: r.encoding, line: Number(r.line), lot: Number(r.lot), lotHeader: r.lot_header,
    records: r.records.split('\n'), yourNumber: r.your_number, status: r.status, settleDate: r.settle_date,
    amountPaidCents: r.amount_paid_cents === null ? null : Number(r.amount_paid_cents),
  }));
}

/**
 * Remittances whose bills may owe a return file (mayOweReturnFile: any bill of the ledger changed since), oldest
 * first, with what the last one said.
 */
export async function remittancesOwedBillReturnFile(ledger: Ledger, now: Date): Promise<{ fileHash: string; said: string | null }[]> {
  const lastChange = await ledger.first(ledger.db.selectFrom('bills').select((eb) => eb.fn.max('updated_at').as('at')));
  const rows = await ledger.all(
    ledger.db
      .selectFrom('remittance_bills as r')
      .leftJoin('bill_return_files as f', 'f.file_hash', 'r.file_hash')
      .select(['r.file_hash', 'f.said', 'f.written_at', (eb) => eb.fn.min('r.bill_id').as('first')])
      .groupBy(['r.file_hash', 'f.said', 'f.written_at'])
      .orderBy('first'),
  );
  return rows.filter((r) => mayOweReturnFile(r.written_at, lastChange?.at, now)).map((r) => ({ fileHash: r.file_hash, said: r.said ?? null }));
}

/** Notes the return file written for a remittance's bills and what it said of them. */
export async function recordBillReturnFile(ledger: Ledger, fileHash: string, o: { path: string; at: Date; said: string }): Promise<void> {
  const row = { path: o.path, written_at: o.at.toISOString(), said: o.said };
  await ledger.run(ledger.db.insertInto('bill_return_files').values({ file_hash: fileHash, ...row }).onConflict((oc) => oc.column('file_hash').doUpdateSet(row)));
}
