import { createHash } from 'node:crypto';
import { Buffer, isUtf8 } from 'node:buffer';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import { decodeWindows1252Chunk, EncodingScan, hasBom, sniffBinary, type SheetEncoding } from './decode-text.js';
import { detectDelimiter, takeSepLine, type SheetDelimiter } from './delimiter.js';
import { CsvRecords, NeedsCsvParse } from './csv-records.js';
import { isBlank, lineBreaksIn, misalignment, namedWidth, parseProblem } from './csv-table.js';
import type { SheetFileReason } from '../domain/sheet-reason.js';
import type { CsvFormat, TableProblem, TableRecord } from './table.js';

/** Where a streamed table's records go; `header` comes first (once), then every record after it, in order. */
export interface TableSink {
  header(cells: string[], line: number, format: CsvFormat, language: 'pt' | 'en'): void;
  record(record: TableRecord): void;
}

/** What the stream told once it ended (records went to the sink). */
export interface StreamedTable {
  /** SHA-256 of the bytes, hex: the sheet's identity. */
  sha256: string;
  headerLine: number;
  format: CsvFormat;
  language: 'pt' | 'en';
  /** As `Table.problems`: why the file could not be read whole; the sink got the records before the problem. */
  problems: TableProblem[];
}

// The text kept before the header is known: enough for the delimiter line of any sheet people make.
const HEADER_PREFIX_CHARS = 64 * 1024;

// Text reaches CsvRecords in pieces of at most this many bytes (so characters, and at most 64 KiB of UTF-16): a
// string over V8's largest regular object (128 KiB) is allocated page by page in its large-object space, which cost
// more than reading the records in it (decoding a 256 KiB chunk took 30 times as long as decoding it in 32 KiB pieces).
const PIECE = 32 * 1024;

class NotUtf8 extends Error {}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * `readCsvTable` as a stream, at flat memory: the bytes from `open()` are hashed, decoded and parsed, and each record
 * goes to the sink as it is read. Same records, lines, misalignments and problems as `readCsvTable`. A file that
 * turns out not to be UTF-8 is read again from the start as Windows-1252 (and refused if it
 * also has UTF-8 characters), and one whose quotes `CsvRecords` leaves to csv-parse is read again through csv-parse's
 * streaming API, each time with a new sink from `sinkFor` (so a consumer starts over).
 */
export async function streamCsvTable(open: () => AsyncIterable<Uint8Array>, sinkFor: () => TableSink): Promise<StreamedTable> {
  try {
    return await streamEncoded(open, sinkFor, 'utf-8');
  } catch (e) {
    if (!(e instanceof NotUtf8)) throw e;
    return streamEncoded(open, sinkFor, 'windows-1252');
  }
}

async function streamEncoded(open: () => AsyncIterable<Uint8Array>, sinkFor: () => TableSink, encoding: SheetEncoding): Promise<StreamedTable> {
  try {
    return await streamOnce(open, sinkFor(), encoding, false);
  } catch (e) {
    if (!(e instanceof NeedsCsvParse)) throw e;
    return streamOnce(open, sinkFor(), encoding, true);
  }
}

