import { formatBRL } from '../domain/money.js';
import { InputRejectedError } from '../errors.js';
import { validateSheetFile, type SheetFileOptions } from '../sheet/sheet-file.js';
import { TotalsCounter, type Totals } from './plan-import.js';

export interface SheetCheck {
  readonly file: string;
  readonly rows: number;
  /** The rows that pass every offline rule, and their totals. */
  readonly totals: Totals;
}

/**
 * `paybatch import --check`: the offline part of an import alone — the sheet's rules, amounts, duplicates within
 * the sheet and the batch limits — with no provider and no ledger, as a CI pipeline validates a sheet before a
 * person imports it. Throws InputRejectedError listing every problem (file, line, field); otherwise the totals.
 * The sheet is read as a stream: memory stays flat however many rows it has (only its problems are kept).
 */
export async function checkSheet(file: string, limits: { maxItemAmount: number; maxBatchTotal: number }, o: SheetFileOptions = {}): Promise<SheetCheck> {
  let totals = new TotalsCounter();
  const { head, rowCount, rejectedCount, problems } = await validateSheetFile(file, limits.maxItemAmount, () => {
    totals = new TotalsCounter();
    return (row) => totals.add(row);
  }, undefined, o);
  if (head.problems.length) throw new InputRejectedError(`${file} cannot be read as a payment sheet.`, head.problems);
  if (rowCount === 0) throw new InputRejectedError(`${file} has no payment rows.`);
  if (problems.length) {
    throw new InputRejectedError(`${file}: ${rejectedCount} of ${rowCount} rows are invalid.`, problems);
  }
  const result = totals.totals();
  if (result.sumCents > limits.maxBatchTotal) {
    throw new InputRejectedError(`${file}: the total ${formatBRL(result.sumCents)} is above the profile's maxBatchTotal of ${formatBRL(limits.maxBatchTotal)}.`, [], {
      hint: "Split the sheet, or raise the limit with 'paybatch config set maxBatchTotal <R$>'.",
    });
  }
  return { file, rows: rowCount, totals: result };
}
