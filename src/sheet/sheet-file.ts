import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { InputRejectedError } from '../errors.js';
import { streamSheet, type SheetHead, type SheetRow, type StreamedSheet } from './read-sheet.js';

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
