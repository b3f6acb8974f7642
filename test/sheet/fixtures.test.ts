import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { said } from './said.js';
import { buildFixtures } from '../../scripts/make-fixtures.mjs';
import { formatProblem } from '../../src/errors.js';
import { readSheet } from '../../src/sheet/read-sheet.js';
import { validateRows } from '../../src/sheet/validate-rows.js';

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url)));

describe('fixtures', () => {
  it('are exactly what scripts/make-fixtures.mjs writes (run it after changing it)', () => {
    for (const [name, bytes] of Object.entries(buildFixtures())) {
      expect(Buffer.from(fixture(name)).equals(Buffer.from(bytes)), name).toBe(true);
    }
  });

  it('pagamentos-exemplo.csv: 300 valid payments as Excel in Brazil exports them', () => {
    const sheet = readSheet(fixture('pagamentos-exemplo.csv'), 'pagamentos-exemplo.csv');
    expect(sheet.format.encoding).toBe('windows-1252');
    expect(sheet.format.delimiter).toBe(';');
    expect(sheet.header).toEqual(['Nome', 'CPF/CNPJ', 'Chave Pix', 'Tipo de chave', 'Valor (R$)', 'Descrição']);
    expect(sheet.problems).toEqual([]);
    const v = validateRows(sheet, { maxItemAmountCents: 500_000 });
    expect(v.problems.map((p) => formatProblem(said(p)))).toEqual([]);
    expect(v.valid).toHaveLength(300);

    const byType = new Map<string, number>();
    for (const row of v.valid) byType.set(row.keyType, (byType.get(row.keyType) ?? 0) + 1);
    for (const type of ['cpf', 'email', 'phone', 'evp', 'cnpj']) expect(byType.get(type) ?? 0, type).toBeGreaterThanOrEqual(5);
    expect(v.valid.some((r) => r.keyType === 'cnpj' && /[A-Z]/.test(r.key))).toBe(true);
    for (const row of v.valid.filter((r) => r.keyType === 'cpf')) expect(row.document?.value).toBe(row.key);

    const names = v.valid.map((r) => r.name ?? '').join(' ');
    expect(names).toMatch(/João|Conceição/);
    expect(v.valid.every((r) => r.amountCents >= 5_000 && r.amountCents <= 500_000)).toBe(true);
    // The sandbox treats keys ending in 0000 and e-mails starting with "nobody" as unknown.
    expect(v.valid.filter((r) => /0000$/.test(r.key) || r.key.startsWith('nobody'))).toEqual([]);
    // One description spans two lines, so the last row is on line 302.
    expect(v.valid.find((r) => r.description.includes('sábado'))?.description).toBe('Diárias da obra sábado e domingo');
    expect(v.valid.at(-1)?.line).toBe(302);
  });

  it('pagamentos-com-erros.csv: every known error on its line', () => {
    const sheet = readSheet(fixture('pagamentos-com-erros.csv'), 'erros.csv');
    expect(sheet.format.encoding).toBe('utf-8');
    expect(sheet.problems).toEqual([]);
    const v = validateRows(sheet, { maxItemAmountCents: 5_000_000 });
    expect(v.problems.map((p) => `${p.line} ${p.field}`)).toEqual([
      '3 chave', // bad CPF check digits
      '4 chave', // CPF or phone, no key type
      '5 valor', // 1.234
      '6 valor', // negative
      '8 row', // duplicate of line 7
      '9 identificador', // not a UUID
      '11 valor', // above the limit (line 10 is blank)
      '12 documento', // bad CNPJ
      '13 tipo_chave', // "pix"
      '14 identificador', // the identifier of line 2
      '15 row', // too few cells
      '19 chave', // empty key
    ]);
    expect(said(v.problems.find((p) => p.line === 4)!).reason).toBe('ambiguous: CPF or phone; fill tipo_chave with cpf or celular');
    expect(said(v.problems.find((p) => p.line === 8)!).reason).toBe('duplicate: same as line 7 (same key, amount and description)');
    expect(said(v.problems.find((p) => p.line === 11)!).reason).toBe('R$ 75.000,00 is above the limit per item of R$ 50.000,00 (maxItemAmount)');
    expect(v.valid.map((r) => r.line)).toEqual([2, 7, 16, 18]);
    expect(v.valid.find((r) => r.line === 16)?.description).toBe('Serviços; parcela 1 pedreiro e ajudante');
  });

  it('payments-en.csv: English headers, commas and international decimals', () => {
    const sheet = readSheet(fixture('payments-en.csv'), 'payments-en.csv');
    expect([sheet.format.encoding, sheet.format.delimiter]).toEqual(['utf-8', ',']);
    const v = validateRows(sheet, { maxItemAmountCents: 500_000 });
    expect(v.problems).toEqual([]);
    expect(v.valid.map((r) => [r.keyType, r.amountCents])).toEqual([
      ['cpf', 125_000], ['email', 123_456], ['phone', 8_990], ['evp', 200_000], ['cnpj', 499_999], ['email', 50],
    ]);
  });
});
