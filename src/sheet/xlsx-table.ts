import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { StreamedTable, TableProblem, TableRecord, TableSink } from './table.js';
import { guardReader, XLSX_LIMITS, XlsxDtdError, XlsxLimitError, type XlsxLimits } from './xlsx-limits.js';
import { readPastWorksheet, worksheetRows, type WorkbookLookups } from './xlsx-rows.js';

/** The first bytes of every ZIP file, and so of every XLSX workbook. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/**
 * The XLSX adapter of the table seam, as a stream: exceljs's streaming reader unzips the workbook and reads its
 * parts, and one worksheet (the first of the workbook, or the one named `sheet`) is read row by row from its XML
 * (xlsx-rows.ts), each row going to the sink as it is parsed, so memory holds one row and the workbook's shared
 * strings, never the workbook. Lines are the worksheet's row numbers. Cells
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

/**
 * What exceljs's streaming reader gives, narrowed to what is read here: a worksheet's name and its XML bytes (its
 * rows are read by xlsx-rows.ts).
 */
interface XlsxWorksheet {
  readonly name?: string;
  readonly iterator: AsyncIterable<Uint8Array>;
}
interface XlsxWorkbook extends AsyncIterable<XlsxWorksheet>, WorkbookLookups {
  readonly model?: { sheets?: { name: string }[] };
}
/** What exceljs keeps from xl/workbook.xml and its relationships: a worksheet's name comes from them. */
interface WorkbookParts {
  model: XlsxWorkbook['model'];
  workbookRels: unknown;
  properties: unknown;
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
  // A worksheet not wanted is read to its end all the same: one exceljs parked in a temporary file (parts before
  // xl/workbook.xml) is deleted as soon as the iteration moves on, and skipped unread, the file's lazily opened
  // stream then fails to open it, an error nobody listens to (ENOENT, now and then).
  const readPast = (worksheet: XlsxWorksheet): Promise<void> => readPastWorksheet(worksheet.iterator, reader);
  for await (const worksheet of reader) {
    // Emitted before xl/workbook.xml was read: its name is exceljs's placeholder ("Sheet1"), not the tab's.
    if (!known && reader.model?.sheets === undefined) {
      unnamed = true;
      await readPast(worksheet);
      continue;
    }
    const name = worksheet.name ?? '';
    emitted.push(name);
    // The first worksheet is the workbook's first tab, whatever the order of the parts inside the file.
    const target = wanted ?? names()[0] ?? name;
    if (found || name !== target) {
      await readPast(worksheet);
      continue;
    }
    found = true;
    out.format = { kind: 'xlsx', sheet: name };
    let named = 0;
    for await (const row of worksheetRows(worksheet.iterator, reader)) {
      const { cells, numeric } = row;
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
