import { Readable } from 'node:stream';

/**
 * What a workbook may hold before paybatch refuses to read it. A workbook is a ZIP of XML parts: a few hundred KB
 * can inflate to gigabytes, and the reader holds whole the text of a cell, the row being read, every shared string
 * and the styles. Each part's bytes are counted as they are inflated, before exceljs parses them, so a limit stops
 * the reading before the memory is spent: a workbook past one is refused before `import --check` passes ~180 MiB
 * (a 400 MB shared string took 960 MiB). Payment sheets stay well within them; a larger sheet reads as CSV, which is
 * streamed without these costs.
 */
// Its keys are the domain's XlsxLimitName (the reasons name a limit): xlsx-table.ts's refusal checks they agree.
export interface XlsxLimits {
  /** Characters of a cell's text or of a shared string (and elements in it: runs of rich text): 32,767, Excel's own. */
  readonly cellChars: number;
  /** Characters of the text of a row's cells, held until the row ends: 1 Mi, where a payment row has a few hundred. */
  readonly rowChars: number;
  /**
   * Rows of a worksheet: 250,000, a quarter of Excel's 1,048,576. The import keeps a little for every row: checking
   * 250,000 short rows took 150–180 MiB and a million 280 MiB when exceljs also made objects for every cell.
   */
  readonly rows: number;
  /** Column descriptions (`<col>`) of a worksheet, each kept by exceljs: 16,384, Excel's number of columns. */
  readonly columns: number;
  /**
   * Inflated bytes of xl/sharedStrings.xml, whose strings all stay in memory while the worksheet is read: 16 MiB, the
   * text of some 140,000 rows of a payment sheet with three text columns (100,000 rows take 11 MB).
   */
  readonly sharedStringsBytes: number;
  /** Inflated bytes of a worksheet, streamed: 128 MiB (100,000 payment rows take 20 MB); bounds a ZIP bomb's time. */
  readonly worksheetBytes: number;
  /** Inflated bytes of another part parsed whole (workbook, relationships, styles): 8 MiB, where Excel writes kilobytes. */
  readonly partBytes: number;
}

const MiB = 1024 * 1024;

export const XLSX_LIMITS: XlsxLimits = {
  cellChars: 32_767,
  rowChars: MiB,
  rows: 250_000,
  columns: 16_384,
  sharedStringsBytes: 16 * MiB,
  worksheetBytes: 128 * MiB,
  partBytes: 8 * MiB,
};

/** A workbook past one of its limits: which, and its value. */
export class XlsxLimitError extends Error {
  constructor(
    readonly limit: keyof XlsxLimits,
    readonly max: number,
  ) {
    super(`the workbook is past its limit ${limit} of ${max}`);
  }
}

/** A workbook part with a DTD (`<!DOCTYPE`): Office Open XML allows none, and its entities could expand text past any count. */
export class XlsxDtdError extends Error {
  constructor() {
    super('the workbook holds a DTD (<!DOCTYPE), which Office Open XML does not allow');
  }
}

/** The methods of exceljs's WorkbookReader (4.4) that each part's inflated bytes go through. */
interface PartParsers {
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(bytes: AsyncIterable<Uint8Array>, sheetNo: string): Generator<unknown>;
}

/**
 * Puts every part exceljs's reader parses through a scanner of `limits`, and keeps the shared strings compactly. A
 * worksheet met before the parts it needs is first copied by exceljs to a temporary file, unscanned (disk, not
 * memory); it is scanned as it is read back.
 */
export function guardReader(reader: object, limits: XlsxLimits): void {
  const r = reader as PartParsers;
  const scanned = (entry: Readable, size: BytesLimit): Readable => Readable.from(scan(entry, limits, size));
  for (const parse of ['_parseRels', '_parseWorkbook', '_parseStyles', '_parseSharedStrings'] as const) {
    const original = r[parse].bind(r) as (entry: Readable) => never;
    const size = parse === '_parseSharedStrings' ? 'sharedStringsBytes' : 'partBytes';
    r[parse] = (entry) => original(scanned(entry, size));
  }
  const worksheet = r._parseWorksheet.bind(r);
  r._parseWorksheet = (bytes, sheetNo) => worksheet(scan(bytes, limits, 'worksheetBytes'), sheetNo);
  // exceljs starts its cache of shared strings as an array it pushes each string to, and the rows (xlsx-rows.ts) look
  // them up by index: a string of its own would cost some 40 bytes beyond its text, more than most cells'.
  let table: SharedStrings | undefined;
  Object.defineProperty(reader, 'sharedStrings', {
    get: () => table,
    set: () => {
      table = new SharedStrings();
    },
  });
}

