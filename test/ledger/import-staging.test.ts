import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordImport, type PlannedItem } from '../../src/ledger/import-repository.js';
import { ImportStaging, type StagedRow } from '../../src/ledger/import-staging.js';
import { openLedger, sqliteOf } from '../../src/ledger/open-ledger.js';
import { destination, plannedItem } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const day = 86_400_000;
const now = new Date('2026-11-20T12:00:00Z');
const ago = (days: number) => new Date(now.getTime() - days * day);

/** An earlier payment: `n` only makes its identifier unique. */
const paid = (n: number, key: string, amountCents: number): PlannedItem => ({ ...plannedItem(n), key, amountCents });

const staged = (line: number, key: string, amountCents: number): StagedRow => ({
  line,
  identifier: `10000000-0000-4000-8000-${String(line).padStart(12, '0')}`,
  key,
  keyType: 'email',
  amountCents,
  description: `row ${line}`,
  name: null,
  document: null,
});

describe('the import staging', () => {
  it('finds the latest earlier payment of the same key and amount since the window opened, from other sheets, not failed', async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    const record = (fileHash: string, batchName: string, items: PlannedItem[], at: Date) =>
      recordImport(ledger, { fileHash, fileName: `${fileHash}.csv`, rowCount: items.length, batchName, itemCount: items.length, items, rejectedCount: 0, now: at });
    await record('older', 'Older', [paid(1, 'ana@example.com', 1500)], ago(3));
    await record('old', 'Old', [paid(2, 'ana@example.com', 1500), paid(3, 'bia@example.com', 2000), paid(4, 'caio@example.com', 2500)], ago(2));
    await record('this', 'This sheet, imported before', [paid(5, 'davi@example.com', 3000)], ago(1));
    await record('ancient', 'Ancient', [paid(6, 'eva@example.com', 3500)], ago(40));
    // Bia's payment failed, and its item page confirmed it: it paid nobody.
    sqliteOf(ledger).prepare("UPDATE items SET status = 'failed', record_state = 'failed' WHERE key = 'bia@example.com'").run();

    const staging = new ImportStaging(ledger);
    expect(
      staging.addRows([
        staged(2, 'ana@example.com', 1500),
        staged(3, 'ana@example.com', 1499),
        staged(4, 'bia@example.com', 2000),
        staged(5, 'davi@example.com', 3000),
        staged(6, 'eva@example.com', 3500),
        staged(7, 'caio@example.com', 2500),
      ]),
    ).toBe(5);
    const found = await staging.recentPaymentsOn(2, 6, ago(30), 'this');
    expect([...found]).toEqual([[2, { key: 'ana@example.com', amountCents: 1500, batchName: 'Old', createdAt: ago(2).toISOString() }]]);
    // Line 7 is outside the page asked for; on its own page it is found.
    expect([...(await staging.recentPaymentsOn(7, 7, ago(30), 'this'))]).toEqual([
      [7, { key: 'caio@example.com', amountCents: 2500, batchName: 'Old', createdAt: ago(2).toISOString() }],
    ]);
    // Had only an event said it failed, the provider might still pay it: then it counts.
    sqliteOf(ledger).prepare("UPDATE items SET record_state = NULL WHERE key = 'bia@example.com'").run();
    expect([...(await staging.recentPaymentsOn(4, 4, ago(30), 'this'))]).toEqual([
      [4, { key: 'bia@example.com', amountCents: 2000, batchName: 'Old', createdAt: ago(2).toISOString() }],
    ]);
    staging.close();
    await ledger.close();
  });

  it('keeps its rows in a scratch database of its own, never in the ledger', async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    const staging = new ImportStaging(ledger);
    staging.addRows([staged(2, 'ana@example.com', 1500), staged(3, 'bia@example.com', 2000), staged(4, 'ana@example.com', 100)]);
    expect([staging.nextKey(), staging.nextKey(), staging.nextKey()]).toEqual(['ana@example.com', 'bia@example.com', null]);
    staging.resolveKey('ana@example.com', { destination, error: null });
    staging.resolveKey('bia@example.com', { destination: null, error: 'no such key' });
    expect(staging.rowsAfter(2, 10).map((r) => [r.row.line, r.destination?.name ?? null, r.lookupError])).toEqual([
      [3, null, 'no such key'],
      [4, 'Ana Souza', null],
    ]);
    staging.accept([2, 4]);
    expect([...staging.acceptedItems(1)].map((i) => [i.line, i.amountCents, i.destination.name])).toEqual([
      [2, 1500, 'Ana Souza'],
      [4, 100, 'Ana Souza'],
    ]);
    const tables = sqliteOf(ledger).prepare("SELECT name FROM sqlite_temp_master UNION ALL SELECT name FROM sqlite_master WHERE name LIKE 'import_%'").pluck().all();
    expect(tables.filter((t) => t !== 'imports' && t !== 'import_claims')).toEqual([]);
    staging.close();
    await ledger.close();
  });
});
