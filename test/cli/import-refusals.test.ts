import { describe, expect, it } from 'vitest';
import { sayImportProblem, sayImportRefusal } from '../../src/cli/messages/import-refusals.js';
import { duplicatesRefusal, planRow } from '../../src/engine/pix-import/plan-import.js';
import { lookKeysUp, type KeyResolution } from '../../src/engine/pix-import/resolve-keys.js';
import type { StagedRow } from '../../src/ledger/import-staging.js';
import type { Destination } from '../../src/provider/types.js';

const dest = (o: Partial<Destination>): Destination => ({
  accountType: 'checkingAccount', branch: '0001', key: '', accountNumber: '12345-6', institutionName: 'Banco Sandbox', document: '', type: 'email', institution: '00000000', name: '', ...o,
});
const row = (o: Partial<StagedRow> & { line: number; key: string }): StagedRow => ({
  keyType: 'email', amountCents: 10_000, description: '', identifier: `00000000-0000-4000-8000-${String(o.line).padStart(12, '0')}`, name: null, document: null, ...o,
});

describe('the import refusals the provider answers bring, in words', () => {
  it("says in Portuguese that a document is not the key owner's, or cannot be checked", () => {
    const cpf = { type: 'cpf' as const, value: '11144477735' };
    const shown = { destination: dest({ key: 'ana@example.com', document: '***.456.789-**' }), error: null } as const;
    const mismatch = planRow('s.csv', row({ line: 3, key: 'ana@example.com', document: cpf }), shown, undefined).problem!;
    expect(sayImportProblem(mismatch, 'pt-BR')).toEqual({
      file: 's.csv', line: 3, field: 'document', reason: 'a chave pertence ao documento ***.456.789-**, não a 11144477735', code: 'document_mismatch',
    });
    expect(sayImportProblem(mismatch, 'en').reason).toBe('the key belongs to document ***.456.789-**, not 11144477735');
    const hidden = { destination: dest({ key: 'ana@example.com', document: '' }), error: null } as const;
    expect(sayImportProblem(planRow('s.csv', row({ line: 4, key: 'ana@example.com', document: cpf }), hidden, undefined).problem!, 'pt-BR').reason).toBe(
      'o provedor não mostra documento para esta chave, então não dá para conferir',
    );
  });

  it('says in Portuguese and in English that the provider does not know a key', async () => {
    const answers: [string, KeyResolution][] = [];
    await lookKeysUp({ lookupKey: async () => null }, ['ninguem@example.com'], { onResolved: (k, r) => answers.push([k, r]) });
    expect(answers).toEqual([['ninguem@example.com', { destination: null, error: { code: 'key_lookup_failed', why: 'unknown_key' } }]]);
    const problem = planRow('s.csv', row({ line: 2, key: 'ninguem@example.com' }), answers[0]![1], undefined).problem!;
    expect(sayImportProblem(problem, 'pt-BR')).toMatchObject({ reason: 'o provedor não conhece esta chave Pix', code: 'key_lookup_failed' });
    expect(sayImportProblem(problem, 'en')).toMatchObject({ reason: 'the provider does not know this Pix key', code: 'key_lookup_failed' });
  });

  it('refuses duplicates of recent payments in Portuguese and in English', () => {
    const previous = { key: 'ana@example.com', amountCents: 10_000, batchName: 'Outubro', createdAt: '2026-10-30T10:00:00Z' };
    const refusal = duplicatesRefusal('folha.csv', [{ line: 2, key: 'ana@example.com', amountCents: 10_000, previous }], 'imported');
    const pt = sayImportRefusal(refusal, 'pt-BR');
    expect(pt.message).toBe('folha.csv: 1 linha paga a uma chave o mesmo valor já pago a ela nos últimos 30 dias; nada foi importado.');
    expect(pt.problems).toEqual([{ file: 'folha.csv', line: 2, field: 'key', reason: 'ana@example.com teve R$ 100,00 enviados no lote "Outubro" em 2026-10-30, um pagamento que pode tê-lo alcançado', code: 'paid_before' }]);
    expect(pt.hint).toBe('Se é para pagar de novo, use --allow-duplicates.');
    expect(pt.exitCode).toBe(3);
    const en = sayImportRefusal(refusal, 'en');
    expect(en.message).toBe('folha.csv: 1 row pays a key the same amount it was paid in the last 30 days; nothing was imported.');
    expect(en.problems).toEqual([{ file: 'folha.csv', line: 2, field: 'key', reason: 'ana@example.com was sent R$ 100,00 in batch "Outubro" on 2026-10-30, a payment that may have reached them', code: 'paid_before' }]);
    expect(en.hint).toBe('If these are meant to be paid again, pass --allow-duplicates.');
  });
});
