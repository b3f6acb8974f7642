import { Buffer, isUtf8 } from 'node:buffer';
import { fail, ok, type Result } from '../domain/result.js';
import type { BytePlace, SheetFileReason } from '../domain/sheet-reason.js';

export type SheetEncoding = 'utf-8' | 'windows-1252';

export interface DecodedText {
  text: string;
  encoding: SheetEncoding;
  /** True when the bytes began with the UTF-8 byte order mark (removed from `text`). */
  bom: boolean;
}

// Excel in Brazil saves "CSV (separado por vírgulas)" in Windows-1252: decoded as Latin-1 (each byte its code point,
// Buffer's native decoding: 20 times faster than TextDecoder('windows-1252') on Node 24), then the bytes 0x80–0x9F,
// where the two differ, are mapped here. The five bytes Windows-1252 leaves undefined stay C1 controls, as the WHATWG
// Encoding Standard decodes them.
const C1_TO_WINDOWS_1252 = [
  '€', '\u0081', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u008d', 'Ž', '\u008f',
  '\u0090', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u009d', 'ž', 'Ÿ',
];

/** Windows-1252 bytes as text; every byte is one character, so chunks decode on their own. */
export function decodeWindows1252Chunk(bytes: Uint8Array): string {
  return decodeWindows1252(bytes);
}

/**
 * Why the bytes (a file's start, or all of it) cannot be a text sheet: UTF-16, a workbook, NUL bytes; null when
 * they can.
 */
export function sniffBinary(bytes: Uint8Array): SheetFileReason | null {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { code: 'file_utf16' };
  }
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    return { code: 'file_workbook' };
  }
  // A NUL byte never occurs in a text sheet; it is a binary file or UTF-16 without a byte order mark.
  if (bytes.includes(0)) return { code: 'file_binary' };
  return null;
}

function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1').replace(/[\u0080-\u009f]/g, (c) => C1_TO_WINDOWS_1252[c.charCodeAt(0) - 0x80] ?? c);
}

