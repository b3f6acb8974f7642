import { readFile } from 'node:fs/promises';
import { formatBRL } from '../domain/money.js';
import { InputRejectedError } from '../errors.js';
import { readSheet } from '../sheet/read-sheet.js';
import { validateRows } from '../sheet/validate-rows.js';
import { totalsOf, type Totals } from './plan-import.js';

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
 */
export async function checkSheet(file: string, limits: { maxItemAmount: number; maxBatchTotal: number }): Promise<SheetCheck> {
  const bytes = await readFile(file).catch((e: NodeJS.ErrnoException) => {
    throw new InputRejectedError(`Cannot read ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  });
  const sheet = readSheet(bytes, file);
  if (sheet.problems.length) throw new InputRejectedError(`${file} cannot be read as a payment sheet.`, sheet.problems);
  if (sheet.rows.length === 0) throw new InputRejectedError(`${file} has no payment rows.`);
  const validation = validateRows(sheet, { maxItemAmountCents: limits.maxItemAmount });
  if (validation.problems.length) {
    throw new InputRejectedError(`${file}: ${validation.rejected.length} of ${sheet.rows.length} rows are invalid.`, validation.problems);
  }
  const totals = totalsOf(validation.valid);
  if (totals.sumCents > limits.maxBatchTotal) {
    throw new InputRejectedError(`${file}: the total ${formatBRL(totals.sumCents)} is above the profile's maxBatchTotal of ${formatBRL(limits.maxBatchTotal)}.`, [], {
      hint: "Split the sheet, or raise the limit with 'paybatch config set maxBatchTotal <R$>'.",
    });
  }
  return { file, rows: sheet.rows.length, totals };
}
