import type { InputProblem } from '../errors.js';
import { withoutFormulaGuard } from './csv-cell.js';
import { mapHeader, SHEET_FIELDS, type SheetField } from './headers.js';
import { readTable } from './read-table.js';
import type { TableFormat } from './table.js';

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
  misaligned: string | null;
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
 * Reads a payment sheet from its bytes (pure: the caller reads the file; `file` is only used in problems), in any
 * format `readTable` reads. Values are not interpreted here: see `validateRows`.
 */
export function readSheet(bytes: Uint8Array, file: string): ReadSheet {
  const table = readTable(bytes);
  const mapping = mapHeader(table.header, table.language);
  const sheet: ReadSheet = {
    file, format: table.format, language: mapping.lang, header: table.header, columns: mapping.columns, rows: [], problems: [],
  };
  if (table.headerLine > 0) {
    for (const reason of mapping.problems) sheet.problems.push({ file, line: table.headerLine, field: HEADER, reason });
  }
  const columnIndex = SHEET_FIELDS.map((f) => [f, mapping.columns[f]] as const);
  for (const record of table.records) {
    const cells = {} as Record<SheetField, string | undefined>;
    for (const [field, index] of columnIndex) {
      cells[field] = index === undefined ? undefined : cleanCell(record.cells[index]);
    }
    sheet.rows.push({ line: record.line, cells, raw: record.cells, misaligned: record.misaligned });
  }
  if (table.problems.length) {
    for (const problem of table.problems) sheet.problems.push({ file, ...problem });
    return sheet;
  }

  if (table.headerLine === 0) {
    sheet.problems.push({ file, reason: 'the sheet is empty: expected a header line and one row per payment' });
  } else if (sheet.rows.length === 0) {
    sheet.problems.push({ file, line: table.headerLine, field: HEADER, reason: 'the sheet has a header but no payment rows' });
  }
  return sheet;
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
