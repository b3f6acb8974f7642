import { withoutFormulaGuard } from './csv-cell.js';
import { mapHeader, SHEET_FIELDS, type IgnoredColumn, type SheetField } from './headers.js';
import { readTable } from './read-table.js';
import { streamCsvTable } from './csv-stream.js';
import type { RowReason, SheetProblem } from '../domain/sheet-reason.js';
import type { CsvFormat, TableFormat, TableProblem, TableRecord, TableStreamer } from './table.js';

export type { SheetField } from './headers.js';

/** One record of the sheet after the header. */
export interface SheetRow {
  /** 1-based physical line where the record starts (a quoted cell may span several lines). */
  line: number;
  /** Each field's cell, trimmed; undefined when the sheet has no such column or the cell is blank. */
  cells: Record<SheetField, string | undefined>;
  /** The cells exactly as read (quotes removed, nothing trimmed); line breaks inside cells are `\n`. */
  raw: string[];
  /** Why the cells may not line up with the header's columns; null when they do (see `TableRecord.misaligned`). */
  misaligned: RowReason | null;
  /** The fields whose cell a workbook stored as a number (see `TableRecord.numeric`); absent when none. */
  numericFields?: readonly SheetField[];
}

export interface ReadSheet {
  file: string;
  /** How the file was read; only for writing rows back in kind (`rejectedSheetCsv`). */
  format: TableFormat;
  /** The language most recognized column names are in; with a tie, the one the format suggests. */
  language: 'pt' | 'en';
  /** The header cells as written (untrimmed); empty when the file could not be read. */
  header: string[];
  /** 0-based column index of each field the header names. */
  columns: Partial<Record<SheetField, number>>;
  /** The named columns that are no field (notes, totals, a misspelt name): read by nobody, so shown to the person. */
  ignoredColumns: readonly IgnoredColumn[];
  /** Every non-blank record after the header, in order. Rows whose cells are all blank (`;;;;`) are skipped. */
  rows: SheetRow[];
  /**
   * Problems with the file as a whole: not decodable, empty, no header column for the key or the amount, a field
   * named by two columns, a quote never closed, no rows. Any of them means the sheet cannot be imported.
   * Columns the header does not recognize are no problem (sheets often carry notes or totals): see `ignoredColumns`.
   */
  problems: SheetProblem[];
}

const HEADER = 'header';

/**
 * Reads a payment sheet from its bytes (pure: the caller reads the file; `file` is only used in problems), in any
 * format `readTable` reads. Values are not interpreted here: see `validateRows`.
 */
export function readSheet(bytes: Uint8Array, file: string): ReadSheet & { readonly format: CsvFormat } {
  const table = readTable(bytes);
  const head = sheetHead(file, table.header, table.headerLine, table.format, table.language);
  const sheet = { ...head, format: table.format, rows: [] as SheetRow[] };
  const rowOf = rowReader(head.columns);
  for (const record of table.records) sheet.rows.push(rowOf(record));
  finishProblems(sheet.problems, file, table.problems, table.headerLine, sheet.rows.length);
  return sheet;
}

/** A sheet as `streamSheet` tells it before its rows: everything of a ReadSheet but the rows. */
export type SheetHead = Omit<ReadSheet, 'rows'>;

export interface StreamedSheet {
  /** The head with every problem of the file as a whole (as `ReadSheet.problems`), known once the file is read. */
  readonly head: SheetHead;
  /** Rows the sink was given (the non-blank records after the header). */
  readonly rowCount: number;
  /** SHA-256 of the file's bytes, hex: the sheet's identity. */
  readonly sha256: string;
}

/**
 * `readSheet` at flat memory: the bytes from `open()` are read as a stream, and each row goes to the sink that
 * `sinkFor` makes from the sheet's head, without all rows ever being held. `sinkFor` is called again, with a new
 * head, when the file has to be read again from the start (it was not UTF-8), so the consumer starts over. A sheet
 * without a header gets no sink call. Same rows, lines and problems as `readSheet`. The bytes are read as CSV unless
 * `streamTable` reads another format (`tableStreamer`).
 */
