import { describe, expect, it } from 'vitest';
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
    if (!result.ok) expect(result.error).toMatch(reason);
  });
});
