import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../src/errors.js';
import { readSheet } from '../../src/sheet/read-sheet.js';
import { validateRows, type SheetValidation } from '../../src/sheet/validate-rows.js';
import { said } from './said.js';
import { utf8 } from './sheet-bytes.js';

// Valid documents computed with their check digits (see src/domain/cpf.ts, cnpj.ts).
const CPF = '529.982.247-25';
const CPF_DIGITS = '52998224725';
const OTHER_CPF = '390.533.447-05';
const AMBIGUOUS = '11987654374'; // a valid CPF and the mobile number (11) 98765-4374
const CNPJ = '11.222.333/0001-81';
const CNPJ_ALNUM = '12.ABC.345/01DE-35';
const EVP = '7c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const UUID = '3f2b8c4e-5d6a-4b7c-8d9e-0f1a2b3c4d5e';

function validate(lines: string[], maxItemAmountCents: number | null = null): SheetValidation {
  return validateRows(readSheet(utf8(lines.join('\n') + '\n'), 'p.csv'), { maxItemAmountCents });
}
const report = (v: SheetValidation): string[] => v.problems.map((p) => formatProblem(said(p)));

describe('validateRows: valid rows', () => {
  it('returns each row normalized, with its line', () => {
    const v = validate([
      'chave;tipo_chave;valor;descricao;identificador;nome;documento',
      `${CPF};cpf;1.234,56;"  Salário   de\nmarço ";${UUID.toUpperCase()};  Maria  da Conceição ;${CPF}`,
      'Ana@Exemplo.com.br;;10;;;;',
    ]);
    expect(report(v)).toEqual([]);
    expect(v.valid).toEqual([
      {
        line: 2, key: CPF_DIGITS, keyType: 'cpf', accountType: null, amountCents: 123456, description: 'Salário de março', identifier: UUID,
        name: 'Maria da Conceição', document: { type: 'cpf', value: CPF_DIGITS },
      },
      { line: 4, key: 'ana@exemplo.com.br', keyType: 'email', accountType: null, amountCents: 1000, description: '', identifier: null, name: null, document: null },
    ]);
  });

  it("never reads a person's sheet as paying an account: only a remittance's table writes account rows", () => {
    const v = validate(['chave;tipo_chave;valor', '237/1234/123456-7;account:checking;10']);
    expect(v.valid).toEqual([]);
    expect(v.problems.map((p) => [p.line, p.field, p.reason.code])).toEqual([[2, 'tipo_chave', 'key_type_unknown']]);
  });

  it('reads a document given with the very text of the CNPJ key as that CNPJ', () => {
    const v = validate(['chave;tipo_chave;valor;cpf_cnpj', '12.abc.345/01de-35;cnpj;10;12.abc.345/01de-35', `${CNPJ};;20;${CNPJ}`]);
    expect(report(v)).toEqual([]);
    expect(v.valid.map((r) => r.document)).toEqual([{ type: 'cnpj', value: '12ABC34501DE35' }, { type: 'cnpj', value: '11222333000181' }]);
  });

  it.each([
    ['cpf', CPF, 'cpf', CPF_DIGITS],
    ['CPF', CPF_DIGITS, 'cpf', CPF_DIGITS],
    ['cnpj', CNPJ, 'cnpj', '11222333000181'],
    ['CNPJ', CNPJ_ALNUM, 'cnpj', '12ABC34501DE35'],
    ['telefone', '(11) 98765-4321', 'phone', '+5511987654321'],
    ['celular', '11987654321', 'phone', '+5511987654321'],
    ['Celular', '+55 21 99876-5432', 'phone', '+5521998765432'],
    ['phone', '+55 11 98765 4321', 'phone', '+5511987654321'],
    ['email', 'ana@exemplo.com.br', 'email', 'ana@exemplo.com.br'],
    ['e-mail', 'Ana@Exemplo.com.br', 'email', 'ana@exemplo.com.br'],
    ['E-mail', 'ana@exemplo.com.br', 'email', 'ana@exemplo.com.br'],
    ['aleatoria', EVP, 'evp', EVP],
    ['aleatória', EVP.toUpperCase(), 'evp', EVP],
    ['Chave aleatória', EVP, 'evp', EVP],
    ['evp', EVP, 'evp', EVP],
    ['random', EVP, 'evp', EVP],
  ])('key type "%s" with key %s', (typeWord, key, keyType, normalized) => {
    const v = validate(['chave;tipo_chave;valor', `${key};${typeWord};10`]);
    expect(report(v)).toEqual([]);
    expect(v.valid[0]).toMatchObject({ key: normalized, keyType });
  });

  it.each([
    [CPF, 'cpf'],
    [CNPJ, 'cnpj'],
    [CNPJ_ALNUM, 'cnpj'],
    ['+55 11 98765-4321', 'phone'],
    ['(11) 98765-4321', 'phone'],
    ['ana@exemplo.com.br', 'email'],
    [EVP, 'evp'],
  ])('detects the type of %s when none is given', (key, keyType) => {
    const v = validate(['chave;valor', `${key};10`]);
    expect(report(v)).toEqual([]);
    expect(v.valid[0]?.keyType).toBe(keyType);
  });

  it.each([
    ['1.234,56', 123456],
    ['1234,56', 123456],
    ['R$ 1.234,56', 123456],
    ['1.234.567,89', 123456789],
    ['0,50', 50],
    ['10,5', 1050],
    ['1234.56', 123456],
    ['"1,234.56"', 123456],
    ['10', 1000],
    ['0,01', 1],
    ['007', 700],
    ['999999999999,99', 99999999999999],
    ['1234567890123', 123456789012300],
    ['1.5', 150],
  ])('reads the amount %s as %d centavos', (amount, cents) => {
    const v = validate(['chave;valor', `ana@exemplo.com.br;${amount}`]);
    expect(report(v)).toEqual([]);
    expect(v.valid[0]?.amountCents).toBe(cents);
  });

  it('reads international decimals in a comma-separated sheet', () => {
    const v = validate(['key,amount', 'ana@example.com,"1,234.56"', 'bia@example.com,1234.5', 'cid@example.com,0.99']);
    expect(v.valid.map((r) => r.amountCents)).toEqual([123456, 123450, 99]);
  });

  it('settles an ambiguous CPF-or-phone key by its type', () => {
    const v = validate(['chave;tipo_chave;valor', `${AMBIGUOUS};cpf;10`, `${AMBIGUOUS};celular;10`]);
    expect(report(v)).toEqual([]);
    expect(v.valid.map((r) => [r.keyType, r.key])).toEqual([['cpf', AMBIGUOUS], ['phone', '+5511987654374']]);
  });

  it('accepts an amount equal to the limit, and any amount without a limit', () => {
    expect(validate(['chave;valor', 'ana@exemplo.com.br;5.000,00'], 500_000).valid).toHaveLength(1);
    expect(validate(['chave;valor', 'ana@exemplo.com.br;5.000.000,00'], null).valid).toHaveLength(1);
  });

  it('accepts a description of exactly 140 characters, accents counted once', () => {
    const v = validate(['chave;valor;descricao', `ana@exemplo.com.br;10;${'ç'.repeat(140)}`]);
    expect(report(v)).toEqual([]);
  });

  it('accepts extra cells when they are blank, and a header padded with blank cells', () => {
    const v = validate(['chave;valor;;', 'ana@exemplo.com.br;10', 'bia@exemplo.com.br;10;;;;']);
    expect(report(v)).toEqual([]);
    expect(v.valid).toHaveLength(2);
  });

  it('is not fooled by the same key and amount with another description', () => {
    const v = validate(['chave;valor;descricao', 'ana@exemplo.com.br;10;Parcela 1', 'ana@exemplo.com.br;10;Parcela 2']);
    expect(v.valid).toHaveLength(2);
  });
});

