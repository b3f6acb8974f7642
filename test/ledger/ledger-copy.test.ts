import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { insertBillIntent } from '../../src/ledger/bill-repository.js';
import { logIntent, logOutcome } from '../../src/ledger/call-log.js';
import { COPIED_TABLES, copyLedger, LEFT_BEHIND } from '../../src/ledger/ledger-copy.js';
import { openLedger, type Ledger } from '../../src/ledger/open-ledger.js';
import { ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { usePostgresDatabases } from '../helpers/postgres.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const freshDatabase = usePostgresDatabases();
const at = new Date('2026-11-23T12:00:00.000Z');

/** An SQLite ledger with a started batch of 3 items (1001 + 1002 + 1003 centavos), one paid, a bill and a call log. */
async function sqliteLedgerWithWork(): Promise<Ledger> {
  const { ledger, identifiers } = await ledgerWithStartedBatch(tempDir(), 3, at);
  await ledger.run(ledger.db.updateTable('items').set({ status: 'paid', receipt_path: '/r/1.pdf' }).where('identifier', '=', identifiers[0]!));
  await insertBillIntent(ledger, { barcode: '1'.repeat(44), line: '1'.repeat(47), kind: 'bank', description: 'Luz', beneficiary: 'Cia', beneficiaryDocument: null, assignor: null, dueDate: '2026-11-30', amountCents: 12_345, forced: false }, at);
  const intent = await logIntent(ledger, 'start_batch', 'batch:1', { items: 3 }, at);
  await logOutcome(ledger, intent, 'ok', {}, at);
  return ledger;
}

describe('ledger copy', () => {
  it('moves every table except claims, leases and the daemon lock', async () => {
    const ledger = await openLedger(join(tempDir(), 'l.db'));
    try {
      const tables = await ledger.all(sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'`);
      expect(tables.map((t) => t.name).sort()).toEqual([...COPIED_TABLES.map((t) => t.table), ...LEFT_BEHIND].sort());
    } finally {
      await ledger.close();
    }
  });

  it('copies an SQLite ledger into PostgreSQL with the same ids, counts and sums, and new rows continue after them', async () => {
    const from = await sqliteLedgerWithWork();
    const to = await openLedger(await freshDatabase());
    try {
      const result = await copyLedger(from, to);
      const byTable = Object.fromEntries(result.tables.map((t) => [t.table, t]));
      expect(byTable.items).toEqual({ table: 'items', rows: 3, cents: { paid: 1001, submitted: 1002 + 1003 } });
      expect(byTable.batches).toEqual({ table: 'batches', rows: 1, cents: { started: 1001 + 1002 + 1003 } });
      expect(byTable.bills).toEqual({ table: 'bills', rows: 1, cents: { intent: 12_345 } });
      expect(byTable.provider_calls!.rows).toBe(2);

      const items = await to.all(to.db.selectFrom('items').select(['id', 'identifier', 'amount_cents', 'status', 'receipt_path']).orderBy('id'));
      expect(items).toEqual(await from.all(from.db.selectFrom('items').select(['id', 'identifier', 'amount_cents', 'status', 'receipt_path']).orderBy('id')));
      // The id sequences moved past the copied rows: the next import is #2, not a clash with #1.
      const next = await to.first(to.db.insertInto('imports').values({ file_hash: 'new', file_name: 'n.csv', row_count: 1, item_count: 1, rejected_count: 0, created_at: 'x' }).returning('id'));
      expect(next!.id).toBe(2);
      // The copy's call log is as append-only as the original.
      await expect(to.run(to.db.deleteFrom('provider_calls'))).rejects.toThrow(/append-only/);
    } finally {
      await from.close();
      await to.close();
    }
  });

  it('refuses a ledger that is not empty, copying nothing', async () => {
    const from = await sqliteLedgerWithWork();
    const to = await openLedger(await freshDatabase());
    try {
      await to.run(to.db.insertInto('imports').values({ file_hash: 'there', file_name: 't.csv', row_count: 1, item_count: 1, rejected_count: 0, created_at: 'x' }));
      await expect(copyLedger(from, to)).rejects.toThrow(/is not empty: its table imports has 1 rows/);
      expect(await to.all(to.db.selectFrom('items').select('id'))).toEqual([]);
    } finally {
      await from.close();
      await to.close();
    }
  });

  it('copies back from PostgreSQL into a new SQLite file', async () => {
    const from = await sqliteLedgerWithWork();
    const middle = await openLedger(await freshDatabase());
    const back = await openLedger(join(tempDir(), 'back.db'));
    try {
      await copyLedger(from, middle);
      const result = await copyLedger(middle, back);
      expect(result.tables.find((t) => t.table === 'items')).toEqual({ table: 'items', rows: 3, cents: { paid: 1001, submitted: 2005 } });
    } finally {
      await Promise.all([from.close(), middle.close(), back.close()]);
    }
  });
});
