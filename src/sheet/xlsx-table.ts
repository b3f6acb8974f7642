import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { StreamedTable, TableProblem, TableRecord, TableSink } from './table.js';
import { guardReader, XLSX_LIMITS, XlsxDtdError, XlsxLimitError, type XlsxLimits } from './xlsx-limits.js';

/** The first bytes of every ZIP file, and so of every XLSX workbook. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/**
 * The XLSX adapter of the table seam, as a stream: one worksheet (the first of the workbook, or the one named
 * `sheet`) is read row by row with exceljs's streaming reader, each row going to the sink as it is parsed, so memory
 * holds one row and the workbook's shared strings, never the workbook. Lines are the worksheet's row numbers. Cells
 * become the text Excel shows for them: text as typed, numbers as their digits (or through a zero-padding format such
 * as `00000000000` or `000\.000\.000\-00`, as shown), dates as DD/MM/YYYY (YYYY-MM-DD for a year-first format),
 * a formula as its last computed result. The bytes are hashed as they are read: the sheet's identity. A workbook
 * past one of `limits` (default XLSX_LIMITS) is refused as soon as the reading passes it.
 */
export async function streamXlsxTable(
  open: () => AsyncIterable<Uint8Array>,
  sinkFor: () => TableSink,
  o: { readonly sheet?: string; readonly limits?: Partial<XlsxLimits> },
): Promise<StreamedTable> {
  const limits = { ...XLSX_LIMITS, ...o.limits };
  const out: StreamedTable = { sha256: '', headerLine: 0, problems: [], language: 'pt', format: { kind: 'xlsx', sheet: o.sheet ?? '' } };
  const hash = createHash('sha256');
  const source = open()[Symbol.asyncIterator]();
  let ended = false;
  const pull = async (): Promise<Uint8Array | null> => {
    const next = await source.next();
    if (next.done) {
      ended = true;
      return null;
    }
    hash.update(next.value);
    return next.value;
  };
  const first = await pull();
  if (first === null || !isZip(first)) {
    while ((await pull()) !== null);
    out.problems.push({ reason: { code: 'xlsx_not_zip' } });
    out.sha256 = hash.digest('hex');
    return out;
  }
  const bytes = Readable.from(
    (async function* () {
      yield first;
      for (let chunk = await pull(); chunk !== null; chunk = await pull()) yield chunk;
    })(),
  );
  try {
    const parts = await readWorksheet(bytes, sinkFor(), o.sheet, out, limits);
    if (parts) await readWorksheet(Readable.from(open()), sinkFor(), o.sheet, out, limits, parts);
  } catch (error) {
    out.headerLine = 0;
    const e = error as Error;
    out.problems.push({
      reason: e instanceof XlsxLimitError ? { code: 'xlsx_too_large', limit: e.limit, max: e.max } : e instanceof XlsxDtdError ? { code: 'xlsx_dtd' } : { code: 'xlsx_damaged', error: e.message },
    });
  } finally {
    bytes.destroy();
  }
  if (ended) {
    out.sha256 = hash.digest('hex');
  } else {
    // The reader stopped before the last byte (a damaged file): the identity is still the hash of every byte.
    const whole = createHash('sha256');
    for await (const chunk of open()) whole.update(chunk);
    out.sha256 = whole.digest('hex');
  }
  return out;
}

/** What exceljs's streaming reader gives, narrowed to what is read here. */
interface XlsxCell {
  readonly value: unknown;
  readonly numFmt?: string;
}
interface XlsxRow {
  readonly number: number;
  eachCell(callback: (cell: XlsxCell, column: number) => void): void;
}
interface XlsxWorksheet extends AsyncIterable<XlsxRow> {
  readonly name?: string;
}
interface XlsxWorkbook extends AsyncIterable<XlsxWorksheet> {
  readonly model?: { sheets?: { name: string }[] };
}
/** What exceljs keeps from xl/workbook.xml and its relationships: a worksheet's name comes from them. */
interface WorkbookParts {
  model: XlsxWorkbook['model'];
  workbookRels: unknown;
  properties: unknown;
}

