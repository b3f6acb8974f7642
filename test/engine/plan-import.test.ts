import { describe, expect, it } from 'vitest';
import { rowIdentifier } from '../../src/domain/identifier.js';
import { planImport, totalsOf } from '../../src/engine/plan-import.js';
import type { KeyResolution } from '../../src/engine/resolve-keys.js';
import type { Destination } from '../../src/provider/types.js';
import type { ValidRow } from '../../src/sheet/validate-rows.js';

const dest = (o: Partial<Destination>): Destination => ({
  accountType: 'checkingAccount', branch: '0001', key: '', accountNumber: '12345-6', institutionName: 'Banco Sandbox', document: '', type: 'cpf', institution: '00000000', name: '', ...o,
});
const row = (o: Partial<ValidRow> & { line: number; key: string }): ValidRow => ({
  keyType: 'cpf', amountCents: 10_000, description: '', identifier: null, name: null, document: null, ...o,
});
const found = (d: Destination): KeyResolution => ({ destination: d, error: null });

describe('planImport', () => {
  const resolutions = new Map<string, KeyResolution>([
    ['52998224725', found(dest({ key: '52998224725', document: '***.982.247-**', name: 'Ana Maria Souza' }))],
    ['ana@example.com', found(dest({ key: 'ana@example.com', type: 'email', document: '***.456.789-**', name: 'Ana Souza' }))],
    ['nobody@example.com', { destination: null, error: 'the provider does not know this Pix key' }],
  ]);

  it('derives identifiers from the sheet hash and line, keeping the ones the sheet gives', () => {
    const plan = planImport({
      file: 's.csv', sheetHash: 'abc', recent: [], resolutions,
      rows: [row({ line: 2, key: '52998224725' }), row({ line: 3, key: 'ana@example.com', keyType: 'email', identifier: '123e4567-e89b-42d3-a456-426614174000' })],
    });
    expect(plan.items.map((i) => i.identifier)).toEqual([rowIdentifier('abc', 2), '123e4567-e89b-42d3-a456-426614174000']);
    expect(plan.lookupProblems).toEqual([]);
  });

  it("rejects a row whose document is not the key owner's, comparing the digits the provider shows", () => {
    const plan = planImport({
      file: 's.csv', sheetHash: 'abc', recent: [], resolutions,
      rows: [
        row({ line: 2, key: '52998224725', document: { type: 'cpf', value: '52998224725' } }),
        row({ line: 3, key: 'ana@example.com', keyType: 'email', document: { type: 'cpf', value: '11144477735' } }),
      ],
    });
    expect(plan.items.map((i) => i.line)).toEqual([2]);
    expect(plan.lookupProblems).toEqual([{ file: 's.csv', line: 3, field: 'document', reason: 'the key belongs to document ***.456.789-**, not 11144477735' }]);
  });

  it('rejects unknown keys with the line and warns when the name differs', () => {
    const plan = planImport({
      file: 's.csv', sheetHash: 'abc', recent: [], resolutions,
      rows: [row({ line: 4, key: 'nobody@example.com', keyType: 'email' }), row({ line: 5, key: 'ana@example.com', keyType: 'email', name: 'Bruno Lima' }), row({ line: 6, key: '52998224725', name: 'ana souza' })],
    });
    expect(plan.lookupProblems).toEqual([{ file: 's.csv', line: 4, field: 'key', reason: 'the provider does not know this Pix key' }]);
    expect(plan.nameWarnings).toEqual([{ line: 5, sheetName: 'Bruno Lima', providerName: 'Ana Souza' }]);
  });

  it('flags a key paid the same amount recently', () => {
    const previous = { key: '52998224725', amountCents: 10_000, batchName: 'Outubro', createdAt: '2026-10-30T10:00:00Z' };
    const plan = planImport({ file: 's.csv', sheetHash: 'abc', recent: [previous], resolutions, rows: [row({ line: 2, key: '52998224725' }), row({ line: 3, key: '52998224725', amountCents: 10_001 })] });
    expect(plan.duplicates).toEqual([{ line: 2, key: '52998224725', amountCents: 10_000, previous }]);
  });

  it('totals in integer centavos by key type', () => {
    expect(totalsOf([{ keyType: 'cpf', amountCents: 10 }, { keyType: 'email', amountCents: 20 }, { keyType: 'cpf', amountCents: 33 }])).toEqual({
      count: 3, sumCents: 63, largestCents: 33,
      byKeyType: [{ keyType: 'cpf', count: 2, sumCents: 43 }, { keyType: 'email', count: 1, sumCents: 20 }],
    });
  });
});