async function streamOnce(
  open: () => AsyncIterable<Uint8Array>,
  sink: TableSink,
  encoding: SheetEncoding,
  withCsvParse: boolean,
): Promise<StreamedTable> {
  const hash = createHash('sha256');
  const out: StreamedTable = {
    sha256: '', headerLine: 0, problems: [], language: 'pt', format: { kind: 'csv', encoding, delimiter: ';' },
  };
  // Why the bytes cannot be read as a table (not text, mixed encodings); the rest is only hashed.
  let unreadable: SheetFileReason | null = null;
  let first = true;

  // Bytes → text with "\n" line breaks only. UTF-8 stays bytes (csv-parse reads bytes; a string would be encoded again;
  // CsvRecords decodes each chunk), checked and cut at character boundaries; a "\r" or a partial character at a
  // chunk's end waits for the next chunk.
  async function* text(): AsyncGenerator<string | Buffer> {
    let pendingCr = false;
    const unify = (t: string, last: boolean): string => {
      if (pendingCr) t = `\r${t}`;
      pendingCr = !last && t.endsWith('\r');
      if (pendingCr) t = t.slice(0, -1);
      return t.includes('\r') ? t.replace(/\r\n?/g, '\n') : t;
    };
    let carry: Buffer | null = null;
    let atStart = true;
    const utf8 = (chunk: Buffer, last: boolean): Buffer => {
      let data = carry === null ? chunk : Buffer.concat([carry, chunk]);
      carry = null;
      if (!last) {
        let cut = completeUtf8Length(data);
        if (cut === data.length && data[cut - 1] === 0x0d) cut--;
        if (cut < data.length) {
          carry = Buffer.from(data.subarray(cut));
          data = data.subarray(0, cut);
        }
      }
      if (!isUtf8(data)) throw new NotUtf8();
      if (atStart && data.length > 0) {
        atStart = false;
        // As TextDecoder does, the byte order mark is not text.
        if (hasBom(data)) data = data.subarray(3);
      }
      return unifyBytes(data);
    };
    // Windows-1252: a byte order mark (a UTF-8 export with one stray byte) is not text either, and the bytes are
    // scanned for UTF-8 characters, which would make the file mixed.
    const scan = new EncodingScan();
    let start: Buffer | null = Buffer.alloc(0);
    const windows1252 = (chunk: Buffer, last: boolean): string[] => {
      let data = chunk;
      if (start !== null) {
        data = Buffer.concat([start, chunk]);
        start = null;
        if (!last && data.length < 3 && BOM.subarray(0, data.length).equals(data)) {
          start = data;
          return [];
        }
        if (hasBom(data)) data = data.subarray(3);
      }
      scan.feed(data);
      const mixed = last ? scan.end() : scan.mixed;
      if (mixed !== null) unreadable = { code: 'mixed_encoding', utf8: mixed.utf8, other: mixed.other };
      if (data.length <= PIECE) return [unify(decodeWindows1252Chunk(data), last)];
      const pieces: string[] = [];
      for (let at = 0; at < data.length; at += PIECE) {
        pieces.push(unify(decodeWindows1252Chunk(data.subarray(at, at + PIECE)), last && at + PIECE >= data.length));
      }
      return pieces;
    };
    for await (const raw of open()) {
      const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
      // The hash covers every byte, also of a file found not to be text.
      hash.update(chunk);
      if (unreadable !== null) continue;
      if (first) {
        first = false;
        unreadable = sniffBinary(chunk);
        if (unreadable !== null) continue;
      }
      if (chunk.includes(0)) {
        unreadable = { code: 'file_binary' };
        continue;
      }
      if (encoding === 'utf-8') {
        yield utf8(chunk, false);
        continue;
      }
      const pieces = windows1252(chunk, false);
      if (unreadable === null) yield* pieces;
    }
    if (unreadable !== null) return;
    if (encoding === 'utf-8') {
      yield utf8(Buffer.alloc(0), true);
      return;
    }
    const pieces = windows1252(Buffer.alloc(0), true);
    if (unreadable === null) yield* pieces;
  }

  // The header's delimiter is decided on the first HEADER_PREFIX_CHARS bytes or characters (or the whole file).
  async function* parsedText(): AsyncGenerator<string | Buffer> {
    let prefix: (string | Buffer)[] = [];
    let length = 0;
    let decided = false;
    const prefixText = (): string => prefix.map((t) => (typeof t === 'string' ? t : t.toString('utf8'))).join('');
    for await (const t of text()) {
      if (decided) {
        if (t.length > 0) yield t;
        continue;
      }
      prefix.push(t);
      length += t.length;
      if (length < HEADER_PREFIX_CHARS) continue;
      decided = true;
      yield decide(prefixText());
      prefix = [];
    }
    if (!decided && unreadable === null) yield decide(prefixText());
  }

  let delimiter: SheetDelimiter = ';';
  let failure: unknown = null;
  let parser: ReturnType<typeof parse> | null = null;
  let records: CsvRecords | null = null;
  const decide = (prefix: string): string => {
    const sep = takeSepLine(prefix);
    delimiter = sep.delimiter ?? detectDelimiter(sep.text);
    out.format = { kind: 'csv', encoding, delimiter };
    // Excel in Brazil saves CSV with `;` (`,` is the decimal mark there); with `,` or tab it is an English sheet.
    out.language = delimiter === ';' ? 'pt' : 'en';
    if (!withCsvParse) {
      records = new CsvRecords(delimiter, onRecord);
      return sep.text;
    }
    parser = parse({ delimiter, record_delimiter: '\n', relax_column_count: true, relax_quotes: true });
    parser.on('error', (e) => {
      failure ??= e;
    });
    // 'data' in flowing mode hands each record over as csv-parse pushes it, so the records before an error (which
    // destroys the stream and its buffer) are all seen.
    parser.on('data', onRecord);
    return sep.text;
  };

  let line = 1;
  let named = 0;
  let headerLength = 0;
  const onRecord = (record: string[]): void => {
    const start = line;
    line += lineBreaksIn(record) + 1;
    if (isBlank(record)) return;
    if (out.headerLine === 0) {
      out.headerLine = start;
      named = namedWidth(record);
      headerLength = record.length;
      sink.header(record, start, out.format, out.language);
      return;
    }
    sink.record({ line: start, cells: record, misaligned: misalignment(record, named, headerLength, delimiter) });
  };

  // Text flows into the parser with backpressure; the parser is created once the delimiter is known.
  try {
    for await (const chunk of parsedText()) {
      const r = records as CsvRecords | null;
      if (r !== null) {
        writePieces(r, chunk);
        continue;
      }
      const p = parser as ReturnType<typeof parse> | null;
      if (p === null) continue;
      if (failure === null && !p.write(chunk) && failure === null) await once(p, 'drain');
      if (failure !== null) throw failure;
    }
    (records as CsvRecords | null)?.end();
    const p = parser as ReturnType<typeof parse> | null;
    if (p !== null) {
      p.end();
      await finished(p);
    }
    if (failure !== null) throw failure;
  } catch (e) {
    if (e instanceof NotUtf8 || e instanceof NeedsCsvParse) throw e;
    if (!(e instanceof CsvError)) throw e;
    // Rare: the problem's line needs the text after the last record, so the file is read once more (and hashed
    // whole from those bytes: the parser may have stopped before the end).
    const all = await allBytes(open);
    out.problems.push(parseProblem(e, textOf(all, encoding), line));
    out.sha256 = createHash('sha256').update(all).digest('hex');
  }
  if (unreadable !== null) {
    // As `readCsvTable`: a file that cannot be read has no header, and the format and language of none (records
    // before a late NUL byte or a late UTF-8 character went to the sink).
    out.headerLine = 0;
    out.format = { kind: 'csv', encoding: 'utf-8', delimiter: ';' };
    out.language = 'pt';
    out.problems.push({ reason: unreadable });
  }
  if (out.sha256 === '') out.sha256 = hash.digest('hex');
  return out;
}

