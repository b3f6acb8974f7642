import { CsvError, parse } from 'csv-parse/sync';
import { decodeText } from './decode-text.js';
import { detectDelimiter, takeSepLine, type SheetDelimiter } from './delimiter.js';
import type { Table, TableProblem } from './table.js';
import type { RowReason } from '../domain/sheet-reason.js';

/**
 * The CSV adapter of `readTable`, for CSV as people export it: UTF-8 with or without BOM, or Windows-1252; `;`, `,`
 * or tab detected from the header (or an Excel `sep=` line); CRLF, LF or CR line breaks; quoted cells with
 * delimiters, quotes ("") and line breaks inside.
 */
export function readCsvTable(bytes: Uint8Array): Table {
  const table: Table = {
    header: [], headerLine: 0, records: [], problems: [], language: 'pt',
    format: { kind: 'csv', encoding: 'utf-8', delimiter: ';' },
  };
  const decoded = decodeText(bytes);
  if (!decoded.ok) {
    table.problems.push({ reason: decoded.error });
    return table;
  }
  // One kind of line break, so that counting "\n" counts lines (also inside quoted cells, which keep their breaks).
  const unified = decoded.value.text.includes('\r') ? decoded.value.text.replace(/\r\n?/g, '\n') : decoded.value.text;
  const sep = takeSepLine(unified);
  const text = sep.text;
  const delimiter = sep.delimiter ?? detectDelimiter(text);
  table.format = { kind: 'csv', encoding: decoded.value.encoding, delimiter };
  // Excel in Brazil saves CSV with `;` (`,` is the decimal mark there); with `,` or tab it is an English sheet.
  table.language = delimiter === ';' ? 'pt' : 'en';

  const parsed = parseRecords(text, delimiter);
  let named = 0;
  // Every physical line is in exactly one record (blank lines are records too): a record starts on the line after
  // the previous one ends, and spans one more line for each line break inside its quoted cells.
  let line = 1;
  for (const record of parsed.records) {
    const start = line;
    line += lineBreaksIn(record) + 1;
    if (isBlank(record)) continue;
    if (table.headerLine === 0) {
      table.header = record;
      table.headerLine = start;
      named = namedWidth(record);
      continue;
    }
    table.records.push({ line: start, cells: record, misaligned: misalignment(record, named, table.header.length, delimiter) });
  }
  if (parsed.error !== null) table.problems.push(parseProblem(parsed.error, text, line));
  return table;
}

/**
 * All records of the text, blank lines included (as `[""]`). csv-parse's sync API throws away the records read
 * before an error, so after one they are read again, collected one by one, to report what precedes the error.
 */
function parseRecords(text: string, delimiter: SheetDelimiter): { records: string[][]; error: CsvError | null } {
  const options = { delimiter, record_delimiter: '\n', relax_column_count: true, relax_quotes: true } as const;
  try {
    // No on_record/info here: building csv-parse's info object for each record costs about a tenth of the read.
    return { records: parse(text, options), error: null };
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const records: string[][] = [];
    try {
      parse(text, { ...options, on_record: (record: string[]) => void records.push(record) });
    } catch {
      // The same error again; `records` holds everything before it.
    }
    return { records, error };
  }
}

export function isBlank(record: readonly string[]): boolean {
  for (const cell of record) if (cell.trim() !== '') return false;
  return true;
}

export function lineBreaksIn(record: readonly string[]): number {
  let count = 0;
  for (const cell of record) {
    if (!cell.includes('\n')) continue;
    for (let i = cell.indexOf('\n'); i >= 0; i = cell.indexOf('\n', i + 1)) count++;
  }
  return count;
}

/** Index after the last named header cell: trailing blank header cells are Excel's padding, not columns. */
export function namedWidth(header: readonly string[]): number {
  let width = header.length;
  while (width > 0 && (header[width - 1] ?? '').trim() === '') width--;
  return width;
}

/** A row with fewer cells than the header names, or with content past the header's end, was split wrongly. */
export function misalignment(
  cells: readonly string[],
  named: number,
  headerLength: number,
  delimiter: SheetDelimiter,
): RowReason | null {
  if (cells.length < named) return { code: 'cells_missing', cells: cells.length, named };
  for (let i = headerLength; i < cells.length; i++) {
    if ((cells[i] ?? '').trim() !== '') return { code: 'cells_unquoted', cells: cells.length, header: headerLength, delimiter };
  }
  return null;
}

export function parseProblem(error: CsvError, text: string, nextLine: number): TableProblem {
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
    // The unclosed record starts at the first line with content after the last complete record.
    const lines = text.split('\n');
    let line = nextLine;
    while (line < lines.length && (lines[line - 1] ?? '').trim() === '') line++;
    return {
      line, field: 'row',
      reason: { code: 'csv_quote_not_closed' },
    };
  }
  const at = (error as CsvError & { lines?: unknown }).lines;
  return {
    line: typeof at === 'number' ? at : undefined, field: 'row',
    reason: { code: 'csv_invalid', message: error.message },
  };
}
