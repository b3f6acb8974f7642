import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { said } from './said.js';
import { csvCell } from '../../src/sheet/csv-cell.js';
import { readSheet } from '../../src/sheet/read-sheet.js';
import { rejectedSheetCsv } from '../../src/sheet/rejected-csv.js';
import { templateCsv } from '../../src/sheet/template.js';
import { validateRows } from '../../src/sheet/validate-rows.js';
import { lf, utf8 } from './sheet-bytes.js';

/** The cells of a CSV paybatch wrote, as a spreadsheet's importer would see them. */
const cellsOf = (csv: string, delimiter: string): string[][] => parse(csv.replace(/^\uFEFF/, ''), { delimiter, relax_column_count: true });

describe('csvCell (formula injection)', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])('prefixes %j with a quote and quotes the cell', (cell) => {
    expect(csvCell(cell, ';')).toBe(`"'${cell}"`);
  });

  it('leaves other cells as they are, quoting only delimiters, quotes and line breaks', () => {
    expect(csvCell('ana@example.com', ';')).toBe('ana@example.com');
    expect(csvCell('a;b', ';')).toBe('"a;b"');
    expect(csvCell('say "hi"', ',')).toBe('"say ""hi"""');
    expect(csvCell("'=already", ',')).toBe("'=already");
    expect(csvCell('', ',')).toBe('');
  });

  it('neutralises every formula cell of the rejected file, keeps the others intact, and reads back for a new import', () => {
    const sheet = readSheet(
      utf8(lf(
        'chave;valor;descricao;nome',
        'ana@exemplo.com.br;10,00;ok;Ana',
        'bia@exemplo.com.br;;"=HYPERLINK(""http://evil.example"";""x"")";Bia',
        '+cmd|x!A0;5,00;@SUM(1+1);"Cid; Filho"',
        'dan@exemplo.com.br;-10,00;"\tpad";=1+2',
      )),
      'p.csv',
    );
    const { rejected } = validateRows(sheet, { maxItemAmountCents: 100_000 });
    const csv = rejectedSheetCsv(sheet, rejected.map((r) => ({ row: r.row, problems: r.problems.map((p) => said(p)) })));
    const rows = cellsOf(csv, ';');
    expect(rows[0]).toEqual(['chave', 'valor', 'descricao', 'nome', 'motivo']);
    expect(rows.slice(1).map((r) => r.slice(0, 4))).toEqual([
      ['bia@exemplo.com.br', '', `'=HYPERLINK("http://evil.example";"x")`, 'Bia'],
      // A negative amount is a legitimate (if refused) value, but "-" starts a formula, so it is prefixed too.
      [`'+cmd|x!A0`, '5,00', `'@SUM(1+1)`, 'Cid; Filho'],
      ['dan@exemplo.com.br', `'-10,00`, `'\tpad`, `'=1+2`],
    ]);
    for (const row of rows) for (const cell of row) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
    // Importing the rejected file again reads the values without the prefix.
    const again = readSheet(utf8(csv), 'p.rejected.csv');
    expect(again.rows.map((r) => [r.cells.key, r.cells.amount, r.cells.description])).toEqual([
      ['bia@exemplo.com.br', undefined, `=HYPERLINK("http://evil.example";"x")`],
      ['+cmd|x!A0', '5,00', '@SUM(1+1)'],
      ['dan@exemplo.com.br', '-10,00', 'pad'],
    ]);
  });

  it('neutralises a formula in the header and in the reason column too', () => {
    const sheet = readSheet(utf8(lf('key,amount,=evil()', '-x@example.com,1.00,a')), 'p.csv');
    const rows = cellsOf(rejectedSheetCsv(sheet, [{ row: sheet.rows[0]!, problems: [{ line: 2, field: '=f', reason: 'x' }] }]), ',');
    expect(rows).toEqual([
      ['key', 'amount', `'=evil()`, 'reason'],
      [`'-x@example.com`, '1.00', 'a', `'=f: x`],
    ]);
  });

  it.each(['pt', 'en'] as const)('the %s template has no cell that starts a formula', (lang) => {
    const rows = cellsOf(templateCsv(lang), lang === 'pt' ? ';' : ',');
    for (const row of rows) for (const cell of row) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
  });
});
