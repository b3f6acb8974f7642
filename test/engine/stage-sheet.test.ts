import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors.js';
import { planStaged, readAndLookUp } from '../../src/engine/pix-import/stage-sheet.js';
import { ImportStaging } from '../../src/ledger/import-staging.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { openLedger, sqliteOf } from '../../src/ledger/open-ledger.js';
import type { ProviderClient } from '../../src/provider/client.js';
import { destination, plannedItem } from '../helpers/ledger-fixture.js';
import { writeSheet } from '../helpers/sheets.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();

/** A provider that knows every key but `unknown…`, and notes each lookup and whether the sheet was read by then. */
function fakeProvider(state: { readingDone: boolean }) {
  const looked: { key: string; afterReading: boolean }[] = [];
  const provider = {
    lookupKey: async (key: string) => {
      looked.push({ key, afterReading: state.readingDone });
      await new Promise((r) => setImmediate(r));
      return key.startsWith('unknown') ? null : { ...destination, key, name: 'Pessoa' };
    },
  } as unknown as ProviderClient;
  return { provider, looked };
}

async function stage(file: string, o: { stopOnProblem?: boolean; provider?: ProviderClient } = {}) {
  const ledger = await openLedger(join(tempDir(), 'ledger.db'));
  const staging = new ImportStaging(ledger);
  const state = { readingDone: false };
  const fake = fakeProvider(state);
  const run = readAndLookUp(
    { provider: async () => o.provider ?? fake.provider },
    staging,
    { file, sheetHash: 'hash', maxItemAmountCents: 5_000_000, stopOnProblem: o.stopOnProblem ?? true },
    (read) => {
      state.readingDone = true;
      if (read.problems.length && o.stopOnProblem !== false) throw new Error(`${read.problems.length} invalid rows`);
    },
  );
  return { ledger, staging, run, looked: fake.looked };
}

