import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { abandonImport, commitImport, prepareImport, type ImportDeps } from '../../src/engine/pix-import/import-sheet.js';
import { openLedger, sqliteOf, type Ledger } from '../../src/ledger/open-ledger.js';
import type { ProviderClient } from '../../src/provider/client.js';
import { destination } from '../helpers/ledger-fixture.js';
import { memoryBatches } from '../helpers/memory-batches.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const t0 = new Date('2026-11-20T13:00:00Z');

/** A provider in memory: knows every key but those starting with "unknown", and keeps the batches it is sent. */
function memoryProvider() {
  const { batches, calls } = memoryBatches();
  const lookups: string[] = [];
  const provider = {
    dialect: { instabilityWords: [], pixAmountUnit: 'reais' },
    requirePixAmountUnit: () => 'reais',
    async lookupKey(key: string) {
      lookups.push(key);
      return key.startsWith('unknown') ? null : { ...destination, key, name: 'Pessoa' };
    },
    ...calls,
  } as unknown as ProviderClient;
  return { batches, lookups, provider };
}

async function setUp(csv: string): Promise<{ file: string; ledger: Ledger; deps: ImportDeps; batches: ReturnType<typeof memoryProvider>['batches']; lookups: string[] }> {
  const dir = tempDir();
  const file = join(dir, 'folha.csv');
  writeFileSync(file, csv);
  const ledger = await openLedger(join(dir, 'ledger.db'));
  const { batches, lookups, provider } = memoryProvider();
  const deps: ImportDeps = {
    ledger,
    provider: async () => provider,
    settings: { maxItemAmount: 5_000_000, maxBatchTotal: 10_000_000, maxBatchItems: 1000 },
    now: () => t0,
  };
  return { file, ledger, deps, batches, lookups };
}

