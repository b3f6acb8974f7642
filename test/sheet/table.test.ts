import { describe, expect, it } from 'vitest';
import { saySheet } from '../../src/words/sheet.js';
import { said } from './said.js';
import { readTable } from '../../src/sheet/read-table.js';
import { cp1252, lf, utf8 } from './sheet-bytes.js';

describe('readTable (CSV adapter)', () => {
  it('gives the header, each record with its line and cells as read, and how the file was read', () => {
    const table = readTable(cp1252(lf('', 'chave;valor;descrição', ' a@b.com ;1;"duas', 'linhas"', ';;', 'b@b.com;2;x')));
    expect(table).toEqual({
      header: ['chave', 'valor', 'descrição'],
      headerLine: 2,
      records: [
        { line: 3, cells: [' a@b.com ', '1', 'duas\nlinhas'], misaligned: null },
        { line: 6, cells: ['b@b.com', '2', 'x'], misaligned: null },
      ],
      problems: [],
      language: 'pt',
      format: { kind: 'csv', encoding: 'windows-1252', delimiter: ';' },
    });
  });

  it('suggests English for a comma or tab CSV, and says why a record does not line up with the header', () => {
    const table = readTable(utf8(lf('key,amount', 'a@b.com,1,234.56', 'b@b.com')));
    expect(table.language).toBe('en');
    expect(table.records.map((r) => r.misaligned && saySheet(r.misaligned, 'en'))).toEqual([
      'has 3 cells but the header has 2; a value with "," in it must be in double quotes',
      'has 1 cells but the header has 2; a cell is missing (or a value holds a line break without quotes)',
    ]);
  });

  it('reports problems without a file name, keeping the records before a quote never closed', () => {
    expect(readTable(new Uint8Array([0x50, 0x4b, 0x03, 0x04])).problems.map((p) => said(p))).toEqual([{ reason: expect.stringMatching(/workbook/) }]);
    const table = readTable(utf8(lf('chave;valor', 'a@b.com;1', 'b@b.com;"2')));
    expect(table.records.map((r) => r.line)).toEqual([2]);
    expect(table.problems.map((p) => said(p))).toEqual([{ line: 3, field: 'row', reason: expect.stringMatching(/never closed/) }]);
  });
});
