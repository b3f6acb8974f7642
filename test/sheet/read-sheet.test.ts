import { describe, expect, it } from 'vitest';
import { said } from './said.js';
import { readSheet } from '../../src/sheet/read-sheet.js';
import { cp1252, crlf, lf, utf8, utf8Bom } from './sheet-bytes.js';

describe('readSheet: encodings', () => {
  const text = crlf('Nome;Chave;Valor;Descrição', 'João da Conceição;joao@exemplo.com.br;1.234,56;Serviço de manutenção');
  const expected = { name: 'João da Conceição', key: 'joao@exemplo.com.br', amount: '1.234,56', description: 'Serviço de manutenção' };

  it.each([
    ['UTF-8', utf8(text), 'utf-8'],
    ['UTF-8 with BOM', utf8Bom(text), 'utf-8'],
    ['Windows-1252', cp1252(text), 'windows-1252'],
  ])('reads %s with accents in header and cells', (_name, bytes, encoding) => {
    const sheet = readSheet(bytes, 'p.csv');
    expect(sheet.format.encoding).toBe(encoding);
    expect(sheet.header).toEqual(['Nome', 'Chave', 'Valor', 'Descrição']);
    expect(sheet.columns).toEqual({ name: 0, key: 1, amount: 2, description: 3 });
    expect(sheet.rows).toHaveLength(1);
    expect(sheet.rows[0]?.cells).toMatchObject(expected);
    expect(sheet.problems).toEqual([]);
  });

  it('does not let a BOM spoil the first header name', () => {
    const sheet = readSheet(utf8Bom('chave;valor\nx;1\n'), 'p.csv');
    expect(sheet.header[0]).toBe('chave');
    expect(sheet.columns.key).toBe(0);
  });

  it('reports a file that cannot be read as a sheet', () => {
    const sheet = readSheet(new Uint8Array([0x50, 0x4b, 0x03, 0x04]), 'p.xlsx');
    expect(sheet.problems.map((p) => said(p))).toEqual([{ file: 'p.xlsx', reason: expect.stringMatching(/workbook/) }]);
    expect(sheet.rows).toEqual([]);
  });
});

describe('readSheet: delimiters and quoting', () => {
  it.each([
    [';', lf('chave;valor;descricao', 'a@b.com;1.234,56;"Aluguel; março"')],
    [',', lf('key,amount,description', 'a@b.com,"1,234.56","Rent, March"')],
    ['\t', lf('key\tamount\tdescription', 'a@b.com\t1234.56\t"Rent\tMarch"')],
  ])('detects %j and keeps delimiters inside quotes', (delimiter, text) => {
    const sheet = readSheet(utf8(text), 'p.csv');
    expect(sheet.format.delimiter).toBe(delimiter);
    expect(sheet.rows).toHaveLength(1);
    expect(sheet.rows[0]?.raw).toHaveLength(3);
    expect(sheet.rows[0]?.cells.key).toBe('a@b.com');
  });

  it('reads doubled quotes inside quoted cells', () => {
    const sheet = readSheet(utf8(lf('chave;valor;descricao', 'a@b.com;10;"Projeto ""Horizonte"""')), 'p.csv');
    expect(sheet.rows[0]?.cells.description).toBe('Projeto "Horizonte"');
  });

  it('tolerates a stray quote inside an unquoted cell', () => {
    const sheet = readSheet(utf8(lf('chave;valor;nome', 'a@b.com;10;Pedro "Pedrinho" Silva')), 'p.csv');
    expect(sheet.rows[0]?.cells.name).toBe('Pedro "Pedrinho" Silva');
    expect(sheet.problems).toEqual([]);
  });

  it('honours Excel\'s sep= line and keeps line numbers physical', () => {
    const sheet = readSheet(utf8(crlf('sep=,', 'chave,valor', 'a@b.com,10')), 'p.csv');
    expect(sheet.format.delimiter).toBe(',');
    expect(sheet.header).toEqual(['chave', 'valor']);
    expect(sheet.rows.map((r) => r.line)).toEqual([3]);
  });
});

