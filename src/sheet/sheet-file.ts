import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { InputRejectedError, UsageError } from '../errors.js';
import { lostZerosReason } from './number-cells.js';
import { streamSheet, type SheetHead, type SheetRow, type StreamedSheet } from './read-sheet.js';
import { tableStreamer, type SheetFormatChoice } from './read-table.js';
import { rowValidator, type RowProblem, type ValidRow } from './validate-rows.js';
import { isZip } from './xlsx-table.js';
import { CNAB_LINE, looksLikeCnab240 } from './cnab240/read-remittance.js';
import type { TableStreamer } from './table.js';

/** How a sheet file is read beyond its bytes. */
export interface SheetFileOptions {
  /** The worksheet of an XLSX workbook to read (default: the first); refused for a CSV file. */
  readonly sheet?: string;
  /** The CNAB 240 layout the profile pins (`cnabLayout`), for a remittance. */
  readonly cnabLayout?: string;
  /** The provider takes a remittance's payments to account data (`pixByAccount`): they are rows, not refusals. */
  readonly accountsAccepted?: boolean;
  /** `cnab240`: read the file as a CNAB 240 remittance whatever its first line (absent: its content tells). */
  readonly format?: 'cnab240';
  /** Today in São Paulo (YYYY-MM-DD), for a remittance: a title due before it is refused. */
  readonly today?: string;
  /** How the file is read when the caller decides it (an import reads a remittance with the identifiers it chose). */
  readonly table?: TableStreamer;
}

/**
 * `streamSheet` over a file: its bytes are read in 256 KiB chunks (the file is opened again when `streamSheet` reads
 * it again from the start). An XLSX workbook (named .xlsx/.xlsm, or ZIP bytes whatever its name) is read by the
 * workbook reader, anything else as CSV. A file that cannot be read (missing, a folder, a read that fails part way)
 * is an InputRejectedError naming it.
 */
export async function streamSheetFile(
  file: string,
  sinkFor: (head: SheetHead) => (row: SheetRow) => void,
  o: SheetFileOptions = {},
): Promise<StreamedSheet> {
  try {
    const streamer = o.table ?? tableStreamer(await sheetFormat(file, o));
    return await streamSheet(() => createReadStream(file, { highWaterMark: 256 * 1024 }), file, sinkFor, streamer);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (typeof e.code !== 'string' || e.syscall === undefined) throw error;
    throw new InputRejectedError(`Cannot read ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`, [], { reason: { code: 'file_unreadable', file, error: e.message } });
  }
}

/** A sheet file read through the offline rules: what streamSheetFile gives, and every row problem. */
export interface ValidatedSheetFile extends StreamedSheet {
  readonly rejectedCount: number;
  readonly problems: readonly RowProblem[];
}

/**
 * Streams a sheet file through the offline rules, handing each valid row (typed values, not cells) to the sink
 * `validSink` returns and keeping only the problems: memory holds what the caller keeps. `validSink` is called again
 * when the reader starts the file over. Rows of a sheet with sheet-level problems are not validated.
 * `onFirstProblem` is told when the first invalid row is met (an import that will be refused stops its lookups).
 */
export async function validateSheetFile(
  file: string,
  maxItemAmountCents: number,
  validSink: () => (row: ValidRow) => void,
  onFirstProblem?: () => void,
  o: SheetFileOptions = {},
): Promise<ValidatedSheetFile> {
  let problems: RowProblem[] = [];
  let rejectedCount = 0;
  const streamed = await streamSheetFile(file, (head) => {
    problems = [];
    rejectedCount = 0;
    const onValid = validSink();
    const validate = head.problems.length ? null : rowValidator(head, { maxItemAmountCents });
    return (row) => {
      if (validate === null) return;
      const outcome = validate(row);
      if (outcome.valid !== null) return onValid(outcome.valid);
      if (rejectedCount++ === 0) onFirstProblem?.();
      for (const p of outcome.problems) problems.push(p);
      if (row.numericFields !== undefined) explainLostZeros(head, row, problems);
    };
  }, o);
  return { ...streamed, rejectedCount, problems };
}

/**
 * The format a sheet file is read in: its first bytes decide (a ZIP, a CNAB 240 file header), then its extension
 * (a .xlsx that is no ZIP is told so).
 */
export async function sheetFormat(file: string, o: SheetFileOptions = {}): Promise<SheetFormatChoice> {
  const cnab = {
    kind: 'cnab240',
    ...(o.cnabLayout === undefined ? {} : { layout: o.cnabLayout }),
    ...(o.today === undefined ? {} : { today: o.today }),
    ...(o.accountsAccepted ? { accountsAccepted: true } : {}),
  } as const;
  if (o.format === 'cnab240') return cnab;
  // Room for a header line whose name has accents in UTF-8 (up to 2 bytes a position) and its line end.
  const first = new Uint8Array(2 * CNAB_LINE + 2);
  const handle = await open(file, 'r');
  let read = 0;
  try {
    read = (await handle.read(first, 0, first.length, 0)).bytesRead;
  } finally {
    await handle.close();
  }
  if (looksLikeCnab240(first.subarray(0, read))) {
    if (o.sheet !== undefined) throw new UsageError(`--sheet names a worksheet of an XLSX workbook, but ${file} is a CNAB 240 remittance, which has none.`);
    return cnab;
  }
  const xlsx = isZip(first) || ['.xlsx', '.xlsm'].includes(extname(file).toLowerCase());
  if (!xlsx && o.sheet !== undefined) {
    throw new UsageError(`--sheet names a worksheet of an XLSX workbook, but ${file} is read as CSV, which has none.`);
  }
  return xlsx ? { kind: 'xlsx', sheet: o.sheet } : { kind: 'csv' };
}

/**
 * A key or document cell stored as a number with too few digits is rejected because Excel dropped its zeros: the
 * rule's own reason for that field ("not a valid CPF") is replaced by the one that says so and what to do.
 */
function explainLostZeros(head: SheetHead, row: SheetRow, problems: RowProblem[]): void {
  for (const field of row.numericFields ?? []) {
    const reason = lostZerosReason(row, field);
    const index = head.columns[field];
    if (reason === null || index === undefined) continue;
    const label = (head.header[index] ?? '').trim();
    for (let i = problems.length - 1; i >= 0 && problems[i]!.line === row.line; i--) {
      if (problems[i]!.field === label) problems[i] = { ...problems[i]!, reason };
    }
  }
}

/** The SHA-256 of a file's bytes (a sheet's identity), read as a stream; an unreadable file is an InputRejectedError. */
export async function hashSheetFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) hash.update(chunk as Buffer);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new InputRejectedError(`Cannot read ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`, [], { reason: { code: 'file_unreadable', file, error: e.message } });
  }
  return hash.digest('hex');
}
