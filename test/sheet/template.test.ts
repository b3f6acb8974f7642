import { describe, expect, it } from 'vitest';
import { maskedDocumentMatches } from '../../src/domain/document.js';
import { destinationForKey } from '../../src/sandbox/key-directory.js';
import { SHEET_FIELDS } from '../../src/sheet/headers.js';
import { readSheet } from '../../src/sheet/read-sheet.js';
import { templateCsv } from '../../src/sheet/template.js';
import { validateRows } from '../../src/sheet/validate-rows.js';
import { utf8 } from './sheet-bytes.js';

describe('templateCsv', () => {
  it.each([
    ['pt', ';', 'chave;tipo_chave;valor;descricao;identificador;nome;documento'],
    ['en', ',', 'key,key_type,amount,description,identifier,name,document'],
  ] as const)('%s: every column, example rows that pass every rule', (lang, delimiter, header) => {
    const csv = templateCsv(lang);
    expect(csv.startsWith('\uFEFF' + header + '\r\n')).toBe(true);
    const sheet = readSheet(utf8(csv), 'template.csv');
    expect(sheet.problems).toEqual([]);
    expect(sheet.format.delimiter).toBe(delimiter);
    expect(Object.keys(sheet.columns).sort()).toEqual([...SHEET_FIELDS].sort());
    const v = validateRows(sheet, { maxItemAmountCents: 500_000 });
    expect(v.problems).toEqual([]);
    expect(new Set(v.valid.map((r) => r.keyType))).toEqual(new Set(['cpf', 'cnpj', 'email', 'phone', 'evp']));
  });

  it('has the same kinds of payment, amounts and documents in both languages', () => {
    const rows = (lang: 'pt' | 'en') => {
      const sheet = readSheet(utf8(templateCsv(lang)), 't.csv');
      return validateRows(sheet, { maxItemAmountCents: null }).valid.map((r) => [r.keyType, r.amountCents, r.identifier, r.document]);
    };
    expect(rows('en')).toEqual(rows('pt'));
  });

  it.each(['pt', 'en'] as const)('%s: imports on the embedded sandbox, each document the one its key belongs to', (lang) => {
    const sheet = readSheet(utf8(templateCsv(lang)), 't.csv');
    const withDocument = validateRows(sheet, { maxItemAmountCents: null }).valid.filter((r) => r.document !== null);
    expect(withDocument.map((r) => r.keyType).sort()).toEqual(['cnpj', 'cpf']);
    for (const r of withDocument) {
      if (r.keyType === 'account') throw new Error(`line ${r.line}: the template pays by key`);
      expect(maskedDocumentMatches(r.document?.value ?? '', destinationForKey(r.key, r.keyType).document)).toBe(true);
    }
  });
});
