import { describe, expect, it } from 'vitest';
import { said } from './said.js';
import { readSheet } from '../../src/sheet/read-sheet.js';
import { rejectedSheetCsv } from '../../src/sheet/rejected-csv.js';
import { validateRows } from '../../src/sheet/validate-rows.js';
import { cp1252, crlf, lf, utf8 } from './sheet-bytes.js';

function rejectedOf(bytes: Uint8Array): string {
  const sheet = readSheet(bytes, 'p.csv');
  const { rejected } = validateRows(sheet, { maxItemAmountCents: 100_000 });
  return rejectedSheetCsv(sheet, rejected.map((r) => ({ row: r.row, problems: r.problems.map((p) => said(p)) })));
}

describe('rejectedSheetCsv', () => {
  it('writes the header with "motivo", the rejected rows as they were and their reasons, UTF-8 with BOM and CRLF', () => {
    const csv = rejectedOf(cp1252(crlf(
      'Nome;Chave;Valor;Descrição',
      'João;joao@exemplo.com.br;10,00;ok',
      'Conceição;conceicao@exemplo.com.br;1.234;"Aluguel; março"',
      '  Zé ;;2.000,00;"duas',
      'linhas"',
    )));
    expect(csv).toBe(
      '\uFEFF' + crlf(
        'Nome;Chave;Valor;Descrição;motivo',
        'Conceição;conceicao@exemplo.com.br;1.234;"Aluguel; março";"Valor: amount ""1.234"": ambiguous: is ""."" a thousands separator or the decimal mark? write 1234,00 or use two decimals"',
        '  Zé ;;2.000,00;"duas\nlinhas";Chave: the Pix key is empty | Valor: R$ 2.000,00 is above the limit per item of R$ 1.000,00 (maxItemAmount)',
      ),
    );
  });

  it('uses "reason" and the sheet\'s own delimiter for an English sheet', () => {
    const csv = rejectedOf(utf8(lf('key,amount,description', 'ana@example.com,10,ok', 'bia@example.com,-5,"Rent, March"')));
    // "-5" starts like a formula, so it is written as text ('-5; see csv-cell.ts).
    expect(csv).toBe('\uFEFF' + crlf('key,amount,description,reason', `bia@example.com,"'-5","Rent, March","amount: negative amounts are not accepted: ""-5"""`));
  });

  it('pads a short row so the reason lands in its own column', () => {
    const csv = rejectedOf(utf8(lf('chave;valor;descricao;nome', 'ana@exemplo.com.br;10')));
    expect(csv.split('\r\n')[1]).toBe('ana@exemplo.com.br;10;;;"row: has 2 cells but the header has 4; a cell is missing (or a value holds a line break without quotes)"');
  });

  it('reads back as a sheet with the same rows and a reason for each', () => {
    const original = utf8(lf('chave;valor;descricao', 'ana@exemplo.com.br;-1;"a ""b"" c"', 'bia@exemplo.com.br;0;x', 'cid@exemplo.com.br;5;ok'));
    const again = readSheet(utf8(rejectedOf(original)), 'p.rejected.csv');
    expect(again.problems).toEqual([]);
    expect(again.header).toEqual(['chave', 'valor', 'descricao', 'motivo']);
    expect(again.rows.map((r) => r.raw.slice(0, 3))).toEqual([['ana@exemplo.com.br', "'-1", 'a "b" c'], ['bia@exemplo.com.br', '0', 'x']]);
    expect(again.rows.map((r) => r.cells.amount)).toEqual(['-1', '0']);
    expect(again.rows.map((r) => r.line)).toEqual([2, 3]);
  });

  it('is just the header when nothing was rejected', () => {
    expect(rejectedOf(utf8(lf('key,amount', 'ana@example.com,10')))).toBe('\uFEFFkey,amount,reason\r\n');
  });
});