/** The UTF-8 byte order mark, which says nothing a sheet means: removed whatever encoding the rest is read in. */
export function hasBom(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/**
 * Decodes the bytes of a sheet as people export it: UTF-8 with or without a byte order mark, else Windows-1252.
 * Bytes that are valid UTF-8 are read as UTF-8 (plain ASCII included); a file with no UTF-8 character at all but
 * bytes that are not UTF-8 is Windows-1252, where every byte is some character; a file with both is refused as
 * mixed (`EncodingScan`), since one of its parts would be read wrong. Refuses UTF-16 (Excel's "Unicode text") and
 * binary files such as .xlsx, which have to be saved as CSV first.
 */
export function decodeText(bytes: Uint8Array): Result<DecodedText, SheetFileReason> {
  const binary = sniffBinary(bytes);
  if (binary !== null) return fail(binary);

  const bom = hasBom(bytes);
  const body = bom ? bytes.subarray(3) : bytes;
  if (isUtf8(body)) return ok({ text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(body), encoding: 'utf-8', bom });
  const scan = new EncodingScan();
  scan.feed(body);
  const mixed = scan.end();
  if (mixed !== null) return fail({ code: 'mixed_encoding', utf8: mixed.utf8, other: mixed.other });
  return ok({ text: decodeWindows1252(body), encoding: 'windows-1252', bom });
}

export type { BytePlace } from '../domain/sheet-reason.js';

/** A file with both valid UTF-8 characters and bytes that are not UTF-8: where each kind first shows. */
export interface MixedEncoding {
  readonly utf8: BytePlace;
  readonly other: BytePlace;
}

/**
 * Follows a file's bytes (after any byte order mark), chunk by chunk, for the first multi-byte UTF-8 character and
 * the first byte that is not UTF-8. A file with both mixes encodings (lines pasted from two exports): no single
 * decoding reads it right, and a name or document read wrong changes who is paid. Line breaks are "\n", "\r\n" or
 * a lone "\r", as the sheet's lines count them.
 */
export class EncodingScan {
  private line = 1;
  private byte = 0;
  private afterCr = false;
  /** The multi-byte sequence being read: its bytes so far, where it started, what the next byte must be. */
  private sequence: number[] = [];
  private sequenceLine = 1;
  private sequenceByte = 0;
  private need = 0;
  private low = 0x80;
  private high = 0xbf;
  private firstUtf8: BytePlace | null = null;
  private firstOther: BytePlace | null = null;

  /** Both kinds found: the rest of the file cannot change the answer. */
  get mixed(): MixedEncoding | null {
    return this.firstUtf8 !== null && this.firstOther !== null ? { utf8: this.firstUtf8, other: this.firstOther } : null;
  }

  feed(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) {
      if (this.firstUtf8 !== null && this.firstOther !== null) return;
      if (this.need === 0 && (bytes[i] as number) < 0x80) {
        i = this.ascii(bytes, i) - 1;
        continue;
      }
      const b = bytes[i] as number;
      this.byte++;
      if (this.need > 0) {
        if (b >= this.low && b <= this.high) {
          this.sequence.push(b);
          this.low = 0x80;
          this.high = 0xbf;
          if (--this.need === 0) this.firstUtf8 ??= this.place(this.sequence, 'utf-8');
          continue;
        }
        this.notUtf8();
      }
      if (b < 0x80) {
        this.lineBreak(b);
        continue;
      }
      this.afterCr = false;
      // Numbers and one array kept from byte to byte: a Windows-1252 file has such a byte in most rows.
      this.sequenceLine = this.line;
      this.sequenceByte = this.byte;
      this.sequence.length = 0;
      this.sequence.push(b);
      // The lead bytes of RFC 3629 and the ranges of their second byte (no overlong forms, no surrogates, ≤ U+10FFFF).
      if (b >= 0xc2 && b <= 0xdf) this.need = 1;
      else if (b >= 0xe0 && b <= 0xef) {
        this.need = 2;
        if (b === 0xe0) this.low = 0xa0;
        if (b === 0xed) this.high = 0x9f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        this.need = 3;
        if (b === 0xf0) this.low = 0x90;
        if (b === 0xf4) this.high = 0x8f;
      } else this.notUtf8();
    }
  }

  /**
   * Reads the run of ASCII bytes from `i` (most of a sheet) as `lineBreak` would, byte by byte, in local variables;
   * returns where the run ends.
   */
  private ascii(bytes: Uint8Array, i: number): number {
    let { line, byte, afterCr } = this;
    for (; i < bytes.length; i++) {
      const b = bytes[i] as number;
      if (b >= 0x80) break;
      byte++;
      if (b === 0x0d) {
        line++;
        byte = 0;
        afterCr = true;
      } else if (b === 0x0a) {
        if (!afterCr) line++;
        byte = 0;
        afterCr = false;
      } else {
        afterCr = false;
      }
    }
    this.line = line;
    this.byte = byte;
    this.afterCr = afterCr;
    return i;
  }

  /** The answer once the last byte is fed: a sequence cut short by the end is not UTF-8. */
  end(): MixedEncoding | null {
    if (this.need > 0) this.notUtf8();
    return this.mixed;
  }

  /** The sequence begun is not UTF-8: its first byte is what shows it. */
  private notUtf8(): void {
    this.firstOther ??= this.place(this.sequence.slice(0, 1), 'windows-1252');
    this.need = 0;
    this.low = 0x80;
    this.high = 0xbf;
  }

  private lineBreak(b: number): void {
    const newLine = b === 0x0d || (b === 0x0a && !this.afterCr);
    this.afterCr = b === 0x0d;
    if (b === 0x0a && !newLine) this.byte = 0;
    if (!newLine) return;
    this.line++;
    this.byte = 0;
  }

  /** Where the sequence begun shows, with its bytes (`bytes`, copied: the sequence's array is used again). */
  private place(bytes: readonly number[], encoding: SheetEncoding): BytePlace {
    const raw = Uint8Array.from(bytes);
    return {
      line: this.sequenceLine,
      byte: this.sequenceByte,
      hex: bytes.map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' '),
      text: encoding === 'utf-8' ? new TextDecoder('utf-8').decode(raw) : decodeWindows1252(raw),
    };
  }
}

/**
 * The bytes a text would have in Windows-1252, when every character has one; null otherwise. A header cell that is
 * UTF-8 read as Windows-1252 ("DescriÃ§Ã£o", a byte order mark as "ï»¿") is these bytes decoded as UTF-8.
 */
export function windows1252Bytes(text: string): Uint8Array | null {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const c1 = code > 0xff ? C1_TO_WINDOWS_1252.indexOf(text[i] as string) : -1;
    if (code > 0xff && c1 < 0) return null;
    bytes[i] = c1 >= 0 ? 0x80 + c1 : code;
  }
  return bytes;
}
