import { formatBRL } from '../../domain/money.js';
import { InputRejectedError } from '../../errors.js';
import type { IgnoredColumn } from '../../sheet/headers.js';
import { validateSheetFile, type SheetFileOptions } from '../../sheet/sheet-file.js';
import type { Locale } from '../../words/locale.js';
import { IMPORT_WORDS, sheetProblemIn } from './import-words.js';
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
 * person imports it. Throws InputRejectedError listing every problem (file, line, field); otherwise the totals.
 * The sheet is read as a stream: memory stays flat however many rows it has (only its problems are kept). Refusals
 * and reasons are in `o.locale` (default English).
 */
export async function checkSheet(
  file: string,
  limits: { maxItemAmount: number; maxBatchTotal: number },
  o: SheetFileOptions & { readonly locale?: Locale } = {},
): Promise<SheetCheck> {
  const locale = o.locale ?? 'en';
  const w = IMPORT_WORDS[locale];
  let totals = new TotalsCounter();
  const { head, rowCount, rejectedCount, problems } = await validateSheetFile(file, limits.maxItemAmount, () => {
    totals = new TotalsCounter();
    return (row) => totals.add(row);
  }, undefined, { sheet: o.sheet });
  if (head.problems.length) throw new InputRejectedError(w.refused(w.cannotRead(file), false), head.problems.map((p) => sheetProblemIn(p, locale)));
  if (rowCount === 0) throw new InputRejectedError(w.refused(w.noRows(file), false));
  if (problems.length) {
    throw new InputRejectedError(w.refused(w.rowsInvalid(file, rejectedCount, rowCount), false), problems.map((p) => sheetProblemIn(p, locale)));
  }
  const result = totals.totals();
  if (result.sumCents > limits.maxBatchTotal) {
    throw new InputRejectedError(w.refused(w.aboveBatchTotal(file, formatBRL(result.sumCents), formatBRL(limits.maxBatchTotal)), false), [], {
      hint: w.splitOrRaise,
    });
  }
  return { file, rows: rowCount, ignoredColumns: head.ignoredColumns, totals: result };
}
