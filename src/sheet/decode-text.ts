import { fail, ok, type Result } from '../domain/result.js';

export type SheetEncoding = 'utf-8' | 'windows-1252';

export interface DecodedText {
  text: string;
  encoding: SheetEncoding;
  /** True when the bytes began with the UTF-8 byte order mark (removed from `text`). */
  bom: boolean;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
// Excel in Brazil saves "CSV (separado por vírgulas)" in Windows-1252; Node's full ICU decodes it (0x80 → "€").
const windows1252 = new TextDecoder('windows-1252');

/**
 * Decodes the bytes of a sheet as people export it: UTF-8 with or without a byte order mark, else Windows-1252.
 * Bytes that are valid UTF-8 are read as UTF-8 (plain ASCII included); any invalid sequence means the file is
 * Windows-1252, where every byte is some character. Refuses UTF-16 (Excel's "Unicode text") and binary files such
 * as .xlsx, which have to be saved as CSV first.
 */
export function decodeText(bytes: Uint8Array): Result<DecodedText> {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return fail('the file is UTF-16 ("Unicode text"); save it as "CSV UTF-8" or "CSV (separated by semicolons)"');
  }
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    return fail('the file is a spreadsheet workbook (.xlsx/.ods), not CSV; save it as CSV first');
  }
  // A NUL byte never occurs in a text sheet; it is a binary file or UTF-16 without a byte order mark.
  if (bytes.includes(0)) return fail('the file is not text (it has NUL bytes); save the sheet as CSV');

  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    // TextDecoder drops the BOM itself (ignoreBOM is false).
    return ok({ text: strictUtf8.decode(bytes), encoding: 'utf-8', bom });
  } catch {
    return ok({ text: windows1252.decode(bytes), encoding: 'windows-1252', bom: false });
  }
}
