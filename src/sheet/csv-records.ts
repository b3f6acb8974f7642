/** Thrown by `CsvRecords` at text it leaves to csv-parse (see there); the file is then read again through csv-parse. */
export class NeedsCsvParse extends Error {}

const QUOTE = 0x22;
const LINE_BREAK = 0x0a;

// A record still open after this many characters is a quote never closed (a spreadsheet cell holds at most 32,767).
const MAX_OPEN_RECORD = 1 << 20;

/**
 * The records of CSV text with "\n" line breaks, exactly as csv-parse gives them with `relax_quotes` and
 * `relax_column_count` (an empty line is the record `[""]`), for the text both read alike: cells without quotes, and
 * quoted cells (`""` for a quote, line breaks and delimiters inside) closed right before a delimiter, a line break or
 * the end. A quote anywhere else, or a quoted cell never closed, throws NeedsCsvParse: csv-parse decides those, and
 * reports the errors. Written for speed: split lines, no buffers, about twice csv-parse's rate.
 */
export class CsvRecords {
  private open = '';

  constructor(
    private readonly delimiter: string,
    private readonly onRecord: (record: string[]) => void,
  ) {}

  /**
   * Emits every record the text completes; the last, unfinished one waits for the next text. The unfinished record
   * is joined only to the text up to its end when neither has a quote: joining it to the whole text would copy all
   * of it into a new string (measured: the copies cost more than reading the records).
   */
  write(text: string): void {
    let from = 0;
    if (this.open !== '') {
      const end = text.indexOf('\n');
      if (end < 0 || this.open.includes('"') || text.lastIndexOf('"', end) >= 0) {
        const all = this.open + text;
        this.keepOpen(all, this.emit(all, 0, false));
        return;
      }
      this.onRecord((this.open + text.slice(0, end)).split(this.delimiter));
      from = end + 1;
    }
    this.keepOpen(text, this.emit(text, from, false));
  }

  /** The text has ended: emits the last record. */
  end(): void {
    this.emit(this.open, 0, true);
    this.open = '';
  }

  /** Keeps the text from `at` on, an unfinished record, for the next text. */
  private keepOpen(text: string, at: number): void {
    this.open = at === text.length ? '' : text.slice(at);
    if (this.open.length > MAX_OPEN_RECORD) throw new NeedsCsvParse();
  }

  /**
   * Emits the complete records of `text` from `at` (all of them when it is the last); returns where the unfinished
   * one starts.
   */
  private emit(text: string, at: number, last: boolean): number {
    // Where the next quote is: found once, not once a line (a sheet without quotes would be scanned to its end each time).
    let quote = text.indexOf('"', at);
    while (at < text.length) {
      let end = text.indexOf('\n', at);
      if (end < 0) {
        if (!last) return at;
        end = text.length;
      }
      if (quote < at && quote >= 0) quote = text.indexOf('"', at);
      if (quote < 0 || quote > end) {
        this.onRecord(text.slice(at, end).split(this.delimiter));
        at = end + 1;
        continue;
      }
      const next = this.quotedRecord(text, at, last);
      if (next < 0) return at;
      at = next;
    }
    return text.length;
  }

  /** Reads the record at `at` cell by cell; returns where the next record starts, or -1 when the text ends inside it. */
  private quotedRecord(text: string, at: number, last: boolean): number {
    const delimiter = this.delimiter.charCodeAt(0);
    const record: string[] = [];
    let i = at;
    for (;;) {
      if (text.charCodeAt(i) === QUOTE) {
        let cell = '';
        let from = i + 1;
        for (;;) {
          const close = text.indexOf('"', from);
          if (close < 0 || (close + 1 === text.length && !last)) {
            if (last) throw new NeedsCsvParse();
            return -1;
          }
          if (text.charCodeAt(close + 1) === QUOTE) {
            cell += text.slice(from, close + 1);
            from = close + 2;
            continue;
          }
          cell += text.slice(from, close);
          i = close + 1;
          break;
        }
        record.push(cell);
      } else {
        let stop = i;
        while (stop < text.length) {
          const c = text.charCodeAt(stop);
          if (c === delimiter || c === LINE_BREAK) break;
          if (c === QUOTE) throw new NeedsCsvParse();
          stop++;
        }
        if (stop === text.length && !last) return -1;
        record.push(text.slice(i, stop));
        i = stop;
      }
      if (i >= text.length) {
        if (!last) return -1;
        this.onRecord(record);
        return i;
      }
      const c = text.charCodeAt(i);
      if (c === LINE_BREAK) {
        this.onRecord(record);
        return i + 1;
      }
      if (c !== delimiter) throw new NeedsCsvParse();
      i++;
    }
  }
}
