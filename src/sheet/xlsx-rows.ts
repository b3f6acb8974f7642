/**
 * A worksheet's rows read from its XML, in place of exceljs's WorksheetReader: that reader's XML parser (saxes), a
 * Row, a Cell and a value object for every cell cost more than half of `import --check` on a workbook. The cells'
 * values are the ones exceljs 4.4 gives (its reader's rules are followed below, quirks included), turned into text by
 * `cellText`, so a sheet reads the same as before.
 */
import { cellText } from './xlsx-cell-text.js';

/** A worksheet row: its number (the `r` of `<row>`), its cells' text and which were numbers (table.ts). */
export interface WorksheetRow {
  readonly number: number;
  readonly cells: string[];
  readonly numeric: number[];
}

/** What the rows need from exceljs's WorkbookReader once the parts before the worksheet are read. */
export interface WorkbookLookups {
  /** The shared strings (xlsx-limits.ts keeps them), by index; undefined when the workbook has none. */
  readonly sharedStrings?: { at(index: number): string | undefined };
  readonly styles: { getStyleModel(id: number): { numFmt?: string } | null | undefined };
  readonly properties?: { model?: { date1904?: boolean } };
}

const NONE = 0, FORMULA = 1, VALUE = 2;

/**
 * The rows of a worksheet's XML bytes (whole UTF-8 characters per chunk, as xlsx-limits.ts's scan passes them).
 * XML that exceljs's parser refuses in the ways a damaged part shows (a tag closed that is not open, an unknown
 * entity) throws.
 */
export async function* worksheetRows(bytes: AsyncIterable<Uint8Array>, book: WorkbookLookups): AsyncGenerator<WorksheetRow> {
  const decoder = new TextDecoder();
  const xml = new WorksheetXml(book);
  for await (const chunk of bytes) {
    // Each row's text is made as it is handed on, as exceljs's rows were read: a cell whose text fails (a date past
    // any calendar) fails after the rows before it.
    for (const row of xml.read(decoder.decode(chunk, { stream: true }))) yield rowOf(row);
  }
}

/**
 * Reads a worksheet that is not wanted to its end, its rows unused: XML that would throw when its rows are read
 * throws here too, as when exceljs read every worksheet of the workbook.
 */
export async function readPastWorksheet(bytes: AsyncIterable<Uint8Array>, book: WorkbookLookups): Promise<void> {
  const decoder = new TextDecoder();
  const xml = new WorksheetXml(book);
  for await (const chunk of bytes) xml.read(decoder.decode(chunk, { stream: true }));
}

/** The row being read: its number, its row style's number format, each column's value (undefined: none) and format. */
interface RowState {
  readonly number: number;
  readonly numFmt: string | undefined;
  readonly values: unknown[];
  readonly numFmts: (string | undefined)[];
}

/** A worksheet's XML read piece by piece, as exceljs's WorksheetReader reads its parser's events. */
class WorksheetXml {
  readonly #sharedStrings: WorkbookLookups['sharedStrings'];
  readonly #styles: WorkbookLookups['styles'];
  readonly #date1904: boolean | undefined;
  /** The names of the elements open; what is left of the last piece read (an unfinished tag, text). */
  readonly #open: string[] = [];
  #rest = '';
  readonly #attributes: Attributes = { r: undefined, s: undefined, t: undefined };
  #inRows = false;
  #row: RowState | null = null;
  /** The cell being read: whether one is, its `r`, `s` (as a number) and `t`, its `<f>` and `<v>` text (null: none). */
  #inCell = false;
  #ref: string | undefined;
  #s = NaN;
  #t: string | undefined;
  #formula: string | null = null;
  #value: string | null = null;
  /** Where text goes: exceljs appends it to the last of a cell's `<f>`, `<v>`, `<is>` or `<t>` that opened. */
  #current = NONE;

  constructor(book: WorkbookLookups) {
    this.#sharedStrings = book.sharedStrings;
    this.#styles = book.styles;
    this.#date1904 = book.properties?.model?.date1904;
  }

