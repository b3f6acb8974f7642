import { fail, ok, type Result } from '../domain/result.js';

export type SheetEncoding = 'utf-8' | 'windows-1252';

export interface DecodedText {
  text: string;
  encoding: SheetEncoding;
  /** True when the bytes began with the UTF-8 byte order mark (removed from `text`). */
  bom: boolean;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
// Excel in Brazil saves "CSV (separado por vírgulas)" in Windows-1252.
const windows1252 = new TextDecoder('windows-1252');

// Node 20's TextDecoder('windows-1252') decodes as Latin-1 (measured: 0x80 gives U+0080, not "€"), so the bytes
// 0x80–0x9F, where the two differ, are mapped here. The five bytes Windows-1252 leaves undefined stay C1 controls,
// as the WHATWG Encoding Standard decodes them.
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
export function sniffBinary(bytes: Uint8Array): string | null {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return 'the file is UTF-16 ("Unicode text"); save it as "CSV UTF-8" or "CSV (separated by semicolons)"';
  }
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    return 'the file is a spreadsheet workbook (.xlsx/.ods), not CSV; save it as CSV first';
  }
  // A NUL byte never occurs in a text sheet; it is a binary file or UTF-16 without a byte order mark.
  if (bytes.includes(0)) return 'the file is not text (it has NUL bytes); save the sheet as CSV';
  return null;
}

function decodeWindows1252(bytes: Uint8Array): string {
  return windows1252.decode(bytes).replace(/[\u0080-\u009f]/g, (c) => C1_TO_WINDOWS_1252[c.charCodeAt(0) - 0x80] ?? c);
}

/**
 * Decodes the bytes of a sheet as people export it: UTF-8 with or without a byte order mark, else Windows-1252.
 * Bytes that are valid UTF-8 are read as UTF-8 (plain ASCII included); any invalid sequence means the file is
 * Windows-1252, where every byte is some character. Refuses UTF-16 (Excel's "Unicode text") and binary files such
 * as .xlsx, which have to be saved as CSV first.
 */
export function decodeText(bytes: Uint8Array): Result<DecodedText> {
  const binary = sniffBinary(bytes);
  if (binary !== null) return fail(binary);

  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    // TextDecoder drops the BOM itself (ignoreBOM is false).
    return ok({ text: strictUtf8.decode(bytes), encoding: 'utf-8', bom });
  } catch {
    return ok({ text: decodeWindows1252(bytes), encoding: 'windows-1252', bom: false });
  }
}
