/**
 * Reading a list of bills to pay (`paybatch boleto pay --file bills.csv`): CSV as people export it, read with the
 * sheet rules (UTF-8 or Windows-1252, `;` `,` or tab, Excel's `sep=` line, headers in any case and accents).
 * Columns: the code (`code`, `codigo`, `linha`, `linha_digitavel`, `codigo_de_barras`, `barcode`, `line`), the
 * amount (`amount`, `valor`; optional), the description (`description`, `descricao`; optional).
 */
import { CsvError, parse } from 'csv-parse/sync';
import { InputRejectedError, type InputProblem } from '../errors.js';
import { decodeText, detectDelimiter, foldHeader } from '../sheet/index.js';
import { takeSepLine } from '../sheet/delimiter.js';
import type { BillRequest } from './pay-bill.js';

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
export function readBillFile(bytes: Uint8Array, file: string): BillRequest[] {
  const decoded = decodeText(bytes);
  if (!decoded.ok) throw rejected(file, [{ file, reason: decoded.error }]);
  const unified = decoded.value.text.replace(/\r\n?/g, '\n');
  const sep = takeSepLine(unified);
  const delimiter = sep.delimiter ?? detectDelimiter(sep.text);
  let records: string[][];
  try {
    records = parse(sep.text, { delimiter, record_delimiter: '\n', relax_column_count: true, relax_quotes: true });
  } catch (e) {
    if (!(e instanceof CsvError)) throw e;
    throw rejected(file, [{ file, field: 'row', reason: `the file is not valid CSV: ${e.message}` }]);
  }

  const problems: InputProblem[] = [];
  const requests: BillRequest[] = [];
  let columns: Partial<Record<BillColumn, number>> | null = null;
  let line = 1;
  for (const record of records) {
    const start = line;
    line += record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0) + 1;
    if (record.every((c) => c.trim() === '')) continue;
    if (columns === null) {
      columns = {};
      for (const [i, cell] of record.entries()) {
        const column = ALIASES[foldHeader(cell)];
        if (column === undefined) continue;
        if (columns[column] !== undefined) problems.push({ file, line: start, field: 'header', reason: `two columns mean the ${column}; keep one` });
        else columns[column] = i;
      }
      if (columns.code === undefined) {
        problems.push({ file, line: start, field: 'header', reason: 'no column for the bill code: name one code, codigo, linha or barcode (the first line must be the header)' });
      }
      continue;
    }
    const cell = (c: BillColumn): string | null => {
      const i = columns?.[c];
      const value = i === undefined ? undefined : record[i]?.trim();
      return value === undefined || value === '' ? null : value;
    };
    requests.push({ code: cell('code') ?? '', amount: cell('amount'), description: cell('description'), file, line: start });
  }
  if (columns === null) problems.push({ file, reason: 'the file is empty: expected a header line and one row per bill' });
  else if (problems.length === 0 && requests.length === 0) problems.push({ file, field: 'header', reason: 'the file has a header but no bills' });
  if (problems.length) throw rejected(file, problems);
  return requests;
}

function rejected(file: string, problems: InputProblem[]): InputRejectedError {
  return new InputRejectedError(`${file} cannot be read as a list of bills; nothing was paid.`, problems);
}