export async function streamSheet(
  open: () => AsyncIterable<Uint8Array>,
  file: string,
  sinkFor: (head: SheetHead) => (row: SheetRow) => void,
  streamTable: TableStreamer = streamCsvTable,
): Promise<StreamedSheet> {
  let head: SheetHead = sheetHead(file, [], 0, { kind: 'csv', encoding: 'utf-8', delimiter: ';' }, 'pt');
  let rowCount = 0;
  const table = await streamTable(open, () => {
    let sink: ((row: SheetRow) => void) | null = null;
    let rowOf: ((record: TableRecord) => SheetRow) | null = null;
    rowCount = 0;
    return {
      header(cells, line, format, language) {
        head = sheetHead(file, cells, line, format, language);
        rowOf = rowReader(head.columns);
        sink = sinkFor(head);
      },
      record(record) {
        rowCount++;
        if (sink !== null && rowOf !== null) sink(rowOf(record));
      },
    };
  });
  if (table.headerLine === 0) head = sheetHead(file, [], 0, table.format, table.language);
  finishProblems(head.problems, file, table.problems, table.headerLine, rowCount);
  return { head, rowCount, sha256: table.sha256 };
}

function sheetHead(file: string, header: string[], headerLine: number, format: TableFormat, fallback: 'pt' | 'en'): SheetHead {
  const mapping = mapHeader(header, fallback);
  const head: SheetHead = { file, format, language: mapping.lang, header, columns: mapping.columns, ignoredColumns: mapping.ignored, problems: [] };
  if (headerLine > 0) {
    for (const reason of mapping.problems) head.problems.push({ file, line: headerLine, field: HEADER, reason });
  }
  return head;
}

function rowReader(columns: Partial<Record<SheetField, number>>): (record: TableRecord) => SheetRow {
  const columnIndex = SHEET_FIELDS.map((f) => [f, columns[f]] as const);
  const { key, keyType, amount, description, identifier, name, document } = columns;
  return (record) => {
    const at = (index: number | undefined): string | undefined => (index === undefined ? undefined : cleanCell(record.cells[index]));
    // One literal, so every row's cells share a shape (filling them field by field cost a generic store per cell).
    const cells: Record<SheetField, string | undefined> = {
      key: at(key), keyType: at(keyType), amount: at(amount), description: at(description), identifier: at(identifier), name: at(name), document: at(document),
    };
    const row: SheetRow = { line: record.line, cells, raw: record.cells, misaligned: record.misaligned };
    if (record.numeric !== undefined) {
      const numericFields = columnIndex.filter(([, index]) => index !== undefined && record.numeric!.includes(index)).map(([field]) => field);
      if (numericFields.length) row.numericFields = numericFields;
    }
    return row;
  };
}

function finishProblems(problems: SheetProblem[], file: string, tableProblems: readonly TableProblem[], headerLine: number, rows: number): void {
  if (tableProblems.length) {
    for (const problem of tableProblems) problems.push({ file, ...problem });
    return;
  }
  if (headerLine === 0) {
    problems.push({ file, reason: { code: 'sheet_empty' } });
  } else if (rows === 0) {
    problems.push({ file, line: headerLine, field: HEADER, reason: { code: 'sheet_no_rows' } });
  }
}

/**
 * Trimmed text of a cell, or undefined when blank; `="0123"` (how systems keep Excel from eating zeros) → `0123`;
 * `'-10,00` (a formula character neutralised by paybatch's rejected file, or typed so in Excel) → `-10,00`.
 */
function cleanCell(cell: string | undefined): string | undefined {
  if (cell === undefined) return undefined;
  const trimmed = cell.trim();
  // Most cells start with neither "'" nor "=": they are their trimmed text.
  const first = trimmed.charCodeAt(0);
  if (first !== 0x27 && first !== 0x3d) return trimmed === '' ? undefined : trimmed;
  let text = withoutFormulaGuard(trimmed).trim();
  if (text.startsWith('="') && text.endsWith('"') && text.length >= 3) text = text.slice(2, -1).trim();
  return text === '' ? undefined : text;
}