const count = (ledger: Ledger, table: string) => (sqliteOf(ledger).prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const options = { dryRun: false, start: false, skipInvalid: true, allowDuplicates: false } as const;

// Three payable rows (R$ 10,00 + R$ 25,50 to e-mail keys, R$ 7,25 to a random key) and one the provider does not know.
const SHEET =
  'chave;tipo_chave;valor;descricao\n' +
  'ana@exemplo.com;email;10,00;a\n' +
  'unknown@exemplo.com;email;20,00;b\n' +
  'bia@exemplo.com;email;25,50;c\n' +
  '123e4567-e89b-42d3-a456-426614174000;aleatoria;7,25;d\n';

describe('importing a sheet: prepare, then commit', () => {
  it('plans the sheet without writing a batch or sending anything; the plan has the totals of its payable rows', async () => {
    const { file, ledger, deps, batches, lookups } = await setUp(SHEET);
    const prepared = await prepareImport(deps, { ...options, file, name: 'Novembro' });
    expect(prepared.kind).toBe('plan');
    if (prepared.kind !== 'plan') return;
    const { summary, resuming } = prepared.plan;
    expect(resuming).toBeNull();
    expect(summary).toMatchObject({ file, batchName: 'Novembro', parts: 1, rows: 4, start: false, amountUnit: 'reais' });
    expect(summary!.totals).toEqual({
      count: 3,
      sumCents: 4_275,
      largestCents: 2_550,
      byKeyType: expect.arrayContaining([
        { keyType: 'email', count: 2, sumCents: 3_550 },
        { keyType: 'evp', count: 1, sumCents: 725 },
      ]),
    });
    expect(summary!.totals.byKeyType).toHaveLength(2);
    expect(summary!.rejected).toEqual([{ file, line: 3, field: 'key', reason: { code: 'key_lookup_failed', why: 'unknown_key' } }]);
    // Keys are looked up; nothing is created at the provider, and the ledger has no import nor batch.
    expect(lookups.sort()).toEqual(['123e4567-e89b-42d3-a456-426614174000', 'ana@exemplo.com', 'bia@exemplo.com', 'unknown@exemplo.com']);
    expect(batches).toEqual([]);
    expect(count(ledger, 'batches')).toBe(0);
    expect(count(ledger, 'imports')).toBe(0);
    expect(existsSync(join(dirname(file), 'folha.rejected.csv'))).toBe(false);
    await abandonImport(prepared.plan);
    // Let go, the sheet can be prepared again (its claim was released).
    expect((await prepareImport(deps, { ...options, file })).kind).toBe('plan');
  });

  it('commits the plan: the batch is written and sent with the payable rows, the rejected ones go to their file', async () => {
    const { file, ledger, deps, batches } = await setUp(SHEET);
    const prepared = await prepareImport(deps, { ...options, file, name: 'Novembro', sayProblem: (p) => ({ ...p, reason: `said ${p.reason.code}` }) });
    if (prepared.kind !== 'plan') throw new Error('expected a plan');
    const result = await commitImport(deps, prepared.plan);
    expect(result.outcome).toBe('imported');
    expect(result.batches).toHaveLength(1);
    expect(result.batches[0]).toMatchObject({ name: 'Novembro', status: 'submitted', item_count: 3, total_cents: 4_275, remote_id: 'r-1' });
    expect(batches).toHaveLength(1);
    expect(batches[0]!.items).toHaveLength(3);
    expect(batches[0]!.starts).toBe(0);
    expect(count(ledger, 'imports')).toBe(1);
    expect(result.rejectedFile).toBe(join(dirname(file), 'folha.rejected.csv'));
    expect(readFileSync(result.rejectedFile!, 'utf8')).toContain('unknown@exemplo.com;email;20,00;b;key: said key_lookup_failed');
  });

  it('finds the sheet imported already: a dry run is done at once, a second run sends nothing new', async () => {
    const { file, deps, batches } = await setUp(SHEET);
    const first = await prepareImport(deps, { ...options, file });
    if (first.kind !== 'plan') throw new Error('expected a plan');
    const imported = await commitImport(deps, first.plan);
    const dry = await prepareImport(deps, { ...options, file, dryRun: true });
    expect(dry).toEqual({ kind: 'done', result: { outcome: 'already-imported', summary: null, importId: imported.importId, batches: [], rejectedFile: null } });
    const again = await prepareImport(deps, { ...options, file });
    if (again.kind !== 'plan') throw new Error('expected a plan');
    expect(again.plan.summary).toBeNull();
    expect(again.plan.resuming).toMatchObject({ importId: imported.importId, batchIds: [imported.batches[0]!.id] });
    expect((await commitImport(deps, again.plan)).outcome).toBe('already-imported');
    expect(batches).toHaveLength(1);
  });

  it('counts rejected rows, not problems: a row with two problems is one row, as in the rejected file and the ledger', async () => {
    // Lines 3 and 5 have two problems each (a key that is no e-mail and an amount that is no number); line 4 has
    // one (an amount that is no number), line 6 a key the provider does not know: 4 rows rejected, 6 problems.
    const { file, ledger, deps } = await setUp(
      'chave;tipo_chave;valor;descricao\n' +
        'ana@exemplo.com;email;10,00;a\n' +
        'sem-arroba;email;dez;b\n' +
        'bia@exemplo.com;email;vinte;c\n' +
        'outro-sem-arroba;email;xx;d\n' +
        'unknown@exemplo.com;email;20,00;e\n' +
        'caio@exemplo.com;email;5,00;f\n',
    );
    const dry = await prepareImport(deps, { ...options, file, dryRun: true });
    if (dry.kind !== 'done') throw new Error('expected a finished dry run');
    expect(dry.result.summary!.rejected).toHaveLength(6);
    expect(dry.result.summary!.rejectedRows).toBe(4);
    expect(dry.result.summary!.totals.count).toBe(2);

    const prepared = await prepareImport(deps, { ...options, file });
    if (prepared.kind !== 'plan') throw new Error('expected a plan');
    expect(prepared.plan.summary!.rejectedRows).toBe(4);
    const result = await commitImport(deps, prepared.plan);
    const lines = readFileSync(result.rejectedFile!, 'utf8').split('\r\n').filter((l) => l !== '');
    // The header, then one line per rejected row.
    expect(lines).toHaveLength(1 + 4);
    expect(lines.slice(1).map((l) => l.split(';')[0])).toEqual(['sem-arroba', 'bia@exemplo.com', 'outro-sem-arroba', 'unknown@exemplo.com']);
    expect(sqliteOf(ledger).prepare('SELECT rejected_count AS n FROM imports').get()).toEqual({ n: 4 });
  });
});
