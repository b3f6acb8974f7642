import { describe, expect, it } from 'vitest';
import { IMPORT_WORDS } from '../../src/engine/pix-import/import-words.js';
import { duplicatesRefusal, planRow } from '../../src/engine/pix-import/plan-import.js';
import { lookKeysUp, type KeyResolution } from '../../src/engine/pix-import/resolve-keys.js';
import type { StagedRow } from '../../src/ledger/import-staging.js';
import type { Destination } from '../../src/provider/types.js';

const PT = IMPORT_WORDS['pt-BR'];
const dest = (o: Partial<Destination>): Destination => ({
  accountType: 'checkingAccount', branch: '0001', key: '', accountNumber: '12345-6', institutionName: 'Banco Sandbox', document: '', type: 'email', institution: '00000000', name: '', ...o,
});
const row = (o: Partial<StagedRow> & { line: number; key: string }): StagedRow => ({
  keyType: 'email', amountCents: 10_000, description: '', identifier: `00000000-0000-4000-8000-${String(o.line).padStart(12, '0')}`, name: null, document: null, ...o,
});

describe('the import refusals the provider answers bring, in Portuguese', () => {
  it("says in Portuguese that a document is not the key owner's, or cannot be checked", () => {
    const cpf = { type: 'cpf' as const, value: '11144477735' };
    const shown = { destination: dest({ key: 'ana@example.com', document: '***.456.789-**' }), error: null } as const;
    expect(planRow('s.csv', row({ line: 3, key: 'ana@example.com', document: cpf }), shown, undefined, PT).problem).toEqual({
      file: 's.csv', line: 3, field: 'document', reason: 'a chave pertence ao documento ***.456.789-**, não a 11144477735', code: 'document_mismatch',
    });
    const hidden = { destination: dest({ key: 'ana@example.com', document: '' }), error: null } as const;
    expect(planRow('s.csv', row({ line: 4, key: 'ana@example.com', document: cpf }), hidden, undefined, PT).problem?.reason).toBe(
      'o provedor não mostra documento para esta chave, então não dá para conferir',
    );
  });

  it('says in Portuguese that the provider does not know a key', async () => {
    const answers: [string, KeyResolution][] = [];
    await lookKeysUp({ lookupKey: async () => null }, ['ninguem@example.com'], { onResolved: (k, r) => answers.push([k, r]), words: PT });
    expect(answers).toEqual([['ninguem@example.com', { destination: null, error: 'o provedor não conhece esta chave Pix' }]]);
  });

  it('refuses duplicates of recent payments in Portuguese', () => {
    const previous = { key: 'ana@example.com', amountCents: 10_000, batchName: 'Outubro', createdAt: '2026-10-30T10:00:00Z' };
    const e = duplicatesRefusal('folha.csv', [{ line: 2, key: 'ana@example.com', amountCents: 10_000, previous }], PT.nothingImported, PT);
    expect(e.message).toBe('folha.csv: 1 linha paga a uma chave o mesmo valor já pago a ela nos últimos 30 dias; nada foi importado.');
    expect(e.problems).toEqual([{ file: 'folha.csv', line: 2, field: 'key', reason: 'ana@example.com recebeu R$ 100,00 no lote "Outubro" em 2026-10-30', code: 'paid_before' }]);
    expect(e.hint).toBe('Se é para pagar de novo, use --allow-duplicates.');
  });
});