describe('readAndLookUp + planStaged (the staged import)', () => {
  it('looks keys up while the sheet is still being read, each distinct key once', async () => {
    // 20,000 rows paying 10,000 people twice (a salary and a bonus): 10,000 lookups.
    const file = join(tempDir(), 'big.csv');
    const rows = Array.from({ length: 20_000 }, (_, i) => `pessoa${i % 10_000}@exemplo.com;email;${10 + (i % 7)},00;${i < 10_000 ? 'Salário' : 'Bônus'}`);
    writeFileSync(file, `chave;tipo_chave;valor;descricao\n${rows.join('\n')}\n`);
    const { staging, run, looked } = await stage(file);
    const read = await run;
    expect(read.rowCount).toBe(20_000);
    expect(looked).toHaveLength(10_000);
    expect(new Set(looked.map((l) => l.key)).size).toBe(10_000);
    expect(looked[0]!.afterReading).toBe(false);
    expect(looked.filter((l) => !l.afterReading).length).toBeGreaterThan(0);
    const plan = await planStaged(staging, { file, sheetHash: 'hash', since: new Date('2026-01-01T00:00:00Z') });
    expect(plan.totals.count).toBe(20_000);
    expect(plan.lookupProblems).toEqual([]);
    expect([...staging.acceptedItems()].map((i) => i.line).slice(0, 3)).toEqual([2, 3, 4]);
  });

  it('asks the provider nothing for a sheet that will be refused for an invalid row', async () => {
    const file = join(tempDir(), 'bad.csv');
    writeSheet(file, 5_000);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[1] = 'not-a-key;email;10,00;x';
    writeFileSync(file, lines.join('\n'));
    const { run, looked } = await stage(file);
    await expect(run).rejects.toThrow('1 invalid rows');
    expect(looked).toHaveLength(0);
  });

  it('reports the offline verdict before a provider that cannot be reached, and the provider failure otherwise', async () => {
    const down = { lookupKey: async () => Promise.reject(new ProviderError('provider down', { status: 503, method: 'GET', path: '/pix/keys/x' })) } as unknown as ProviderClient;
    const bad = join(tempDir(), 'bad.csv');
    writeSheet(bad, 3_000);
    appendFileSync(bad, 'not-a-key;email;10,00;x\n');
    await expect((await stage(bad, { provider: down })).run).rejects.toThrow('1 invalid rows');
    const good = writeSheet(join(tempDir(), 'good.csv'), 3_000);
    await expect((await stage(good, { provider: down })).run).rejects.toThrow('provider down');
  });

  it('rules out unknown keys with their lines and keeps the rows in the staging, not in the ledger', async () => {
    const file = join(tempDir(), 'some-unknown.csv');
    writeFileSync(file, 'chave;tipo_chave;valor;descricao\nana@exemplo.com;email;10,00;a\nunknown@exemplo.com;email;20,00;b\nbia@exemplo.com;email;30,00;c\n');
    const { ledger, staging, run } = await stage(file, { stopOnProblem: false });
    await run;
    const plan = await planStaged(staging, { file, sheetHash: 'hash', since: new Date('2026-01-01T00:00:00Z') });
    expect(plan.lookupProblems).toEqual([{ file, line: 3, field: 'key', reason: { code: 'key_lookup_failed', why: 'unknown_key' } }]);
    expect(plan.totals).toMatchObject({ count: 2, sumCents: 4_000 });
    expect([...staging.acceptedItems()].map((i) => [i.line, i.amountCents])).toEqual([[2, 1_000], [4, 3_000]]);
    expect(sqliteOf(ledger).prepare('SELECT COUNT(*) AS n FROM items').get()).toEqual({ n: 0 });
    staging.close();
    // Closed, the staging is gone with its rows.
    expect(() => staging.rowsAfter(0, 10)).toThrow(/not open/);
  });

  it('flags rows paying a key the same amount as an earlier sheet, unless that payment failed', async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    const earlier = [plannedItem(1), plannedItem(2), plannedItem(3)];
    await recordImport(ledger, { fileHash: 'earlier', fileName: 'outubro.csv', rowCount: 3, batchName: 'Outubro', itemCount: 3, items: earlier, rejectedCount: 0, now: new Date('2026-11-01T12:00:00Z') });
    sqliteOf(ledger).prepare("UPDATE items SET status = 'failed', record_state = 'failed' WHERE key = 'p2@example.com'").run();
    // p1 the same amount (R$ 10,01: a duplicate), p2 the same amount but that payment failed (its page says so), p3 another amount.
    const file = join(tempDir(), 'novembro.csv');
    writeFileSync(file, 'chave;tipo_chave;valor;descricao\np1@example.com;email;10,01;a\np2@example.com;email;10,02;b\np3@example.com;email;99,00;c\n');
    const staging = new ImportStaging(ledger);
    await readAndLookUp({ provider: async () => fakeProvider({ readingDone: false }).provider }, staging, { file, sheetHash: 'novembro', maxItemAmountCents: 5_000_000, stopOnProblem: true }, () => {});
    const plan = await planStaged(staging, { file, sheetHash: 'novembro', since: new Date('2026-10-24T00:00:00Z') });
    expect(plan.duplicates).toEqual([
      { line: 2, key: 'p1@example.com', amountCents: 1001, previous: { key: 'p1@example.com', amountCents: 1001, batchName: 'Outubro', createdAt: '2026-11-01T12:00:00.000Z' } },
    ]);
    // The same sheet's own earlier import (a re-run) and payments before the window are not duplicates.
    expect((await planStaged(staging, { file, sheetHash: 'earlier', since: new Date('2026-10-24T00:00:00Z') })).duplicates).toEqual([]);
    expect((await planStaged(staging, { file, sheetHash: 'novembro', since: new Date('2026-11-02T00:00:00Z') })).duplicates).toEqual([]);
  });
});
