import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { InputRejectedError } from '../errors.js';
import { streamSheet, type SheetHead, type SheetRow, type StreamedSheet } from './read-sheet.js';
import { rowValidator, type RowProblem, type ValidRow } from './validate-rows.js';

/**
 * `streamSheet` over a file: its bytes are read in 256 KiB chunks (the file is opened again when `streamSheet` reads
 * it again from the start). A file that cannot be read (missing, a folder, a read that fails part way) is an
 * InputRejectedError naming it.
 */
export async function streamSheetFile(file: string, sinkFor: (head: SheetHead) => (row: SheetRow) => void): Promise<StreamedSheet> {
  try {
    return await streamSheet(() => createReadStream(file, { highWaterMark: 256 * 1024 }), file, sinkFor);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (typeof e.code !== 'string' || e.syscall === undefined) throw error;
    throw new InputRejectedError(`Cannot read ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
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
 */
export async function validateSheetFile(file: string, maxItemAmountCents: number, validSink: () => (row: ValidRow) => void): Promise<ValidatedSheetFile> {
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
      rejectedCount++;
      for (const p of outcome.problems) problems.push(p);
    };
  });
  return { ...streamed, rejectedCount, problems };
}

/** The SHA-256 of a file's bytes (a sheet's identity), read as a stream; an unreadable file is an InputRejectedError. */
export async function hashSheetFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) hash.update(chunk as Buffer);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new InputRejectedError(`Cannot read ${file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
  return hash.digest('hex');
}
