import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { saySheet } from '../../src/words/sheet.js';
import { InputRejectedError } from '../../src/errors.js';
import { readBillList } from '../../src/sheet/bill-sheet.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();

async function workbook(rows: unknown[][]): Promise<Buffer> {
  const file = join(tempDir(), 'contas.xlsx');
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Contas');
  for (const row of rows) sheet.addRow(row);
  await wb.xlsx.writeFile(file);
  return readFileSync(file);
}

describe('readBillList', () => {
  it('reads the first worksheet of a workbook: codes as text, amounts as numbers, lines as row numbers', async () => {
    const bytes = await workbook([['Código', 'Valor', 'Descrição'], ['83680000000-9 87450048001-5', 159.9, 'luz'], [], ['23793381286000782713695000063305516560000150000', null, null]]);
    expect(await readBillList(bytes, 'contas.xlsx', (r) => saySheet(r, 'en'))).toEqual([
      { code: '83680000000-9 87450048001-5', amount: '159.9', description: 'luz', file: 'contas.xlsx', line: 2 },
      { code: '23793381286000782713695000063305516560000150000', amount: null, description: null, file: 'contas.xlsx', line: 4 },
    ]);
  });

  it('refuses a bill code the workbook stored as a number, naming its line', async () => {
    const bytes = await workbook([['codigo', 'valor'], ['83680000000-9 87450048001-5', 10], [8.3680000000987e47, 20]]);
    const error = await readBillList(bytes, 'contas.xlsx', (r) => saySheet(r, 'en')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputRejectedError);
    expect((error as InputRejectedError).problems).toEqual([
      { file: 'contas.xlsx', line: 3, field: 'codigo', reason: 'the workbook stores the bill code as a number, which keeps only 15 digits: format the column as Text and paste the code again' },
    ]);
  });

  it('reads CSV bytes as before', async () => {
    expect(await readBillList(Buffer.from('codigo;valor\n123;1,00\n'), 'contas.csv', (r) => saySheet(r, 'en'))).toEqual([{ code: '123', amount: '1,00', description: null, file: 'contas.csv', line: 2 }]);
  });
});