describe('readSheet: line numbers', () => {
  it('gives the physical line where each record starts, across quoted line breaks and blank lines', () => {
    const text = [
      /* 1 */ 'chave;valor;descricao',
      /* 2 */ 'a@b.com;1;um',
      /* 3 */ '',
      /* 4 */ 'b@b.com;2;"duas',
      /* 5 */ 'linhas"',
      /* 6 */ 'c@b.com;3;"três',
      /* 7 */ '',
      /* 8 */ 'linhas"',
      /* 9 */ ';;',
      /* 10 */ '   ',
      /* 11 */ 'd@b.com;4;quatro',
    ];
    for (const eol of ['\n', '\r\n', '\r']) {
      const sheet = readSheet(utf8(text.join(eol) + eol), 'p.csv');
      expect(sheet.rows.map((r) => r.line), JSON.stringify(eol)).toEqual([2, 4, 6, 11]);
      expect(sheet.rows[1]?.cells.description).toBe('duas\nlinhas');
      expect(sheet.rows[2]?.cells.description).toBe('três\n\nlinhas');
    }
  });

  it('starts from the first line with content when the header is preceded by blank lines', () => {
    const sheet = readSheet(utf8(lf('', ';;', 'chave;valor', 'a@b.com;1')), 'p.csv');
    expect(sheet.header).toEqual(['chave', 'valor']);
    expect(sheet.rows.map((r) => r.line)).toEqual([4]);
  });

  it('reads a last line without a line break', () => {
    const sheet = readSheet(utf8('chave;valor\r\na@b.com;1\r\nb@b.com;2'), 'p.csv');
    expect(sheet.rows.map((r) => [r.line, r.cells.key])).toEqual([[2, 'a@b.com'], [3, 'b@b.com']]);
  });
});

describe('readSheet: cells', () => {
  it('trims cells, gives undefined for blank cells and absent columns, and keeps raw cells untouched', () => {
    const sheet = readSheet(utf8(lf('chave;valor;nome', '  a@b.com ; 1,00 ;   ')), 'p.csv');
    const row = sheet.rows[0];
    expect(row?.cells).toEqual({
      key: 'a@b.com', keyType: undefined, amount: '1,00', description: undefined, identifier: undefined,
      name: undefined, document: undefined,
    });
    expect(row?.raw).toEqual(['  a@b.com ', ' 1,00 ', '   ']);
  });

  it('unwraps ="…", which systems write to keep Excel from dropping leading zeros', () => {
    const sheet = readSheet(utf8(lf('chave;valor;documento', '="01234567890";10;="01234567890"')), 'p.csv');
    expect(sheet.rows[0]?.cells.key).toBe('01234567890');
    expect(sheet.rows[0]?.cells.document).toBe('01234567890');
  });

  it('gives undefined for cells a short row does not have', () => {
    const sheet = readSheet(utf8(lf('chave;valor;descricao', 'a@b.com;1')), 'p.csv');
    expect(sheet.rows[0]?.cells.description).toBeUndefined();
    expect(sheet.rows[0]?.raw).toEqual(['a@b.com', '1']);
  });
});

describe('readSheet: sheet problems', () => {
  it('reports an empty file', () => {
    expect(readSheet(utf8(''), 'p.csv').problems.map((p) => said(p))).toEqual([
      { file: 'p.csv', reason: 'the sheet is empty: expected a header line and one row per payment' },
    ]);
    expect(readSheet(utf8('\r\n;;;\r\n'), 'p.csv').problems).toHaveLength(1);
  });

  it('reports a header without rows', () => {
    expect(readSheet(utf8('chave;valor\n\n'), 'p.csv').problems.map((p) => said(p))).toEqual([
      { file: 'p.csv', line: 1, field: 'header', reason: 'the sheet has a header but no payment rows' },
    ]);
  });

  it('reports missing required columns on the header line', () => {
    const sheet = readSheet(utf8(lf('', 'nome;descricao', 'Ana;x')), 'p.csv');
    expect(sheet.problems.map((p) => [p.line, p.field, said(p).reason.slice(0, 30)])).toEqual([
      [2, 'header', 'no column for the Pix key: nam'],
      [2, 'header', 'no column for the amount: name'],
    ]);
  });

  it('reports a quote never closed on the line where it opens, keeping the rows before it', () => {
    const sheet = readSheet(utf8(lf('chave;valor;descricao', 'a@b.com;1;ok', '', 'b@b.com;2;"sem fim', 'c@b.com;3;x')), 'p.csv');
    expect(sheet.rows.map((r) => r.line)).toEqual([2]);
    expect(sheet.problems.map((p) => said(p))).toEqual([
      { file: 'p.csv', line: 4, field: 'row', reason: expect.stringMatching(/never closed/) },
    ]);
  });
});