describe('validateRows: every rejection, with its line and field', () => {
  // Reasons that come from src/domain are matched loosely (their wording is domain's); line and field exactly.
  it.each<[string, string[], (string | RegExp)[], (number | null)?]>([
    ['an empty key', ['chave;valor', ';10'], ['p.csv:2 chave: the Pix key is empty']],
    [
      'an invalid CPF key',
      ['chave;tipo_chave;valor', '123.456.789-00;cpf;10'],
      [/^p\.csv:2 chave: .*CPF check digits do not match \(expected 09\)$/],
    ],
    [
      'a key that is valid for another type than the one given',
      ['chave;tipo_chave;valor', 'ana@exemplo.com.br;cpf;10'],
      [/^p\.csv:2 chave: .*CPF may only have digits.*; it looks like a valid e-mail key: check tipo_chave$/],
    ],
    [
      'a key that is nothing',
      ['chave;valor', 'fulano;10'],
      [/^p\.csv:2 chave: not a Pix key/],
    ],
    [
      'a key Excel turned into scientific notation',
      ['chave;valor', '5,29982E+10;10'],
      ['p.csv:2 chave: "5,29982E+10" is a number a spreadsheet turned into scientific notation; format the column as text and export again'],
    ],
    [
      'an unknown key type',
      ['chave;tipo_chave;valor', 'ana@exemplo.com.br;pix;10'],
      ['p.csv:2 tipo_chave: unknown key type "pix": use cpf, cnpj, celular (or telefone, phone), email or aleatoria (or evp, random)'],
    ],
    [
      'an ambiguous key with an empty key type',
      ['chave;tipo_chave;valor', `${AMBIGUOUS};;10`],
      ['p.csv:2 chave: ambiguous: CPF or phone; fill tipo_chave with cpf or celular'],
    ],
    [
      'an ambiguous key in a sheet without a key type column',
      ['chave;valor', `${AMBIGUOUS};10`],
      ['p.csv:2 chave: ambiguous: CPF or phone; add a tipo_chave column with cpf or celular'],
    ],
    [
      'an ambiguous key in an English sheet',
      ['key,amount', `${AMBIGUOUS},10`],
      ['p.csv:2 key: ambiguous: CPF or phone; add a key_type column with cpf or phone'],
    ],
    ['an empty amount', ['chave;valor', 'ana@exemplo.com.br;'], ['p.csv:2 valor: the amount is empty']],
    [
      'an ambiguous 1.234',
      ['chave;valor', 'ana@exemplo.com.br;1.234'],
      ['p.csv:2 valor: amount "1.234": ambiguous: is "." a thousands separator or the decimal mark? write 1234,00 or use two decimals'],
    ],
    [
      'an ambiguous 1,234',
      ['chave;valor', 'ana@exemplo.com.br;"1,234"'],
      ['p.csv:2 valor: amount "1,234": ambiguous: is "," a thousands separator or the decimal mark? write 1234,00 or use two decimals'],
    ],
    ['a negative amount', ['chave;valor', 'ana@exemplo.com.br;-50,00'], ['p.csv:2 valor: negative amounts are not accepted: "-50,00"']],
    ['a zero amount', ['chave;valor', 'ana@exemplo.com.br;0,00'], ['p.csv:2 valor: amount must be greater than zero']],
    ['three decimals', ['chave;valor', 'ana@exemplo.com.br;10,005'], [/^p\.csv:2 valor: amount "10,005": /]],
    [
      'an amount above the limit',
      ['chave;valor', 'ana@exemplo.com.br;5.000,01'],
      ['p.csv:2 valor: R$ 5.000,01 is above the limit per item of R$ 5.000,00 (maxItemAmount)'],
      500_000,
    ],
    [
      'an identifier that is not a UUID',
      ['chave;valor;identificador', 'ana@exemplo.com.br;10;abc-123'],
      ['p.csv:2 identificador: "abc-123" is not a UUID (like 123e4567-e89b-42d3-a456-426614174000); leave it empty and paybatch derives one'],
    ],
    [
      'the nil UUID as identifier',
      ['chave;valor;identificador', 'ana@exemplo.com.br;10;00000000-0000-0000-0000-000000000000'],
      ['p.csv:2 identificador: the nil UUID cannot identify a payment; leave it empty and paybatch derives one'],
    ],
    [
      'an identifier used twice (in any case)',
      ['chave;valor;identificador', `ana@exemplo.com.br;10;${UUID}`, `bia@exemplo.com.br;20;${UUID.toUpperCase()}`],
      ['p.csv:3 identificador: the same identifier as line 2; each payment needs its own'],
    ],
    [
      'an invalid CPF document',
      ['chave;valor;documento', 'ana@exemplo.com.br;10;529.982.247-24'],
      ['p.csv:2 documento: CPF check digits do not match (expected 25)'],
    ],
    [
      'a document of the wrong length',
      ['chave;valor;cpf_cnpj', 'ana@exemplo.com.br;10;1234567'],
      ['p.csv:2 cpf_cnpj: a document is a CPF (11 digits) or a CNPJ (14 characters), got 7 characters'],
    ],
    [
      'a CPF key written with parentheses, given again as the document (a document has none)',
      ['chave;valor;documento', '390(533)44705;10;390(533)44705'],
      ['p.csv:2 documento: a document is a CPF (11 digits) or a CNPJ (14 characters), got 13 characters'],
    ],
    [
      'a document that is not the CPF key',
      ['chave;valor;documento', `${CPF};10;${OTHER_CPF}`],
      [`p.csv:2 documento: ${OTHER_CPF} does not match the CPF key ${CPF}: a CPF key is the payee's own CPF`],
    ],
    [
      'a description over 140 characters',
      ['chave;valor;descricao', `ana@exemplo.com.br;10;${'ã'.repeat(141)}`],
      ['p.csv:2 descricao: has 141 characters; a Pix payment carries at most 140'],
    ],
    [
      'a row with too few cells',
      ['chave;valor;descricao;nome', 'ana@exemplo.com.br;10;x'],
      ['p.csv:2 row: has 3 cells but the header has 4; a cell is missing (or a value holds a line break without quotes)'],
    ],
    [
      'a row with too many cells',
      ['key,amount,description', 'ana@example.com,1,234.56,Rent'],
      [
        'p.csv:2 row: has 4 cells but the header has 3; a value with "," in it must be in double quotes',
      ],
    ],
    [
      'a row with too many cells in a tab sheet',
      ['key\tamount', 'ana@example.com\t10\tx'],
      ['p.csv:2 row: has 3 cells but the header has 2; a value with a tab in it must be in double quotes'],
    ],
    [
      'amounts of zero, however written',
      ['chave;valor', 'ana@exemplo.com.br;0', 'bia@exemplo.com.br;0,00', 'cid@exemplo.com.br;000.00'],
      ['p.csv:2 valor: amount must be greater than zero', 'p.csv:3 valor: amount must be greater than zero', 'p.csv:4 valor: amount must be greater than zero'],
    ],
    [
      'amounts a digit away from the plain shape',
      ['chave;valor', 'ana@exemplo.com.br;,50', 'bia@exemplo.com.br;1,234', 'cid@exemplo.com.br;12a,00'],
      [
        'p.csv:2 valor: amount ",50": a digit is needed before "," (write 0,50)',
        /^p\.csv:3 valor: amount "1,234": ambiguous/,
        'p.csv:4 valor: amount "12a,00" has characters other than digits, "." and ","',
      ],
    ],
    [
      'the same row again with its description in upper case, accents included',
      ['chave;valor;descricao', 'ana@exemplo.com.br;10;Salário de Março', 'ana@exemplo.com.br;10;SALÁRIO DE MARÇO', 'ana@exemplo.com.br;10;Salario de Marco'],
      ['p.csv:3 row: duplicate: same as line 2 (same key, amount and description)'],
    ],
    [
      'the same row again with letters beyond Latin-1 in another case',
      ['chave;valor;descricao', 'ana@exemplo.com.br;10;Łódź Ελλάδα', 'ana@exemplo.com.br;10;ŁÓDŹ ΕΛΛΆΔΑ', 'ana@exemplo.com.br;10;Lodz Ελλάδα'],
      ['p.csv:3 row: duplicate: same as line 2 (same key, amount and description)'],
    ],
    [
      'the same key and description with another amount, and the same amount for another key',
      ['chave;valor;descricao', 'ana@exemplo.com.br;10;x', 'ana@exemplo.com.br;10,01;x', 'bia@exemplo.com.br;10;x', 'ana@exemplo.com.br;10,00;X'],
      ['p.csv:5 row: duplicate: same as line 2 (same key, amount and description)'],
    ],
    [
      'the same row twice, written differently',
      ['chave;valor;descricao', `${CPF};1.000,00;Aluguel  março`, 'x@exemplo.com.br;1;x', `${CPF_DIGITS};1000;aluguel março`],
      ['p.csv:4 row: duplicate: same as line 2 (same key, amount and description)'],
    ],
  ])('%s', (_name, lines, expected, max = null) => {
    const v = validate(lines, max);
    expect(report(v)).toEqual(expected.map((e) => (typeof e === 'string' ? e : expect.stringMatching(e))));
  });

  it('reports every problem of a row, and every later duplicate against the first line', () => {
    const v = validate([
      'chave;tipo_chave;valor;descricao;identificador;documento',
      'ana@exemplo.com.br;email;10;x;;',
      'ana@exemplo.com.br;email;10;x;;',
      '',
      'ana@exemplo.com.br;email;10;x;;',
      '123;cpf;-1;ok;nope;111',
    ]);
    expect(report(v)).toEqual([
      'p.csv:3 row: duplicate: same as line 2 (same key, amount and description)',
      'p.csv:5 row: duplicate: same as line 2 (same key, amount and description)',
      expect.stringMatching(/^p\.csv:6 chave: .*CPF must have 11 digits, got 3/),
      'p.csv:6 valor: negative amounts are not accepted: "-1"',
      'p.csv:6 identificador: "nope" is not a UUID (like 123e4567-e89b-42d3-a456-426614174000); leave it empty and paybatch derives one',
      'p.csv:6 documento: a document is a CPF (11 digits) or a CNPJ (14 characters), got 3 characters',
    ]);
    expect(v.valid.map((r) => r.line)).toEqual([2]);
    expect(v.rejected.map((r) => [r.row.line, r.problems.length])).toEqual([[3, 1], [5, 1], [6, 4]]);
  });

  it('names fields as the sheet names its columns', () => {
    const v = validate(['Chave Pix;Valor (R$);Descrição', 'ana@exemplo.com.br;abc;' + 'x'.repeat(141)]);
    expect(v.problems.map((p) => p.field)).toEqual(['Valor (R$)', 'Descrição']);
  });

  it('reports problems on the line where a multi-line record starts', () => {
    const v = validate(['chave;valor;descricao', 'ana@exemplo.com.br;10;"duas', 'linhas"', 'bia@exemplo.com.br;1.234;"outra', '', 'linha"']);
    expect(report(v)).toEqual([
      'p.csv:4 valor: amount "1.234": ambiguous: is "." a thousands separator or the decimal mark? write 1234,00 or use two decimals',
    ]);
  });

  it('validates nothing when the sheet lacks a required column (ReadSheet.problems says why)', () => {
    const sheet = readSheet(utf8('nome;valor\nAna;10\n'), 'p.csv');
    expect(sheet.problems).toHaveLength(1);
    expect(validateRows(sheet, { maxItemAmountCents: null })).toEqual({ valid: [], rejected: [], problems: [] });
  });
});
