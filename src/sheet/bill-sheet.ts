/**
 * Reading a list of bills to pay (`paybatch boleto pay --file bills.csv`): any file `readTable` reads, with
 * headers in any case and accents. Columns: the code (`code`, `codigo`, `linha`, `linha_digitavel`,
 * `codigo_de_barras`, `barcode`, `line`), the amount (`amount`, `valor`; optional), the description (`description`,
 * `descricao`; optional).
 */
import { InputRejectedError, type InputProblem } from '../errors.js';
import { foldHeader } from './headers.js';
import { readTable } from './read-table.js';

/** One bill of the list: its cells, trimmed (null when blank), and where it was read. */
export interface BillSheetRow {
  readonly code: string;
  readonly amount: string | null;
  readonly description: string | null;
  readonly file: string;
  readonly line: number;
}

type BillColumn = 'code' | 'amount' | 'description';

const ALIASES: Readonly<Record<string, BillColumn>> = {
  code: 'code',
  codigo: 'code',
  linha: 'code',
  linhadigitavel: 'code',
  codigodebarras: 'code',
  codigobarras: 'code',
  barcode: 'code',
  line: 'code',
  boleto: 'code',
  amount: 'amount',
  valor: 'amount',
  value: 'amount',
  description: 'description',
  descricao: 'description',
  historico: 'description',
};

/**
 * The bills of a file's bytes, one per non-blank row, with the file and line of each (pure; `file` names it in
 * problems). A file that cannot be read as such a list is an InputRejectedError listing why.
 */
export function readBillSheet(bytes: Uint8Array, file: string): BillSheetRow[] {
  const table = readTable(bytes);
  if (table.problems.length) throw rejected(file, table.problems.map((p) => ({ file, ...p })));
  if (table.headerLine === 0) throw rejected(file, [{ file, reason: 'the file is empty: expected a header line and one row per bill' }]);

  const problems: InputProblem[] = [];
  const columns: Partial<Record<BillColumn, number>> = {};
  for (const [i, cell] of table.header.entries()) {
    const column = ALIASES[foldHeader(cell)];
    if (column === undefined) continue;
    if (columns[column] !== undefined) problems.push({ file, line: table.headerLine, field: 'header', reason: `two columns mean the ${column}; keep one` });
    else columns[column] = i;
  }
  if (columns.code === undefined) {
    problems.push({ file, line: table.headerLine, field: 'header', reason: 'no column for the bill code: name one code, codigo, linha or barcode (the first line must be the header)' });
  }
  if (problems.length) throw rejected(file, problems);
  if (table.records.length === 0) throw rejected(file, [{ file, field: 'header', reason: 'the file has a header but no bills' }]);

  return table.records.map((record) => {
    const cell = (c: BillColumn): string | null => {
      const i = columns[c];
      const value = i === undefined ? undefined : record.cells[i]?.trim();
      return value === undefined || value === '' ? null : value;
    };
    return { code: cell('code') ?? '', amount: cell('amount'), description: cell('description'), file, line: record.line };
  });
}

function rejected(file: string, problems: InputProblem[]): InputRejectedError {
  return new InputRejectedError(`${file} cannot be read as a list of bills; nothing was paid.`, problems);
}
