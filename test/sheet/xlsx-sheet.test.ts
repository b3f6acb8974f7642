import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { said } from './said.js';
import yazl from 'yazl';
import { UsageError } from '../../src/errors.js';
import type { SheetRow } from '../../src/sheet/read-sheet.js';
import { streamSheetFile, validateSheetFile } from '../../src/sheet/sheet-file.js';
import { cellText } from '../../src/sheet/xlsx-cell-text.js';
import type { ValidRow } from '../../src/sheet/validate-rows.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { writePayroll } from '../helpers/workbooks.js';

const tempDir = useTempDir();

async function rowsOf(file: string, sheet?: string) {
  const rows: SheetRow[] = [];
  const streamed = await streamSheetFile(file, () => (row) => void rows.push(row), sheet === undefined ? {} : { sheet });
  return { ...streamed, rows };
}

async function validated(file: string, sheet?: string) {
  const valid: ValidRow[] = [];
  const read = await validateSheetFile(file, 5_000_000, () => (row) => void valid.push(row), undefined, sheet === undefined ? {} : { sheet });
  return { ...read, valid };
}

describe('XLSX sheets', () => {
  it('reads the first worksheet row by row: text, numbers, zero-padded numbers, dates; lines are the row numbers', async () => {
    const file = join(tempDir(), 'folha.xlsx');
    await writePayroll(file);
    const r = await rowsOf(file);
    expect(r.head.problems).toEqual([]);
    expect(r.head.format).toEqual({ kind: 'xlsx', sheet: 'Folha' });
    expect(r.sha256).toBe(createHash('sha256').update(readFileSync(file)).digest('hex'));
    expect(r.rows.map((row) => [row.line, row.cells.key, row.cells.amount, row.cells.description])).toEqual([
      [2, '529.982.247-25', '1250.5', 'Salário'],
      [3, '1234567890', '300', 'Zero perdido'],
      [4, '012.345.678-90', '1.234,56', 'Com máscara'],
      [5, 'ana@exemplo.com', '99.9', '05/12/2026'],
      [6, 'bia@exemplo.com', '10,00', '05/12/2026'],
      [9, 'caio@exemplo.com', '0.3', 'Depois de linhas vazias'],
    ]);
    expect(r.rows[1]!.numericFields).toEqual(['key', 'amount']);
    expect(r.rows[2]!.numericFields).toBeUndefined();
  });

  it('validates amounts as numbers and as text, and rejects a CPF whose zeros Excel dropped, naming line and column', async () => {
    const file = join(tempDir(), 'folha.xlsx');
    await writePayroll(file);
    const r = await validated(file);
    expect(r.valid.map((v) => [v.line, v.key, v.amountCents])).toEqual([
      [2, '52998224725', 125050],
      [4, '01234567890', 123456],
      [5, 'ana@exemplo.com', 9990],
      [6, 'bia@exemplo.com', 1000],
      [9, 'caio@exemplo.com', 30],
    ]);
    expect(r.problems.map((p) => said(p))).toEqual([
      {
        file,
        line: 3,
        field: 'chave',
        reason:
          'the workbook stores 1234567890 as a number, which drops leading zeros (10 digits; a CPF has 11, a CNPJ 14); ' +
          'with its zeros it would be the CPF 012.345.678-90: format the column as Text and type it again',
      },
    ]);
  });

  it('reads the worksheet --sheet names, and says which exist when none has that name', async () => {
    const file = join(tempDir(), 'folha.xlsx');
    await writePayroll(file);
    const r = await validated(file, 'Setembro');
    expect(r.head.format).toEqual({ kind: 'xlsx', sheet: 'Setembro' });
    expect(r.head.language).toBe('en');
    expect(r.valid.map((v) => [v.line, v.key, v.amountCents])).toEqual([[2, 'dora@example.com', 4200]]);
    const missing = await rowsOf(file, 'Outubro');
    expect(missing.head.problems.map((p) => said(p))).toEqual([
      { file, field: 'sheet', reason: 'the workbook has no worksheet named "Outubro"; it has "Folha", "Setembro", "Vazia"' },
    ]);
  });

  it('reads a workbook whose zip holds its worksheets before xl/workbook.xml (where their names are)', async () => {
    const dir = tempDir();
    const file = join(dir, 'folha.xlsx');
    await writePayroll(file);
    // The same parts zipped again: relationships and shared strings first, the worksheets, xl/workbook.xml last.
    const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n').filter((n) => !n.endsWith('/'));
    const rank = (n: string) => (n === 'xl/workbook.xml' ? 3 : n.startsWith('xl/worksheets/') ? 2 : 1);
    const zip = new yazl.ZipFile();
    // unzip reads names as patterns: "[" is escaped as "[[]".
    for (const n of [...names].sort((a, b) => rank(a) - rank(b))) zip.addBuffer(execFileSync('unzip', ['-p', file, n.replace(/\[/g, '[[]')]), n);
    zip.end();
    const reordered = join(dir, 'reordered.xlsx');
    await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(reordered)).on('close', () => resolve()).on('error', reject));
    const first = await rowsOf(reordered);
    expect(first.head.problems).toEqual([]);
    expect(first.head.format).toEqual({ kind: 'xlsx', sheet: 'Folha' });
    expect(first.rows.map((r) => r.line)).toEqual([2, 3, 4, 5, 6, 9]);
    const r = await validated(reordered, 'Setembro');
    expect(r.valid.map((v) => [v.line, v.key, v.amountCents])).toEqual([[2, 'dora@example.com', 4200]]);
  });

  it('tells an empty worksheet as an empty sheet', async () => {
    const file = join(tempDir(), 'folha.xlsx');
    await writePayroll(file);
    const r = await rowsOf(file, 'Vazia');
    expect(r.rows).toEqual([]);
    expect(r.head.problems.map((p) => said(p))).toEqual([{ file, reason: 'the sheet is empty: expected a header line and one row per payment' }]);
  });

  it('refuses a file named .xlsx that is not a workbook, and hashes its bytes all the same', async () => {
    const file = join(tempDir(), 'folha.xlsx');
    writeFileSync(file, 'chave;valor\nana@exemplo.com;10,00\n');
    const r = await rowsOf(file);
    expect(r.rows).toEqual([]);
    expect(r.head.problems.map((p) => said(p))).toEqual([
      { file, reason: 'the file is not an XLSX workbook (it is not a ZIP file as .xlsx files are); save it from the spreadsheet as .xlsx, or as CSV' },
    ]);
    expect(r.sha256).toBe(createHash('sha256').update(readFileSync(file)).digest('hex'));
  });

  it('refuses a workbook cut short, and still hashes every byte', async () => {
    const dir = tempDir();
    await writePayroll(join(dir, 'whole.xlsx'));
    const file = join(dir, 'folha.xlsx');
    const bytes = readFileSync(join(dir, 'whole.xlsx'));
    writeFileSync(file, bytes.subarray(0, bytes.length / 2));
    const r = await rowsOf(file);
    expect(r.head.problems.map((p) => said(p))).toEqual([
      { file, reason: 'the file cannot be read as an XLSX workbook: it is damaged or cut short (FILE_ENDED); open it in the spreadsheet and save it again as .xlsx' },
    ]);
    expect(r.sha256).toBe(createHash('sha256').update(readFileSync(file)).digest('hex'));
  });

  it('refuses --sheet for a CSV file', async () => {
    const file = join(tempDir(), 'folha.csv');
    writeFileSync(file, 'chave;valor\nana@exemplo.com;10,00\n');
    await expect(rowsOf(file, 'Folha')).rejects.toThrow(new UsageError(`--sheet names a worksheet of an XLSX workbook, but ${file} is read as CSV, which has none.`));
  });
});

