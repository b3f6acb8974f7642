import { describe, expect, it } from 'vitest';
import { saySheet } from '../../src/words/sheet.js';
import { foldHeader, mapHeader, type SheetField } from '../../src/sheet/headers.js';

describe('foldHeader', () => {
  it.each([
    ['Descrição', 'descricao'],
    ['Chave_PIX', 'chavepix'],
    [' Tipo de Chave ', 'tipodechave'],
    ['CPF/CNPJ', 'cpfcnpj'],
    ['Valor (R$)', 'valor'],
    ['HISTÓRICO', 'historico'],
    ['key-type', 'keytype'],
  ])('%s → %s', (cell, folded) => {
    expect(foldHeader(cell)).toBe(folded);
  });
});

describe('mapHeader', () => {
  it.each<[string, SheetField]>([
    ['chave', 'key'], ['Chave Pix', 'key'], ['chave_pix', 'key'], ['key', 'key'], ['Pix Key', 'key'], ['pix_key', 'key'],
    ['tipo_chave', 'keyType'], ['Tipo', 'keyType'], ['Tipo de chave', 'keyType'], ['key_type', 'keyType'], ['Type', 'keyType'],
    ['valor', 'amount'], ['Valor (R$)', 'amount'], ['amount', 'amount'], ['VALUE', 'amount'],
    ['descricao', 'description'], ['Descrição', 'description'], ['Histórico', 'description'], ['description', 'description'],
    ['identificador', 'identifier'], ['ID', 'identifier'], ['identifier', 'identifier'],
    ['nome', 'name'], ['Favorecido', 'name'], ['Nome do favorecido', 'name'], ['name', 'name'],
    ['documento', 'document'], ['CPF', 'document'], ['CNPJ', 'document'], ['CPF/CNPJ', 'document'], ['cpf_cnpj', 'document'],
    ['Document', 'document'],
  ])('"%s" is the %s column', (cell, field) => {
    const header = field === 'key' ? [cell, 'valor'] : field === 'amount' ? ['chave', cell] : ['chave', 'valor', cell];
    const mapping = mapHeader(header, 'pt');
    expect(mapping.columns[field]).toBe(header.indexOf(cell));
    expect(mapping.problems).toEqual([]);
  });

  it('names unknown columns (1-based) and passes over blank ones', () => {
    const mapping = mapHeader(['Observação', 'chave', '', 'valor', ' Centro de custo ', 'documneto'], 'pt');
    expect(mapping.columns).toEqual({ key: 1, amount: 3 });
    expect(mapping.problems).toEqual([]);
    expect(mapping.ignored).toEqual([
      { column: 1, name: 'Observação' }, { column: 5, name: 'Centro de custo' }, { column: 6, name: 'documneto' },
    ]);
  });

  it.each<[string, SheetField]>([
    ['\uFEFFdocumento', 'document'],
    ['ï»¿documento', 'document'],
    ['DescriÃ§Ã£o', 'description'],
    ['HISTÃ\u201cRICO', 'description'],
    ['\u200Bvalor\u00AD', 'amount'],
    ['Descri\uFFFD\uFFFDo', 'description'],
    ['Descri??o', 'description'],
    ['Hist\uFFFDrico', 'description'],
  ])('reads "%s" as the %s column: a byte order mark, invisible characters and mis-decoding do not hide a column', (cell, field) => {
    const mapping = mapHeader(['chave', 'valor', cell].filter((c, i) => i !== (field === 'amount' ? 1 : 3)), 'pt');
    expect(mapping.columns[field]).toBeDefined();
    expect(mapping.ignored).toEqual([]);
  });

  it('does not guess a column from replacement characters that fit more than one name, or too few letters', () => {
    // "?" and "id" both fit "??"; "cpf"/"cnpj" fit "c?p?" only partly: nothing is taken on a guess.
    expect(mapHeader(['chave', 'valor', '??', 'c\uFFFDf\uFFFD'], 'pt').ignored.map((c) => c.name)).toEqual(['??', 'c\uFFFDf\uFFFD']);
  });

  it('reports a missing key or amount column, listing what the header has', () => {
    const mapping = mapHeader(['chve', 'vlr'], 'pt');
    expect(mapping.problems.map((r) => saySheet(r, 'en'))).toEqual([
      'no column for the Pix key: name one chave, chave_pix, key or pix_key (the first line must be the header; it has "chve", "vlr")',
      'no column for the amount: name one valor, amount or value (the first line must be the header; it has "chve", "vlr")',
    ]);
  });

  it('reports a field named by two columns', () => {
    const mapping = mapHeader(['chave', 'valor', 'CPF', 'documento'], 'pt');
    expect(mapping.columns.document).toBe(2);
    expect(mapping.problems.map((r) => saySheet(r, 'en'))).toEqual(['columns "CPF" (column 3) and "documento" (column 4) both mean the document (CPF/CNPJ); keep one']);
  });

  it.each<[string[], 'pt' | 'en', 'pt' | 'en']>([
    [['chave', 'valor', 'descricao'], 'en', 'pt'],
    [['key', 'amount', 'description'], 'pt', 'en'],
    [['chave', 'amount'], 'pt', 'pt'],
    [['chave', 'amount'], 'en', 'en'],
    [['cpf', 'id', 'key', 'valor', 'nome'], 'en', 'pt'],
  ])('the language of %j (fallback %s) is %s', (header, fallback, lang) => {
    expect(mapHeader(header, fallback).lang).toBe(lang);
  });
});
