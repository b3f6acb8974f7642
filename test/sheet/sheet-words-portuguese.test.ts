import { describe, expect, it } from 'vitest';
import { mapHeader } from '../../src/sheet/headers.js';
import { lostZerosReason } from '../../src/sheet/number-cells.js';
import { readSheet, type SheetRow } from '../../src/sheet/read-sheet.js';
import { SHEET_WORDS } from '../../src/sheet/sheet-words.js';
import { validateRows } from '../../src/sheet/validate-rows.js';

const PT = SHEET_WORDS['pt-BR'];
const bytes = (text: string) => new TextEncoder().encode(text);

describe('sheet problems in Portuguese', () => {
  it('validates rows in the locale it is given, English by default', () => {
    const sheet = readSheet(bytes('chave;valor\nana@example.com;10,00;Frete\n11987654374;1,234\n'), 'f.csv');
    expect(validateRows(sheet, { maxItemAmountCents: null, locale: 'pt-BR' }).problems.map((p) => [p.line, p.field, p.reason])).toEqual([
      [2, 'row', 'tem 3 células mas o cabeçalho tem 2; um valor com ";" precisa estar entre aspas duplas'],
      [3, 'chave', 'ambígua: CPF ou celular; acrescente uma coluna tipo_chave com cpf ou celular'],
      [3, 'valor', 'valor "1,234": ambíguo: "," separa milhares ou decimais? escreva 1234,00 ou use duas casas decimais'],
    ]);
    expect(validateRows(sheet, { maxItemAmountCents: null }).problems[1]?.reason).toBe('ambiguous: CPF or phone; add a tipo_chave column with cpf or celular');
  });

  it('says which document a number cell that lost its zeros would be', () => {
    const row: SheetRow = {
      line: 2, raw: [], misaligned: null, numericFields: ['key'],
      cells: { key: '1234567890', keyType: undefined, amount: '10', description: undefined, identifier: undefined, name: undefined, document: undefined },
    };
    expect(lostZerosReason(row, 'key', PT)).toBe(
      'a planilha guarda 1234567890 como número, o que tira os zeros à esquerda (10 dígitos; um CPF tem 11, um CNPJ 14); ' +
        'com os zeros seria o CPF 012.345.678-90: formate a coluna como Texto e digite de novo',
    );
  });

  it('names a missing key column in Portuguese', () => {
    expect(mapHeader(['valor', 'nome'], 'pt', PT).problems).toEqual([
      'falta a coluna da chave Pix: chame uma de chave, chave_pix, key ou pix_key (a primeira linha deve ser o cabeçalho; ela tem "valor", "nome")',
    ]);
  });
});
