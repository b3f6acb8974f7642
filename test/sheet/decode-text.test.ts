import { describe, expect, it } from 'vitest';
import { saySheet } from '../../src/words/sheet.js';
import { decodeText } from '../../src/sheet/decode-text.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
// Windows-1252 bytes of Latin-1 text (identical outside 0x80–0x9F).
const cp1252 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));

describe('decodeText', () => {
  it('reads UTF-8 without a BOM', () => {
    expect(decodeText(utf8('nome;valor\nJoão Conceição;10,00\n'))).toEqual({
      ok: true,
      value: { text: 'nome;valor\nJoão Conceição;10,00\n', encoding: 'utf-8', bom: false },
    });
  });

  it('reads UTF-8 with a BOM and drops it', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('chave;valor\nAção;1\n')]);
    expect(decodeText(bytes)).toEqual({ ok: true, value: { text: 'chave;valor\nAção;1\n', encoding: 'utf-8', bom: true } });
  });

  it('reads plain ASCII as UTF-8', () => {
    const result = decodeText(utf8('key,amount\na@b.com,1.00\n'));
    expect(result.ok && result.value.encoding).toBe('utf-8');
  });

  it('reads Windows-1252 (Excel in Brazil) with accents', () => {
    const result = decodeText(cp1252('Nome;Descrição\nJoão;Conceição Araújo Gonçalves\n'));
    expect(result).toEqual({
      ok: true,
      value: { text: 'Nome;Descrição\nJoão;Conceição Araújo Gonçalves\n', encoding: 'windows-1252', bom: false },
    });
  });

  it('reads the Windows-1252 characters that Latin-1 lacks (0x80–0x9F)', () => {
    const result = decodeText(new Uint8Array([0x80, 0x20, 0x93, 0x6f, 0x6b, 0x94, 0x20, 0x96]));
    expect(result.ok && result.value.text).toBe('€ “ok” –');
  });

  it.each([
    ['UTF-16 LE with BOM', new Uint8Array([0xff, 0xfe, 0x61, 0x00]), /UTF-16/],
    ['UTF-16 BE with BOM', new Uint8Array([0xfe, 0xff, 0x00, 0x61]), /UTF-16/],
    ['an .xlsx workbook', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]), /workbook/],
    ['binary with NUL bytes', new Uint8Array([0x61, 0x00, 0x62, 0x00]), /not text/],
  ])('refuses %s', (_name, bytes, reason) => {
    const result = decodeText(bytes);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(saySheet(result.error, 'en')).toMatch(reason);
  });

  it('drops a BOM before Windows-1252 text: a stray byte in a UTF-8 export does not glue "ï»¿" to the first column', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...cp1252('documento;nome\n111.444.777-35;João\n')]);
    expect(decodeText(bytes)).toEqual({ ok: true, value: { text: 'documento;nome\n111.444.777-35;João\n', encoding: 'windows-1252', bom: true } });
  });

  it('refuses a file that mixes UTF-8 characters with bytes that are not UTF-8, naming the first line and byte of each', () => {
    const bytes = new Uint8Array([...utf8('nome;valor\r\nAção;1\r\n'), ...cp1252('Zé;2\r\n')]);
    const result = decodeText(bytes);
    expect(result).toEqual({
      ok: false,
      error: { code: 'mixed_encoding', utf8: { line: 2, byte: 2, hex: 'C3 A7', text: 'ç' }, other: { line: 3, byte: 2, hex: 'E9', text: 'é' } },
    });
    expect(!result.ok && saySheet(result.error, 'en')).toBe(
      'the file mixes two encodings: line 2 (byte 2) has "ç" in UTF-8 (C3 A7), line 3 (byte 2) has the byte E9, which is not UTF-8 ' +
        '("é" in Windows-1252); no single reading gets every name and document right: save the whole sheet again as "CSV UTF-8"',
    );
  });

  it('finds the mix whichever kind comes first, with lone CR line breaks and a character cut short by the end', () => {
    const other = decodeText(new Uint8Array([...cp1252('a;b\rJo\xe3o\r'), ...utf8('Zé\r')]));
    expect(!other.ok && saySheet(other.error, 'en')).toMatch(/^the file mixes two encodings: line 3 \(byte 2\) has "é" in UTF-8 \(C3 A9\), line 2 \(byte 3\) has the byte E3, /);
    // A lead byte with no continuation at the end is not UTF-8: with a UTF-8 character before it, the file is mixed.
    const cut = decodeText(new Uint8Array([...utf8('ã;b\n'), 0xc3]));
    expect(!cut.ok && saySheet(cut.error, 'en')).toMatch(/line 1 \(byte 1\) has "ã" in UTF-8 \(C3 A3\), line 2 \(byte 1\) has the byte C3, /);
    // Overlong forms and surrogates are not UTF-8 characters: such a file is Windows-1252 alone.
    expect(decodeText(new Uint8Array([0xc0, 0xaf, 0x3b, 0xed, 0xa0, 0x80]))).toMatchObject({ ok: true, value: { encoding: 'windows-1252' } });
  });
});
