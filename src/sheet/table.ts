import type { InputProblem } from '../errors.js';
import type { SheetEncoding } from './decode-text.js';
import type { SheetDelimiter } from './delimiter.js';

/**
 * A file read as rows of text cells: the seam between file formats (one adapter each, see csv-table.ts) and what
 * a payment sheet or a list of bills means (read-sheet.ts, bill-sheet.ts), which never look at the format.
 */
export interface Table {
  /** The first record with content, its cells as read; empty when the file has none or could not be read. */
  header: string[];
  /** 1-based line of the header; 0 when there is none. */
  headerLine: number;
  /** Every record after the header, in order; records whose cells are all blank (`;;;;`) are skipped. */
  records: TableRecord[];
  /**
   * Why the file could not be read whole (not decodable, a quote never closed): the records are those before the
   * problem. Problems carry no file name; the caller names the file.
   */
  problems: TableProblem[];
  /** The language the format suggests, for a header whose names do not tell. */
  language: 'pt' | 'en';
  /** How the file was read; for writing rows back in kind, never for reading their meaning. */
  format: TableFormat;
}

export interface TableRecord {
  /** 1-based physical line where the record starts (a quoted cell may span several lines). */
  line: number;
  /** The cells exactly as read (quotes removed, nothing trimmed); line breaks inside cells are `\n`. */
  cells: string[];
  /** Why the cells may not line up with the header's columns (a CSV row split in the wrong places); null when they do. */
  misaligned: string | null;
}

export type TableProblem = Omit<InputProblem, 'file'>;

/** How a CSV file was read. */
export interface CsvFormat {
  readonly kind: 'csv';
  readonly encoding: SheetEncoding;
  readonly delimiter: SheetDelimiter;
}

export type TableFormat = CsvFormat;
