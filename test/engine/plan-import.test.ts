import { describe, expect, it } from 'vitest';
import { planRow, totalsOf } from '../../src/engine/pix-import/plan-import.js';
import type { KeyResolution } from '../../src/engine/pix-import/resolve-keys.js';
import type { Destination } from '../../src/provider/types.js';
import type { StagedRow } from '../../src/ledger/import-staging.js';

const dest = (o: Partial<Destination>): Destination => ({
  accountType: 'checkingAccount', branch: '0001', key: '', accountNumber: '12345-6', institutionName: 'Banco Sandbox', document: '', type: 'cpf', institution: '00000000', name: '', ...o,
});
const row = (o: Partial<StagedRow> & { line: number; key: string }): StagedRow => ({
  keyType: 'cpf', amountCents: 10_000, description: '', identifier: `00000000-0000-4000-8000-${String(o.line).padStart(12, '0')}`, name: null, document: null, ...o,
});
const found = (d: Destination): KeyResolution => ({ destination: d, error: null });

describe('planRow', () => {
  const ana = found(dest({ key: '52998224725', document: '***.982.247-**', name: 'Ana Maria Souza' }));
  const anaByEmail = found(dest({ key: 'ana@example.com', type: 'email', document: '***.456.789-**', name: 'Ana Souza' }));
  const unknown: KeyResolution = { destination: null, error: { code: 'key_lookup_failed', why: 'unknown_key' } };

  it('pays a row whose key the provider knows, keeping its identifier, amount and sheet values', () => {
    const plan = planRow('s.csv', row({ line: 2, key: '52998224725', amountCents: 24_506, name: 'Ana M. Souza', identifier: '123e4567-e89b-42d3-a456-426614174000' }), ana, undefined);
    expect(plan).toEqual({
      item: {
        line: 2, identifier: '123e4567-e89b-42d3-a456-426614174000', key: '52998224725', keyType: 'cpf', amountCents: 24_506, description: '',
        sheetName: 'Ana M. Souza', sheetDocument: null, destination: ana.destination,
      },
      nameWarning: null, duplicate: null, problem: null,
    });
  });

  it("rejects a row whose document is not the key owner's, comparing the digits the provider shows", () => {
    expect(planRow('s.csv', row({ line: 2, key: '52998224725', document: { type: 'cpf', value: '52998224725' } }), ana, undefined).problem).toBeNull();
    expect(planRow('s.csv', row({ line: 3, key: 'ana@example.com', keyType: 'email', document: { type: 'cpf', value: '11144477735' } }), anaByEmail, undefined)).toMatchObject({
      item: null, problem: { file: 's.csv', line: 3, field: 'document', reason: { code: 'document_mismatch', shown: '***.456.789-**', given: '11144477735' } },
    });
  });

  it('rejects unknown keys with the line and warns when the name differs', () => {
    expect(planRow('s.csv', row({ line: 4, key: 'nobody@example.com', keyType: 'email' }), unknown, undefined).problem).toEqual({
      file: 's.csv', line: 4, field: 'key', reason: { code: 'key_lookup_failed', why: 'unknown_key' },
    });
    expect(planRow('s.csv', row({ line: 5, key: 'ana@example.com', keyType: 'email', name: 'Bruno Lima' }), anaByEmail, undefined).nameWarning).toEqual({
      line: 5, sheetName: 'Bruno Lima', providerName: 'Ana Souza',
    });
    expect(planRow('s.csv', row({ line: 6, key: '52998224725', name: 'ana souza' }), ana, undefined).nameWarning).toBeNull();
  });

  it('flags a key paid the same amount recently, and still plans to pay it', () => {
    const previous = { key: '52998224725', amountCents: 10_000, batchName: 'Outubro', createdAt: '2026-10-30T10:00:00Z' };
    const plan = planRow('s.csv', row({ line: 2, key: '52998224725' }), ana, previous);
    expect(plan.duplicate).toEqual({ line: 2, key: '52998224725', amountCents: 10_000, previous });
    expect(plan.item?.line).toBe(2);
  });

  it('totals in integer centavos by key type', () => {
    expect(totalsOf([{ keyType: 'cpf', amountCents: 10 }, { keyType: 'email', amountCents: 20 }, { keyType: 'cpf', amountCents: 33 }])).toEqual({
      count: 3, sumCents: 63, largestCents: 33,
      byKeyType: [{ keyType: 'cpf', count: 2, sumCents: 43 }, { keyType: 'email', count: 1, sumCents: 20 }],
    });
  });
});
