import { describe, expect, it } from 'vitest';
import { saySheet } from '../../src/words/sheet.js';
import { readBillSheet } from '../../src/sheet/bill-sheet.js';
import { InputRejectedError } from '../../src/errors.js';

const read = (text: string | Buffer) => readBillSheet(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, 'contas.csv', (r) => saySheet(r, 'en'));
const problemsOf = (text: string) => {
  try {
    read(text);
  } catch (e) {
    expect(e).toBeInstanceOf(InputRejectedError);
    return (e as InputRejectedError).problems;
  }
  throw new Error('expected a rejection');
};

describe('readBillSheet', () => {
  it('reads Portuguese headers with ; and Brazilian amounts, keeping file and line of each bill', () => {
    expect(read('Código;Valor (R$);Descrição\n83680000000-9 87450048001-5;1.234,56;luz de março\n\n23793381286000782713695000063305516560000150000;;\n')).toEqual([
      { code: '83680000000-9 87450048001-5', amount: '1.234,56', description: 'luz de março', file: 'contas.csv', line: 2 },
      { code: '23793381286000782713695000063305516560000150000', amount: null, description: null, file: 'contas.csv', line: 4 },
    ]);
  });

  it('reads English headers with commas, CRLF, a BOM and quoted cells spanning lines', () => {
    const rows = read('\uFEFFline,amount,description\r\n"8368 0000",10.50,"two\r\nlines"\r\n8368,,x\r\n');
    expect(rows.map((r) => [r.line, r.code, r.amount, r.description])).toEqual([
      [2, '8368 0000', '10.50', 'two\nlines'],
      [4, '8368', null, 'x'],
    ]);
  });

  it('reads Windows-1252 and an Excel sep= line', () => {
    const bytes = Buffer.from('sep=;\nlinha;descricao\n8368;conta de água\n', 'latin1');
    expect(read(bytes)).toEqual([{ code: '8368', amount: null, description: 'conta de água', file: 'contas.csv', line: 3 }]);
  });

  it('accepts the other names of the code column', () => {
    for (const header of ['codigo_de_barras', 'Linha digitável', 'barcode', 'boleto', 'code']) expect(read(`${header}\n8368\n`)[0]?.code).toBe('8368');
  });

  it('keeps a row with no code (the payment refuses it by its line)', () => {
    expect(read('codigo;valor\n;10,00\n')).toEqual([{ code: '', amount: '10,00', description: null, file: 'contas.csv', line: 2 }]);
  });

  it.each([
    ['no code column', 'valor;descricao\n10,00;x\n', /no column for the bill code/],
    ['two code columns', 'codigo;linha\n1;2\n', /two columns mean the code/],
    ['nothing', '\n\n', /the file is empty/],
    ['a header only', 'codigo;valor\n', /header but no bills/],
  ])('refuses a file with %s', (_what, text, reason) => {
    expect(problemsOf(text)[0]?.reason).toMatch(reason);
  });

  it('refuses UTF-16 and workbooks', () => {
    expect(() => read(Buffer.from([0xff, 0xfe, 0x41, 0]))).toThrow(InputRejectedError);
    expect(() => read(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2]))).toThrow(InputRejectedError);
  });
});