/**
 * Reads a worksheet that is not wanted to its end. A worksheet exceljs parked in a temporary file (parts before
 * xl/workbook.xml) is deleted as soon as the iteration moves on: skipped unread, the file's lazily opened stream
 * then fails to open it, an error nobody listens to (ENOENT, now and then).
 */
async function drain(worksheet: AsyncIterable<unknown>): Promise<void> {
  for await (const _row of worksheet) {
    // nothing to keep
  }
}

/**
 * Streams the wanted worksheet (default: the first tab) to the sink. A zip may hold xl/workbook.xml, where the
 * worksheets' names are, after the worksheets themselves (exceljs then knows no name, and would fail on its empty
 * model): such a workbook is read to its end once, and what it said is returned for a second reading that knows it.
 */
async function readWorksheet(
  bytes: Readable,
  sink: TableSink,
  wanted: string | undefined,
  out: StreamedTable,
  limits: XlsxLimits,
  known?: WorkbookParts,
): Promise<WorkbookParts | null> {
  const { default: ExcelJS } = await import('exceljs');
  // Styles are read for the number formats (dates, zero padding); hyperlinks keep their shown text as the value.
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(bytes, {
    worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore',
  }) as unknown as XlsxWorkbook & WorkbookParts;
  guardReader(reader, limits);
  Object.assign(reader, known ?? { model: {}, properties: {} });
  let found = false;
  let unnamed = false;
  const emitted: string[] = [];
  const names = (): string[] => reader.model?.sheets?.map((s) => s.name) ?? emitted;
  for await (const worksheet of reader) {
    // Emitted before xl/workbook.xml was read: its name is exceljs's placeholder ("Sheet1"), not the tab's.
    if (!known && reader.model?.sheets === undefined) {
      unnamed = true;
      await drain(worksheet);
      continue;
    }
    const name = worksheet.name ?? '';
    emitted.push(name);
    // The first worksheet is the workbook's first tab, whatever the order of the parts inside the file.
    const target = wanted ?? names()[0] ?? name;
    if (found || name !== target) {
      await drain(worksheet);
      continue;
    }
    found = true;
    out.format = { kind: 'xlsx', sheet: name };
    let named = 0;
    for await (const row of worksheet) {
      const { cells, numeric } = rowCells(row);
      if (cells.every((c) => c.trim() === '')) continue;
      if (out.headerLine === 0) {
        out.headerLine = row.number;
        named = cells.length;
        sink.header(cells, row.number, out.format, out.language);
        continue;
      }
      while (cells.length < named) cells.push('');
      const record: TableRecord = { line: row.number, cells, misaligned: null };
      if (numeric.length) record.numeric = numeric;
      sink.record(record);
    }
  }
  if (unnamed) return { model: reader.model, workbookRels: reader.workbookRels, properties: reader.properties };
  if (!found) out.problems.push(missingSheet(wanted, names()));
  return null;
}

function missingSheet(wanted: string | undefined, seen: readonly string[]): TableProblem {
  if (seen.length === 0) return { reason: { code: 'xlsx_no_worksheet' } };
  return { field: 'sheet', reason: { code: 'xlsx_no_worksheet_named', wanted: wanted ?? '', seen } };
}

function rowCells(row: XlsxRow): { cells: string[]; numeric: number[] } {
  const cells: string[] = [];
  const numeric: number[] = [];
  row.eachCell((cell, column) => {
    while (cells.length < column - 1) cells.push('');
    const shown = cellText(cell.value, cell.numFmt);
    cells[column - 1] = shown.text;
    if (shown.numeric) numeric.push(column - 1);
  });
  return { cells, numeric };
}