describe('cellText', () => {
  it.each([
    ['a formula, as its last result', { formula: 'A1*2', result: 24.6 }, undefined, '24.6', true],
    ['rich text, joined', { richText: [{ text: 'Ana ' }, { text: 'Souza' }] }, undefined, 'Ana Souza', false],
    ['an error value, as Excel shows it', { error: '#N/A' }, undefined, '#N/A', false],
    ['a whole number under a decimal format', 12, '0.00', '12', true],
    ['a CNPJ through its mask in quotes', 191000000000, '00"."000"."000"/"0000"-"00', '00.191.000/0000-00', false],
    ['a CPF through a plain zero mask', 1234567890, '00000000000', '01234567890', false],
    ['a number too long for its mask, as its digits', 123456, '0000', '123456', true],
    ['a date with a time, year first', new Date(Date.UTC(2026, 11, 5, 8, 30)), 'yyyy-mm-dd hh:mm', '2026-12-05 08:30', false],
    ['a date formula result', { formula: 'TODAY()', result: 46361 }, 'dd/mm/yyyy', '05/12/2026', false],
    ['an amount, as typed', 6825.84, undefined, '6825.84', true],
    ['a sum with binary noise, at 15 significant digits as Excel shows it', 0.1 + 0.2, undefined, '0.3', true],
    ['a number of 16 significant digits, at 15', 1234567890.123456, undefined, '1234567890.12346', true],
    ['a tiny number, at 15 significant digits', 1 / 3e7, undefined, '3.33333333333333e-8', true],
  ])('%s', (_what, value, numFmt, text, numeric) => {
    expect(cellText(value, numFmt)).toEqual({ text, numeric });
  });
});
