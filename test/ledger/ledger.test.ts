import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { logIntent, logOutcome } from '../../src/ledger/call-log.js';
import { findImportByHash, recordImport } from '../../src/ledger/import-repository.js';
import { itemsOfBatch } from '../../src/ledger/item-repository.js';
import { getBatch } from '../../src/ledger/batch-repository.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import type { PlannedItem } from '../../src/engine/plan-import.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const now = new Date('2026-11-20T12:00:00Z');
const destination = { accountType: 'checkingAccount', branch: '0001', key: 'ana@example.com', accountNumber: '123', institutionName: 'Banco', document: '***.456.789-**', type: 'email', institution: '000', name: 'Ana' };
const item = (line: number): PlannedItem => ({ line, identifier: `00000000-0000-4000-8000-${String(line).padStart(12, '0')}`, key: 'ana@example.com', keyType: 'email', amountCents: 1000 + line, description: `row ${line}`, sheetName: null, sheetDocument: null, destination });

describe('the ledger', () => {
  it('is created with WAL, foreign keys and every migration applied', async () => {
    const file = join(tempDir(), 'sub', 'ledger.db');
    const ledger = await openLedger(file);
    expect(ledger.raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(ledger.raw.pragma('foreign_keys', { simple: true })).toBe(1);
    const tables = ledger.raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => (r as { name: string }).name);
    expect(tables).toEqual(expect.arrayContaining(['imports', 'batches', 'items', 'provider_calls']));
    await ledger.close();
    // Opening again applies nothing new and keeps the data.
    const again = await openLedger(file);
    await again.close();
  });

  it('refuses a ledger written by a newer paybatch and leaves it untouched', async () => {
    const file = join(tempDir(), 'ledger.db');
    (await openLedger(file)).close();
    const raw = new Sqlite(file);
    raw.prepare("INSERT INTO kysely_migration (name, timestamp) VALUES ('9999_from_the_future', '2030-01-01')").run();
    raw.close();
    await expect(openLedger(file)).rejects.toThrow(/newer paybatch/);
    const check = new Sqlite(file);
    expect(check.prepare("SELECT count(*) AS n FROM kysely_migration WHERE name = '9999_from_the_future'").get()).toEqual({ n: 1 });
    check.close();
  });

  it('keeps the provider call log append-only', async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    const intent = logIntent(ledger, 'create_batch', 'batch:1', { name: 'x' }, now);
    logOutcome(ledger, intent, 'ok', { remoteId: 'b1' }, now);
    expect(() => ledger.raw.prepare('UPDATE provider_calls SET outcome = NULL').run()).toThrow(/append-only/);
    expect(() => ledger.raw.prepare('DELETE FROM provider_calls').run()).toThrow(/append-only/);
    const rows = ledger.raw.prepare('SELECT phase, intent_id, outcome FROM provider_calls ORDER BY id').all();
    expect(rows).toEqual([
      { phase: 'intent', intent_id: null, outcome: null },
      { phase: 'outcome', intent_id: intent, outcome: 'ok' },
    ]);
    await ledger.close();
  });

  it('records an import, its batch named with its local id, and every item in one go', async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    const items = Array.from({ length: 500 }, (_, i) => item(i + 2));
    const { importId, batchId } = recordImport(ledger, { fileHash: 'h1', fileName: 'a.csv', rowCount: 501, batchName: 'Folha', items, rejectedCount: 1, now });
    expect(findImportByHash(ledger, 'h1')).toMatchObject({ id: importId, batchId, rowCount: 501, itemCount: 500, rejectedCount: 1 });
    expect(findImportByHash(ledger, 'h2')).toBeUndefined();
    const batch = getBatch(ledger, batchId);
    expect(batch).toMatchObject({ name: 'Folha', remote_name: `Folha [pb:${batchId}]`, status: 'draft', item_count: 500 });
    expect(batch.total_cents).toBe(items.reduce((s, i) => s + i.amountCents, 0));
    const stored = itemsOfBatch(ledger, batchId);
    expect(stored).toHaveLength(500);
    expect(stored.every((s) => s.status === 'resolved')).toBe(true);
    expect(JSON.parse(stored[0]!.destination_json!)).toEqual(destination);
    await ledger.close();
  });

  it('refuses a second item with the same identifier, rolling back the whole import', async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    recordImport(ledger, { fileHash: 'h1', fileName: 'a.csv', rowCount: 1, batchName: 'A', items: [item(2)], rejectedCount: 0, now });
    expect(() => recordImport(ledger, { fileHash: 'h2', fileName: 'b.csv', rowCount: 2, batchName: 'B', items: [item(3), item(2)], rejectedCount: 0, now })).toThrow(/UNIQUE/);
    expect(findImportByHash(ledger, 'h2')).toBeUndefined();
    expect(ledger.raw.prepare('SELECT count(*) AS n FROM batches').get()).toEqual({ n: 1 });
    await ledger.close();
  });
});