/** Strings kept as pages of about 64K characters, and where each string ends in its page. */
class SharedStrings {
  readonly #pages: string[] = [];
  /** The index of each page's first string. */
  readonly #firsts: number[] = [];
  #ends = new Uint32Array(1024);
  #count = 0;
  #pending: string[] = [];
  #length = 0;
  /** The page of the last string looked up: a row's strings are mostly neighbours. */
  #page = 0;

  /** A string as exceljs gives it: its text, runs of formatted text (rich text), or null when empty. */
  push(value: unknown): void {
    const runs = (value as { richText?: { text?: string | null }[] } | null)?.richText;
    const text = typeof value === 'string' ? value : (runs ?? []).map((run) => run.text ?? '').join('');
    if (this.#count === this.#ends.length) {
      const ends = new Uint32Array(this.#count * 2);
      ends.set(this.#ends);
      this.#ends = ends;
    }
    this.#pending.push(text);
    this.#ends[this.#count++] = this.#length += text.length;
    if (this.#length >= 65_536 || this.#pending.length >= 4096) this.#endPage();
  }

  /** The string at `index` (an integer), or undefined (NaN, an index past the last). */
  at(index: number): string | undefined {
    if (!(index >= 0 && index < this.#count && Number.isInteger(index))) return undefined;
    this.#endPage();
    const firsts = this.#firsts;
    let page = this.#page;
    if (!(firsts[page]! <= index && (page + 1 === firsts.length || index < firsts[page + 1]!))) {
      page = 0;
      for (let hi = firsts.length - 1; page < hi; ) {
        const mid = (page + hi + 1) >> 1;
        if (firsts[mid]! <= index) page = mid;
        else hi = mid - 1;
      }
      this.#page = page;
    }
    const start = index === firsts[page] ? 0 : this.#ends[index - 1]!;
    return this.#pages[page]!.slice(start, this.#ends[index]);
  }

  #endPage(): void {
    if (this.#pending.length === 0) return;
    this.#firsts.push(this.#count - this.#pending.length);
    this.#pages.push(this.#pending.join(''));
    this.#pending = [];
    this.#length = 0;
  }
}

type BytesLimit = 'worksheetBytes' | 'sharedStringsBytes' | 'partBytes';

/**
 * A part's inflated bytes, passed on until they pass a limit (XlsxLimitError), cut between characters: exceljs
 * decodes each piece on its own, which turns a character split between two pieces into two U+FFFD ("Jo��o").
 */
async function* scan(bytes: AsyncIterable<Uint8Array>, limits: XlsxLimits, size: BytesLimit): AsyncGenerator<Buffer> {
  const check = xmlScanner(limits, size);
  let carried: Buffer = Buffer.alloc(0);
  for await (const chunk of bytes) {
    check(chunk);
    const whole = carried.length
      ? Buffer.concat([carried, chunk])
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const end = wholeCharacters(whole);
    carried = whole.subarray(end);
    if (end) yield whole.subarray(0, end);
  }
  if (carried.length) yield carried;
}

/** How many of the bytes make whole UTF-8 characters: all but a sequence the last bytes begin and do not end. */
function wholeCharacters(bytes: Uint8Array): number {
  for (let i = bytes.length - 1; i >= Math.max(0, bytes.length - 4); i--) {
    const b = bytes[i]!;
    if ((b & 0xc0) === 0x80) continue;
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return i + length > bytes.length ? i : bytes.length;
  }
  return bytes.length;
}

// Where the scanner is: in text, after "<", in a tag's name, among its attributes (maybe in quotes), in an entity
// (&amp;), after "<!", in a comment, in CDATA, in a processing instruction (<?xml … ?>).
const TEXT = 0, OPEN = 1, NAME = 2, ATTRIBUTES = 3, QUOTED = 4;
const ENTITY = 5, BANG = 6, COMMENT = 7, CDATA = 8, INSTRUCTION = 9;
/** The names counted, as the number their bytes make (the scanner makes a longer name -1). */
const code = (name: string): number => [...name].reduce((n, c) => n * 256 + c.charCodeAt(0), 0);
const C = code('c'), SI = code('si'), ROW = code('row'), COL = code('col');

/**
 * A scanner of an XML part's bytes, chunk by chunk, that throws as soon as they pass a limit: the part's size; the
 * text of a cell (`<c>`, `<si>`) and of a row, in characters (UTF-16 units, as Excel counts them); the elements in a
 * cell, and any other run of text, tag, comment or entity (the XML parser holds each whole), to a cell's limit; rows
 * and `<col>`s. A DTD is refused (XlsxDtdError).
 */
function xmlScanner(limits: XlsxLimits, size: BytesLimit): (chunk: Uint8Array) => void {
  let at = TEXT;
  let bytes = 0;
  let markup = 0; // bytes of the tag, comment, instruction or entity being read
  let run = 0; // characters of text outside any cell since the last tag
  let cell = -1; // characters of the open cell's (or shared string's) text; -1 outside one
  let elements = 0; // in the open cell
  let row = -1; // characters of the text of the open row's cells; -1 before a row (in shared strings)
  let rows = 0;
  let columns = 0;
  let name = 0;
  let nameBytes = 0;
  let closing = false;
  let quote = 0;
  let previous = 0;
  let expected = ''; // after "<!": "--" (a comment) or "[CDATA[", of which `ending` bytes were seen
  let ending = 0; // then how much of the end of a comment ("--") or CDATA ("]]") was seen
  const over = (limit: keyof XlsxLimits, value: number): void => {
    if (value > limits[limit]) throw new XlsxLimitError(limit, limits[limit]);
  };
  const text = (units: number): void => {
    if (cell < 0) return over('cellChars', (run += units));
    over('cellChars', (cell += units));
    if (row >= 0) over('rowChars', (row += units));
  };
  const endTag = (): void => {
    at = TEXT;
    if (closing) {
      if (name === C || name === SI) cell = -1;
    } else if (cell >= 0) {
      over('cellChars', ++elements); // runs of rich text are kept until the cell ends, however empty
    } else if (name === ROW) {
      over('rows', ++rows);
      row = 0;
    } else if (name === COL) {
      over('columns', ++columns);
    } else if ((name === C || name === SI) && previous !== 0x2f) {
      cell = 0;
      elements = 0;
    }
  };
  return (chunk) => {
    over(size, (bytes += chunk.length));
    for (let i = 0; i < chunk.length; ) {
      if (at === TEXT) {
        // The text up to the next tag or entity, in one count: most of a part's bytes.
        let units = 0;
        for (; i < chunk.length && chunk[i] !== 0x3c && chunk[i] !== 0x26; i++) {
          const b = chunk[i]!;
          // The first byte of each UTF-8 sequence; one of four bytes is a surrogate pair.
          if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
        }
        if (units) text(units);
        if (i === chunk.length) break;
        markup = 1;
        if (chunk[i++] === 0x3c) {
          at = OPEN;
          run = 0;
        } else {
          at = ENTITY;
          text(1);
        }
        continue;
      }
      const b = chunk[i++]!;
      if (at === CDATA) {
        if (b === 0x3e && ending >= 2) at = TEXT;
        else if ((b & 0xc0) !== 0x80) text(1);
        ending = b === 0x5d ? ending + 1 : 0;
        continue;
      }
      if (++markup > limits.cellChars) throw new XlsxLimitError('cellChars', limits.cellChars);
      switch (at) {
        case ENTITY:
          if (b === 0x3b) at = TEXT;
          break;
        case OPEN:
          closing = b === 0x2f;
          name = closing ? 0 : b;
          nameBytes = closing ? 0 : 1;
          at = b === 0x21 ? BANG : b === 0x3f ? INSTRUCTION : NAME;
          expected = '';
          ending = 0;
          break;
        case NAME:
          if (b === 0x3e) endTag();
          else if (b === 0x2f || b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) at = ATTRIBUTES;
          else name = ++nameBytes > 3 ? -1 : name * 256 + b;
          break;
        case ATTRIBUTES:
          if (b === 0x3e) endTag();
          else if (b === 0x22 || b === 0x27) {
            at = QUOTED;
            quote = b;
          }
          break;
        case QUOTED:
          if (b === quote) at = ATTRIBUTES;
          break;
        case BANG:
          if (expected === '') expected = b === 0x2d ? '--' : '[CDATA[';
          if (b !== expected.charCodeAt(ending++)) {
            throw new XlsxDtdError();
          }
          if (ending === expected.length) {
            at = expected === '--' ? COMMENT : CDATA;
            ending = 0;
          }
          break;
        case COMMENT:
          if (b === 0x3e && ending >= 2) at = TEXT;
          ending = b === 0x2d ? ending + 1 : 0;
          break;
        case INSTRUCTION:
          if (b === 0x3e && previous === 0x3f) at = TEXT;
          break;
      }
      previous = b;
    }
  };
}
