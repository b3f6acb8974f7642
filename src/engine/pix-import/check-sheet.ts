import type { IgnoredColumn } from '../../sheet/headers.js';
import { saoPauloDate } from '../../domain/bank-calendar.js';
import { validateSheetFile, type SheetFileOptions } from '../../sheet/sheet-file.js';
import { ImportRefusedError } from './import-refusal.js';
import { TotalsCounter, type Totals } from './plan-import.js';

export interface SheetCheck {
  readonly file: string;
  readonly rows: number;
  /** Named columns the sheet has that paybatch does not read. */
  readonly ignoredColumns: readonly IgnoredColumn[];
  /** The rows that pass every offline rule, and their totals. */
  readonly totals: Totals;
}

/**
 * `paybatch import --check`: the offline part of an import alone — the sheet's rules, amounts, duplicates within
 * the sheet and the batch limits — with no provider and no ledger, as a CI pipeline validates a sheet before a
 * person imports it. Throws ImportRefusedError listing every problem (file, line, field); otherwise the totals.
 * The sheet is read as a stream: memory stays flat however many rows it has (only its problems are kept).
 */
export async function checkSheet(
  file: string,
  limits: { maxItemAmount: number; maxBatchTotal: number },
  o: Pick<SheetFileOptions, 'sheet' | 'cnabLayout' | 'format' | 'accountsAccepted'> & { readonly now?: Date } = {},
): Promise<SheetCheck> {
  let totals = new TotalsCounter();
  // A remittance's titles are checked against today too: one due before it is refused as the import would.
  const { head, rowCount, rejectedCount, problems } = await validateSheetFile(file, limits.maxItemAmount, () => {
    totals = new TotalsCounter();
    return (row) => totals.add(row);
  }, undefined, { sheet: o.sheet, cnabLayout: o.cnabLayout, format: o.format, accountsAccepted: o.accountsAccepted, ...(o.now ? { today: saoPauloDate(o.now) } : {}) });
  if (head.problems.length) throw new ImportRefusedError({ code: 'sheet_unreadable', file, imported: false }, head.problems);
  if (rowCount === 0) throw new ImportRefusedError({ code: 'sheet_empty', file, imported: false });
  if (problems.length) throw new ImportRefusedError({ code: 'rows_invalid', file, rejected: rejectedCount, rows: rowCount, rejectedFile: null }, problems);
  const result = totals.totals();
  if (result.sumCents > limits.maxBatchTotal) {
    throw new ImportRefusedError({ code: 'above_batch_total', file, totalCents: result.sumCents, limitCents: limits.maxBatchTotal, imported: false });
  }
  return { file, rows: rowCount, ignoredColumns: head.ignoredColumns, totals: result };
}