/** Text to the record reader in pieces of at most PIECE bytes or characters; UTF-8 is cut before a character's first byte. */
function writePieces(records: CsvRecords, chunk: string | Buffer): void {
  if (typeof chunk === 'string') {
    if (chunk.length <= PIECE) records.write(chunk);
    else for (let at = 0; at < chunk.length; at += PIECE) records.write(chunk.slice(at, at + PIECE));
    return;
  }
  for (let at = 0; at < chunk.length; ) {
    let end = Math.min(at + PIECE, chunk.length);
    while (end < chunk.length && ((chunk[end] as number) & 0xc0) === 0x80) end--;
    records.write(chunk.toString('utf8', at, end));
    at = end;
  }
}

async function allBytes(open: () => AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of open()) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** The whole text as `readCsvTable` parses it. */
function textOf(bytes: Buffer, encoding: SheetEncoding): string {
  const text = encoding === 'utf-8' ? new TextDecoder('utf-8').decode(bytes) : decodeWindows1252Chunk(bytes);
  return takeSepLine(text.replace(/\r\n?/g, '\n')).text;
}

/** The length of the bytes up to the last complete UTF-8 character (a partial one at the end is left out). */
function completeUtf8Length(data: Buffer): number {
  for (let i = data.length - 1; i >= 0 && i >= data.length - 4; i--) {
    const byte = data[i] as number;
    if ((byte & 0xc0) === 0x80) continue;
    if (byte < 0xc0) return data.length;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return data.length - i < needed ? i : data.length;
  }
  return data.length;
}

/** The bytes with every "\r\n" and lone "\r" made "\n". */
function unifyBytes(bytes: Buffer): Buffer {
  let at = bytes.indexOf(0x0d);
  if (at < 0) return bytes;
  const out = Buffer.allocUnsafe(bytes.length);
  let length = 0;
  let from = 0;
  while (at >= 0) {
    length += bytes.copy(out, length, from, at);
    out[length++] = 0x0a;
    from = at + 1;
    if (bytes[from] === 0x0a) from++;
    at = bytes.indexOf(0x0d, from);
  }
  length += bytes.copy(out, length, from);
  return out.subarray(0, length);
}
