import { describe, expect, it } from 'vitest';
import { mapHeader } from '../../src/sheet/headers.js';
import { lostZerosReason } from '../../src/sheet/number-cells.js';
import { readSheet, type SheetRow } from '../../src/sheet/read-sheet.js';
import { validateRows } from '../../src/sheet/validate-rows.js';
import { saySheet } from '../../src/words/sheet.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('sheet problems in Portuguese', () => {
  it('validates rows into reasons, said in either language at the edge', () => {
    const sheet = readSheet(bytes('chave;valor\nana@example.com;10,00;Frete\n11987654374;1,234\n'), 'f.csv');
    const problems = validateRows(sheet, { maxItemAmountCents: null }).problems;
    expect(problems.map((p) => [p.line, p.field, p.reason.code])).toEqual([
      [2, 'row', 'cells_unquoted'],
      [3, 'chave', 'key_ambiguous'],
      [3, 'valor', 'amount_ambiguous_mark'],
    ]);
    expect(problems.map((p) => saySheet(p.reason, 'pt-BR'))).toEqual([
      'tem 3 células mas o cabeçalho tem 2; um valor com ";" precisa estar entre aspas duplas',
      'ambígua: CPF ou celular; acrescente uma coluna tipo_chave com cpf ou celular',
      'valor "1,234": ambíguo: "," separa milhares ou decimais? escreva 1234,00 ou use duas casas decimais',
    ]);
    expect(saySheet(problems[1]!.reason, 'en')).toBe('ambiguous: CPF or phone; add a tipo_chave column with cpf or celular');
  });

  it('says which document a number cell that lost its zeros would be', () => {
    const row: SheetRow = {
      line: 2, raw: [], misaligned: null, numericFields: ['key'],
      cells: { key: '1234567890', keyType: undefined, amount: '10', description: undefined, identifier: undefined, name: undefined, document: undefined },
    };
    const reason = lostZerosReason(row, 'key');
    expect(reason).toEqual({ code: 'zeros_lost', digits: '1234567890', meant: { type: 'cpf', value: '012.345.678-90' } });
    expect(saySheet(reason!, 'pt-BR')).toBe(
      'a planilha guarda 1234567890 como número, o que tira os zeros à esquerda (10 dígitos; um CPF tem 11, um CNPJ 14); ' +
        'com os zeros seria o CPF 012.345.678-90: formate a coluna como Texto e digite de novo',
    );
  });

  it('names a missing key column in Portuguese', () => {
    const { problems } = mapHeader(['valor', 'nome'], 'pt');
    expect(problems).toEqual([{ code: 'column_missing', field: 'key', found: ['valor', 'nome'] }]);
    expect(problems.map((r) => saySheet(r, 'pt-BR'))).toEqual([
      'falta a coluna da chave Pix: chame uma de chave, chave_pix, key ou pix_key (a primeira linha deve ser o cabeçalho; ela tem "valor", "nome")',
    ]);
  });
});
