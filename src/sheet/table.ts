import type { SheetEncoding } from './decode-text.js';
import type { SheetDelimiter } from './delimiter.js';
import type { RowReason, SheetProblem } from '../domain/sheet-reason.js';

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
  /** How the file was read; for writing rows back in kind, never for reading their meaning. Whole tables are CSV. */
  format: CsvFormat;
}

export interface TableRecord {
  /** 1-based physical line where the record starts (a quoted cell may span several lines). */
  line: number;
  /** The cells exactly as read (quotes removed, nothing trimmed); line breaks inside cells are `\n`. */
  cells: string[];
  /** Why the cells may not line up with the header's columns (a CSV row split in the wrong places); null when they do. */
  misaligned: RowReason | null;
  /**
   * 0-based indexes of the cells a workbook stored as numbers and shown without a zero-padding format: their digits
   * may have lost leading zeros (a CPF typed as a number). Absent for formats without number cells (CSV).
   */
  numeric?: readonly number[];
}

export type TableProblem = Omit<SheetProblem, 'file'>;

/** How a CSV file was read. */
export interface CsvFormat {
  readonly kind: 'csv';
  readonly encoding: SheetEncoding;
  readonly delimiter: SheetDelimiter;
}

/** How an XLSX workbook was read: the worksheet whose rows were taken. */
export interface XlsxFormat {
  readonly kind: 'xlsx';
  readonly sheet: string;
}

/** How a CNAB 240 remittance was read: the layout its records were read with (src/sheet/cnab240/layouts.ts). */
export interface Cnab240Format {
  readonly kind: 'cnab240';
  readonly layout: string;
}

export type TableFormat = CsvFormat | XlsxFormat | Cnab240Format;

/** Where a streamed table's records go; `header` comes first (once), then every record after it, in order. */
export interface TableSink {
  header(cells: string[], line: number, format: TableFormat, language: 'pt' | 'en'): void;
  record(record: TableRecord): void;
}

/** What a table read as a stream told once it ended (its records went to the sink). */
export interface StreamedTable {
  /** SHA-256 of the file's bytes, hex: the sheet's identity. */
  sha256: string;
  headerLine: number;
  format: TableFormat;
  language: 'pt' | 'en';
  /** As `Table.problems`: why the file could not be read whole; the sink got the records before the problem. */
  problems: TableProblem[];
}

/**
 * Reads a file's bytes from `open()` as a stream of records into the sink `sinkFor` makes; `sinkFor` is called again
 * when the reader has to start over from the first byte (so a consumer starts over too).
 */
export type TableStreamer = (open: () => AsyncIterable<Uint8Array>, sinkFor: () => TableSink) => Promise<StreamedTable>;
