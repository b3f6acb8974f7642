import { CsvError, parse } from 'csv-parse/sync';
import type { InputProblem } from '../errors.js';
import { withoutFormulaGuard } from './csv-cell.js';
import { decodeText, type SheetEncoding } from './decode-text.js';
import { detectDelimiter, takeSepLine, type SheetDelimiter } from './delimiter.js';
import { mapHeader, SHEET_FIELDS, type SheetField } from './headers.js';

export type { SheetField } from './headers.js';
export type { SheetEncoding } from './decode-text.js';
export type { SheetDelimiter } from './delimiter.js';

/** One record of the sheet after the header. */
export interface SheetRow {
  /** 1-based physical line where the record starts (a quoted cell may span several lines). */
  line: number;
  /** Each field's cell, trimmed; undefined when the sheet has no such column or the cell is blank. */
  cells: Record<SheetField, string | undefined>;
  /** The cells exactly as parsed (quotes removed, nothing trimmed); line breaks inside cells are `\n`. */
  raw: string[];
}

export interface ReadSheet {
  file: string;
  encoding: SheetEncoding;
  delimiter: SheetDelimiter;
  /** The header cells as written (untrimmed); empty when the file could not be read. */
  header: string[];
  /** 0-based column index of each field the header names. */
  columns: Partial<Record<SheetField, number>>;
  /** Every non-blank record after the header, in order. Rows whose cells are all blank (`;;;;`) are skipped. */
  rows: SheetRow[];
  /**
   * Problems with the file as a whole: not decodable, empty, no header column for the key or the amount, a field
   * named by two columns, a quote never closed, no rows. Any of them means the sheet cannot be imported.
   * Columns the header does not recognize are ignored without a problem (sheets often carry notes or totals).
   */
  problems: InputProblem[];
}

const HEADER = 'header';

/**
 * Reads a payment sheet from its bytes (pure: the caller reads the file; `file` is only used in problems).
 * UTF-8 with or without BOM, or Windows-1252; `;`, `,` or tab detected from the header (or an Excel `sep=` line);
 * CRLF, LF or CR line breaks; quoted cells with delimiters, quotes ("") and line breaks inside. Values are not
 * interpreted here: see `validateRows`.
 */
export function readSheet(bytes: Uint8Array, file: string): ReadSheet {
  const sheet: ReadSheet = {
    file, encoding: 'utf-8', delimiter: ';', header: [], columns: {}, rows: [], problems: [],
  };
  const decoded = decodeText(bytes);
  if (!decoded.ok) {
    sheet.problems.push({ file, reason: decoded.error });
    return sheet;
  }
  sheet.encoding = decoded.value.encoding;
  // One kind of line break, so that counting "\n" counts lines (also inside quoted cells, which keep their breaks).
  const unified = decoded.value.text.includes('\r') ? decoded.value.text.replace(/\r\n?/g, '\n') : decoded.value.text;
  const sep = takeSepLine(unified);
  const text = sep.text;
  const delimiter = sep.delimiter ?? detectDelimiter(text);
  sheet.delimiter = delimiter;

  const parsed = parseRecords(text, delimiter);
  let columnIndex: (readonly [SheetField, number | undefined])[] = [];
  let headerLine = 0;
  // Every physical line is in exactly one record (blank lines are records too): a record starts on the line after
  // the previous one ends, and spans one more line for each line break inside its quoted cells.
  let line = 1;
  for (const record of parsed.records) {
    const start = line;
    line += lineBreaksIn(record) + 1;
    if (isBlank(record)) continue;
    if (headerLine === 0) {
      sheet.header = record;
      headerLine = start;
      const mapping = mapHeader(record, delimiter === ';' ? 'pt' : 'en');
      sheet.columns = mapping.columns;
      for (const reason of mapping.problems) sheet.problems.push({ file, line: start, field: HEADER, reason });
      columnIndex = SHEET_FIELDS.map((f) => [f, mapping.columns[f]] as const);
      continue;
    }
    const cells = {} as Record<SheetField, string | undefined>;
    for (const [field, index] of columnIndex) {
      cells[field] = index === undefined ? undefined : cleanCell(record[index]);
    }
    sheet.rows.push({ line: start, cells, raw: record });
  }
  if (parsed.error !== null) {
    sheet.problems.push(parseProblem(parsed.error, text, line, file));
    return sheet;
  }

  if (headerLine === 0) {
    sheet.problems.push({ file, reason: 'the sheet is empty: expected a header line and one row per payment' });
  } else if (sheet.rows.length === 0) {
    sheet.problems.push({ file, line: headerLine, field: HEADER, reason: 'the sheet has a header but no payment rows' });
  }
  return sheet;
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

function isBlank(record: readonly string[]): boolean {
  for (const cell of record) if (cell.trim() !== '') return false;
  return true;
}

function lineBreaksIn(record: readonly string[]): number {
  let count = 0;
  for (const cell of record) {
    if (!cell.includes('\n')) continue;
    for (let i = cell.indexOf('\n'); i >= 0; i = cell.indexOf('\n', i + 1)) count++;
  }
  return count;
}

/**
 * Trimmed text of a cell, or undefined when blank; `="0123"` (how systems keep Excel from eating zeros) → `0123`;
 * `'-10,00` (a formula character neutralised by paybatch's rejected file, or typed so in Excel) → `-10,00`.
 */
function cleanCell(cell: string | undefined): string | undefined {
  if (cell === undefined) return undefined;
  let text = withoutFormulaGuard(cell.trim()).trim();
  if (text.startsWith('="') && text.endsWith('"') && text.length >= 3) text = text.slice(2, -1).trim();
  return text === '' ? undefined : text;
}

function parseProblem(error: CsvError, text: string, nextLine: number, file: string): InputProblem {
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
    // The unclosed record starts at the first line with content after the last complete record.
    const lines = text.split('\n');
    let line = nextLine;
    while (line < lines.length && (lines[line - 1] ?? '').trim() === '') line++;
    return {
      file, line, field: 'row',
      reason: 'a quoted cell opened on this line is never closed (a " is missing); nothing after it could be read',
    };
  }
  const at = (error as CsvError & { lines?: unknown }).lines;
  return {
    file, line: typeof at === 'number' ? at : undefined, field: 'row',
    reason: `the file is not valid CSV here: ${error.message}`,
  };
}