  /** Reads the next piece of the XML; returns the rows that ended in it. */
  read(piece: string): RowState[] {
    const xml = this.#rest + piece;
    const done: RowState[] = [];
    let i = 0;
    for (;;) {
      const lt = xml.indexOf('<', i);
      if (lt < 0) break;
      if (lt > i && this.#current !== NONE) this.#text(xml.slice(i, lt));
      i = lt;
      const next = xml.charCodeAt(lt + 1);
      if (next === 0x2f) {
        const gt = xml.indexOf('>', lt);
        if (gt < 0) break;
        let end = gt;
        while (isSpace(xml.charCodeAt(end - 1))) end--;
        const name = nameOf(xml, lt + 2, end);
        if (this.#open.pop() !== name) throw new Error(`unexpected close tag </${name}>`);
        this.#close(name, done);
        i = gt + 1;
        continue;
      }
      if (next === 0x21 || next === 0x3f) {
        // A comment, CDATA (exceljs listens to no CDATA: its text is dropped) or processing instruction; a DTD is
        // refused before (xlsx-limits.ts).
        const end = xml.startsWith('<!--', lt) ? '-->' : xml.startsWith('<![CDATA[', lt) ? ']]>' : next === 0x3f ? '?>' : '>';
        const at = xml.indexOf(end, lt + 2);
        if (at < 0) break;
        i = at + end.length;
        continue;
      }
      const gt = tagEnd(xml, lt + 1);
      if (gt < 0) break;
      let nameEnd = lt + 1;
      while (nameEnd < gt && !isSpace(xml.charCodeAt(nameEnd)) && xml.charCodeAt(nameEnd) !== 0x2f) nameEnd++;
      const name = nameOf(xml, lt + 1, nameEnd);
      this.#openTag(name, xml, nameEnd, gt);
      if (xml.charCodeAt(gt - 1) === 0x2f) this.#close(name, done);
      else this.#open.push(name);
      i = gt + 1;
    }
    this.#rest = xml.slice(i);
    return done;
  }

  #openTag(name: string, xml: string, from: number, to: number): void {
    switch (name) {
      case 'sheetData':
        this.#inRows = true;
        break;
      case 'row':
        if (this.#inRows) {
          const a = this.#attributes;
          readAttributes(xml, from, to, a);
          const style = a.s ? this.#styles.getStyleModel(parseInt(a.s, 10)) : null;
          this.#row = { number: parseInt(a.r as string, 10), numFmt: style ? style.numFmt : undefined, values: [], numFmts: [] };
        }
        break;
      case 'c':
        if (this.#row) {
          const a = this.#attributes;
          readAttributes(xml, from, to, a);
          this.#inCell = true;
          this.#ref = a.r;
          this.#s = parseInt(a.s as string, 10);
          this.#t = a.t;
          this.#formula = null;
          this.#value = null;
          this.#current = NONE;
        }
        break;
      case 'f':
        if (this.#inCell) {
          this.#formula = '';
          this.#current = FORMULA;
        }
        break;
      case 'v':
      case 'is':
      case 't':
        if (this.#inCell) {
          this.#value = '';
          this.#current = VALUE;
        }
        break;
    }
  }

  #close(name: string, done: RowState[]): void {
    if (name === 'c') {
      if (this.#row && this.#inCell) this.#endCell(this.#row);
    } else if (name === 'row') {
      if (this.#row) done.push(this.#row);
      this.#row = null;
    } else if (name === 'sheetData') {
      this.#inRows = false;
    }
  }

  #text(raw: string): void {
    // Line ends as XML reads them (before entities: a &#13; stays).
    const normal = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
    const text = normal.includes('&') ? decodeEntities(normal) : normal;
    if (this.#current === FORMULA) this.#formula += text;
    else this.#value += text;
  }

  /** The cell's value as exceljs 4.4 sets it, in its column (a second cell of the column keeps the first's style). */
  #endCell(row: RowState): void {
    this.#inCell = false;
    this.#current = NONE;
    const at = column(this.#ref) - 1;
    const { values, numFmts } = row;
    if (at >= numFmts.length || !(at in numFmts)) numFmts[at] = row.numFmt;
    if (this.#s) {
      const style = this.#styles.getStyleModel(this.#s);
      if (style) numFmts[at] = style.numFmt;
    }
    const formula = this.#formula;
    const value = this.#value;
    if (formula !== null) {
      const result = value === null ? undefined : this.#t === 'str' ? xmlDecode(value) : parseFloat(value);
      // exceljs keeps a formula's result only when truthy (a formula giving 0 shows nothing); an empty formula
      // (a shared formula's other cells) is kept as the plain object, result and all.
      values[at] = formula ? (result ? { formula, result } : { formula }) : { formula, result };
    } else if (value !== null) {
      switch (this.#t) {
        case 's':
          values[at] = this.#sharedStrings ? this.#sharedStrings.at(parseInt(value, 10)) : { sharedString: parseInt(value, 10) };
          break;
        case 'inlineStr':
        case 'str':
          values[at] = xmlDecode(value);
          break;
        case 'e':
          values[at] = { error: value };
          break;
        case 'b':
          values[at] = parseInt(value, 10) !== 0;
          break;
        default:
          values[at] = isDateFmt(numFmts[at]) ? excelToDate(parseFloat(value), this.#date1904) : parseFloat(value);
      }
    }
  }
}

/** A row's cells as text, as the sheet shows them (cellText); a column without a value is blank. */
function rowOf(row: RowState): WorksheetRow {
  const cells: string[] = [];
  const numeric: number[] = [];
  const { values, numFmts } = row;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === undefined || v === null) continue;
    while (cells.length < i) cells.push('');
    if (typeof v === 'string') {
      cells[i] = v;
      continue;
    }
    const shown = cellText(v, numFmts[i]);
    cells[i] = shown.text;
    if (shown.numeric) numeric.push(i);
  }
  return { number: row.number, cells, numeric };
}

/** An element's name, the names read most often without a copy. */
function nameOf(xml: string, from: number, to: number): string {
  const length = to - from;
  if (length === 1) {
    const c = xml.charCodeAt(from);
    if (c === 0x63) return 'c';
    if (c === 0x76) return 'v';
  } else if (length === 3 && xml.startsWith('row', from)) return 'row';
  return xml.slice(from, to);
}

/** Where a tag that starts at `from` ends (its ">", past quoted attribute values), or -1 when not yet read. */
function tagEnd(buffer: string, from: number): number {
  for (let i = from; i < buffer.length; i++) {
    const c = buffer.charCodeAt(i);
    if (c === 0x3e) return i;
    if (c === 0x22 || c === 0x27) {
      i = buffer.indexOf(c === 0x22 ? '"' : "'", i + 1);
      if (i < 0) return -1;
    }
  }
  return -1;
}

/** The attributes read of a `<row>` or `<c>`: `r`, `s` and `t` (undefined: absent). */
interface Attributes {
  r: string | undefined;
  s: string | undefined;
  t: string | undefined;
}

/** Reads a tag's attributes (`xml` from `from` to `to`) into `into`, white space and entities as XML reads them. */
function readAttributes(xml: string, from: number, to: number, into: Attributes): void {
  into.r = into.s = into.t = undefined;
  for (let i = from; i < to; ) {
    while (i < to && isSpace(xml.charCodeAt(i))) i++;
    const start = i;
    while (i < to && xml.charCodeAt(i) !== 0x3d && xml.charCodeAt(i) !== 0x2f && !isSpace(xml.charCodeAt(i))) i++;
    const name = i - start === 1 ? xml.charCodeAt(start) : 0;
    while (i < to && isSpace(xml.charCodeAt(i))) i++;
    if (xml.charCodeAt(i) !== 0x3d) return;
    i++;
    while (i < to && isSpace(xml.charCodeAt(i))) i++;
    const quote = xml[i];
    if (quote !== '"' && quote !== "'") return;
    const close = xml.indexOf(quote, i + 1);
    if (name === 0x72) into.r = attributeValue(xml.slice(i + 1, close));
    else if (name === 0x73) into.s = attributeValue(xml.slice(i + 1, close));
    else if (name === 0x74) into.t = attributeValue(xml.slice(i + 1, close));
    i = close + 1;
  }
}

/** An attribute's value as XML reads it: a line break typed in it is a space, a &#10; a line break. */
function attributeValue(raw: string): string {
  const spaced = /[\t\n\r]/.test(raw) ? raw.replace(/\r\n|[\t\n\r]/g, ' ') : raw;
  return spaced.includes('&') ? decodeEntities(spaced) : spaced;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

/** XML's own entities and character references; any other is refused, as the parser refuses it. */
function decodeEntities(raw: string): string {
  return raw.replace(/&([^;&]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) throw new Error('unterminated entity');
    if (name[0] === '#') {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      if (!/^#(?:x[0-9a-fA-F]+|[0-9]+)$/.test(name) || !(code >= 0 && code <= 0x10ffff)) throw new Error(`malformed character entity &${name};`);
      return String.fromCodePoint(code);
    }
    const known = ENTITIES[name];
    if (known === undefined) throw new Error(`undefined entity &${name};`);
    return known;
  });
}

/** exceljs's second decoding of an inline or formula string's text (its parser has decoded it once already). */
function xmlDecode(text: string): string {
  return text.replace(/&([a-z]*);/g, (c) => ENTITIES[c.slice(1, -1)] ?? c);
}

/** The column of a cell reference (`B12`, `$B$12`), as exceljs reads it: capital letters before the digits. */
function column(ref: string | undefined): number {
  if (ref === undefined) throw new Error('a cell without its reference (r)');
  let col = 0;
  let letters = false;
  let digits = false;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (!digits && c >= 65 && c <= 90) {
      letters = true;
      col = col * 26 + c - 64;
    } else if (c >= 48 && c <= 57) digits = true;
    else if (digits && letters && c !== 36) break;
  }
  if (!letters) throw new Error(`a cell reference without a column: ${ref}`);
  if (col > 16384) throw new Error(`Out of bounds. Invalid column letter: ${ref}`);
  return col;
}

/** exceljs's test of a number format that makes a number cell a date. */
function isDateFmt(numFmt: string | undefined): boolean {
  if (!numFmt) return false;
  return /[ymdhMsb]+/.test(numFmt.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));
}

function excelToDate(serial: number, date1904: boolean | undefined): Date {
  return new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 24 * 3600 * 1000));
}
