/**
 * Reading a list of bills to pay (`paybatch boleto pay --file bills.csv`): any file `readTable` reads, or the first
 * worksheet of an XLSX workbook (`readBillList`), with
 * headers in any case and accents. Columns: the code (`code`, `codigo`, `linha`, `linha_digitavel`,
 * `codigo_de_barras`, `barcode`, `line`), the amount (`amount`, `valor`; optional), the description (`description`,
 * `descricao`; optional).
 */
import { createHash } from 'node:crypto';
import type { RemittanceBill } from '../domain/remittance-bill.js';
import { InputRejectedError, type InputProblem } from '../errors.js';
import { foldHeader } from './headers.js';
import { readTable } from './read-table.js';
import type { Table, TableRecord } from './table.js';
import type { SheetProblem, SheetReason } from '../domain/sheet-reason.js';
import { isZip, streamXlsxTable } from './xlsx-table.js';
import { CNAB_LINE, looksLikeCnab240 } from './cnab240/read-remittance.js';
import { remittanceText } from './cnab240/remittance-table.js';
import { formatReais } from '../domain/money.js';

/** How a reason of the table reader (an encoding, a damaged workbook) is said: the caller's words (src/words/sheet.ts). */
export type SaySheetReason = (reason: SheetReason) => string;

/** One bill of the list: its cells, trimmed (null when blank), and where it was read. */
export interface BillSheetRow {
  readonly code: string;
  readonly amount: string | null;
  readonly description: string | null;
  readonly file: string;
  readonly line: number;
  /** For a bill of a CNAB 240 remittance: its title as read, which the bill's return file is written from. */
  readonly remittance?: RemittanceBill;
  /** For a bill of a CNAB 240 remittance: the day (YYYY-MM-DD) it asks to be paid on. */
  readonly payOn?: string;
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
export function readBillSheet(bytes: Uint8Array, file: string, say: SaySheetReason): BillSheetRow[] {
  return billRows(readTable(bytes), file, say);
}

/**
 * `readBillSheet` for a CSV file's bytes, or for an XLSX workbook's (its first worksheet; lists of bills are short,
 * so the workbook's bytes are held). A bill code the workbook stored as a number has lost its digits (a number keeps
 * 15) and is refused with its line.
 */
export async function readBillList(bytes: Uint8Array, file: string, say: SaySheetReason, o: { readonly today?: string; readonly cnabLayout?: string } = {}): Promise<BillSheetRow[]> {
  if (looksLikeCnab240(bytes.subarray(0, 2 * CNAB_LINE + 2))) return remittanceBills(bytes, file, say, o);
  if (!isZip(bytes)) return readBillSheet(bytes, file, say);
  const table: Pick<Table, 'header' | 'headerLine' | 'records' | 'problems'> = { header: [], headerLine: 0, records: [], problems: [] };
  const streamed = await streamXlsxTable(
    async function* () {
      yield bytes;
    },
    () => ({
      header: (cells, line) => {
        table.header = cells;
        table.headerLine = line;
      },
      record: (record) => void table.records.push(record),
    }),
    {},
  );
  table.problems = streamed.problems;
  if (streamed.headerLine === 0) table.headerLine = 0;
  return billRows(table, file, say);
}

function billRows(table: Pick<Table, 'header' | 'headerLine' | 'records' | 'problems'>, file: string, say: SaySheetReason): BillSheetRow[] {
  if (table.problems.length) throw rejected(file, table.problems.map((p) => ({ file, ...p, reason: say(p.reason), code: p.reason.code })));
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
  const numbers = table.records.filter((r: TableRecord) => r.numeric?.includes(columns.code as number));
  if (numbers.length) {
    throw rejected(
      file,
      numbers.map((r) => ({
        file, line: r.line, field: (table.header[columns.code as number] ?? '').trim(),
        reason: 'the workbook stores the bill code as a number, which keeps only 15 digits: format the column as Text and paste the code again',
      })),
    );
  }

  return table.records.map((record) => {
    const cell = (c: BillColumn): string | null => {
      const i = columns[c];
      const value = i === undefined ? undefined : record.cells[i]?.trim();
      return value === undefined || value === '' ? null : value;
    };
    return { code: cell('code') ?? '', amount: cell('amount'), description: cell('description'), file, line: record.line };
  });
}

/**
 * The bills of a CNAB 240 remittance (segment J): each its bar code, the amount the remittance pays, its "seu número"
 * as the description, and the day the remittance pays it (`payOn`: today's are paid now, later ones scheduled). The
 * file must be sound (as an import requires); a bill whose day has passed before `today` is refused with its line
 * rather than paid late. Pix titles of the same file are left to `paybatch import`.
 */
function remittanceBills(bytes: Uint8Array, file: string, say: SaySheetReason, o: { readonly today?: string; readonly cnabLayout?: string }): BillSheetRow[] {
  const reading = remittanceText(bytes, file, o.cnabLayout);
  const sayAll = (problems: readonly SheetProblem[]) => problems.map((p) => ({ ...p, field: p.field === undefined ? undefined : `positions ${p.field}`, reason: say(p.reason), code: p.reason.code }));
  if (reading.remittance === null) throw rejected(file, sayAll(reading.problems));
  const r = reading.remittance;
  const bills = r.titles.filter((t) => t.kind === 'bill');
  const problems: InputProblem[] = sayAll(r.problems.filter((p) => bills.some((t) => t.line === p.line)));
  const date = r.layout.segmentJ.paymentDate.at;
  const today = o.today;
  const passed: SheetProblem[] = today === undefined ? [] : bills
    .filter((t) => t.paymentDate < today)
    .map((t) => ({ file, line: t.line, field: `${date[0]}-${date[1]}`, reason: { code: 'cnab_date_past', date: t.paymentDate, today } }));
  const none: SheetProblem[] = bills.length === 0 ? [{ file, reason: { code: 'cnab_no_bills' } }] : [];
  problems.push(...sayAll([...passed, ...none]));
  if (problems.length) throw rejected(file, problems);
  const fileHash = remittanceHash(bytes);
  const lotHeaders = new Map(r.lots.map((l) => [l.number, l.header]));
  return bills.map((t) => ({
    code: t.barcode!, amount: formatReais(t.amountCents), description: t.yourNumber || null, file, line: t.line, payOn: t.paymentDate,
    remittance: {
      fileHash, fileName: file, layout: r.layout.id, fileHeader: r.fileHeader, companyDocument: r.company.value, encoding: r.encoding,
      line: t.line, lot: t.lot, lotHeader: lotHeaders.get(t.lot)!, records: t.records, yourNumber: t.yourNumber,
    },
  }));
}

/** A remittance's identity: the sha256 (hex) of its bytes, whatever the file is named. */
export function remittanceHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function rejected(file: string, problems: InputProblem[]): InputRejectedError {
  return new InputRejectedError(`${file} cannot be read as a list of bills; nothing was paid.`, problems);
}