/** A cell's text as the sheet shows it; `numeric` when it is a number shown without zero padding. */
export function cellText(value: unknown, numFmt: string | undefined): { text: string; numeric: boolean } {
  if (value === null || value === undefined) return { text: '', numeric: false };
  if (typeof value === 'string') return { text: value, numeric: false };
  if (typeof value === 'number') {
    if (numFmt !== undefined && isDateFormat(numFmt)) return { text: dateText(serialDate(value), numFmt), numeric: false };
    const padded = numFmt === undefined ? null : zeroPadded(value, numFmt);
    return padded === null ? { text: plainNumber(value), numeric: true } : { text: padded, numeric: false };
  }
  if (typeof value === 'boolean') return { text: value ? 'TRUE' : 'FALSE', numeric: false };
  if (value instanceof Date) return { text: dateText(value, numFmt ?? ''), numeric: false };
  const v = value as { richText?: { text: string }[]; result?: unknown; formula?: string; text?: unknown; error?: string };
  if (Array.isArray(v.richText)) return { text: v.richText.map((r) => r.text).join(''), numeric: false };
  if ('formula' in v || 'sharedFormula' in v) return cellText(v.result, numFmt);
  if (typeof v.error === 'string') return { text: v.error, numeric: false };
  if (typeof v.text === 'string') return { text: v.text, numeric: false };
  return { text: '', numeric: false };
}

/** A number as Excel keeps it: at most 15 significant digits (so 0.1 + 0.2 is 0.3), never in exponent form below 1e21. */
function plainNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  // Most amounts (6825.84) already have at most 15 significant digits: their shortest text is the 15-digit one.
  const shortest = String(value);
  if (shortest.length <= 16 && !shortest.includes('e')) return shortest;
  return String(Number(value.toPrecision(15)));
}

/** An Excel date serial (days since 1899-12-30, the time of day as the fraction) as a UTC wall clock. */
function serialDate(serial: number): Date {
  return new Date(Math.round((serial - 25569) * 86_400_000));
}

/** A date cell's wall date (exceljs gives it as UTC), day first unless the format puts the year first. */
function dateText(date: Date, numFmt: string): string {
  const minute = new Date(Math.round(date.getTime() / 60_000) * 60_000).toISOString();
  const ymd = minute.slice(0, 10);
  const hm = minute.slice(11, 16);
  // The cell's text as the workbook shows it: 2026-11-23 or 23/11/2026 (not words for people: data read from the sheet).
  const day = /^y/i.test(formatCodes(numFmt).trim()) ? ymd : ymd.split('-').reverse().join('/');
  return hm === '00:00' ? day : `${day} ${hm}`;
}

/** A number format without its literal text ("…", \x) and its [colour]/[$R$-416] sections. */
function formatCodes(numFmt: string): string {
  return numFmt.replace(/"[^"]*"|\\.|\[[^\]]*\]/g, '');
}

function isDateFormat(numFmt: string): boolean {
  return /[dmy]/i.test(formatCodes(numFmt));
}

/**
 * A whole number through a format made only of `0` placeholders and literal text (`00000000000`,
 * `000.000.000-00`, `000\.000\.000\-00`, `00000"-"000`): the digits, zero padded, as the sheet shows them; null for
 * any other format (`#` drops zeros, `,` groups thousands, a single `.` without `-` or `/` is a decimal mark as in
 * `0.00`) or a number that does not fit.
 */
function zeroPadded(value: number, numFmt: string): string | null {
  if (!Number.isInteger(value) || value < 0 || !/^(?:0|\\.|"[^"]*"|[-/(). ])+$/.test(numFmt)) return null;
  const literal = numFmt.replace(/"[^"]*"|\\./g, '');
  if ((literal.match(/\./g) ?? []).length === 1 && !/[-/]/.test(literal)) return null;
  const placeholders = literal.replace(/[^0]/g, '').length;
  const digits = String(value);
  if (placeholders < 2 || digits.length > placeholders) return null;
  const padded = digits.padStart(placeholders, '0');
  let at = 0;
  return numFmt.replace(/"([^"]*)"|\\(.)|0|./g, (token, quoted: string | undefined, escaped: string | undefined) => {
    if (quoted !== undefined) return quoted;
    if (escaped !== undefined) return escaped;
    return token === '0' ? (padded[at++] as string) : token;
  });
}
