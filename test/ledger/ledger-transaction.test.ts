import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openLedger, sqliteOf, type Ledger } from '../../src/ledger/open-ledger.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
/** One turn of the event loop: every pending promise callback runs before it ends. */
const nextTurn = () => new Promise<void>((r) => setImmediate(r));
const fail = (message: string): never => {
  throw new Error(message);
};

async function ledgerWithTable() {
  const file = join(tempDir(), 'ledger.db');
  const ledger = await openLedger(file);
  const raw = sqliteOf(ledger);
  raw.exec('CREATE TABLE t (x INTEGER)');
  // Read directly, only while no transaction is open.
  const rows = () => raw.prepare('SELECT x FROM t ORDER BY x').pluck().all();
  const insert = (on: Ledger, x: number) => on.run(sql`INSERT INTO t (x) VALUES (${x})`);
  const seen = async (on: Ledger) => (await on.all(sql<{ x: number }>`SELECT x FROM t ORDER BY x`)).map((r) => r.x);
  return { ledger, file, raw, rows, insert, seen };
}

describe('ledger transactions', () => {
  it('commit what the function did and return its value', async () => {
    const { ledger, rows, insert } = await ledgerWithTable();
    const value = await ledger.transaction(async (tx) => {
      await insert(tx, 1);
      await insert(tx, 2);
      return 'done';
    });
    expect(value).toBe('done');
    expect(await ledger.transaction(async () => 7)).toBe(7);
    expect(rows()).toEqual([1, 2]);
    await ledger.close();
  });

  it('roll back everything when the function throws, and rethrow', async () => {
    const { ledger, raw, rows, insert } = await ledgerWithTable();
    await expect(
      ledger.transaction(async (tx) => {
        await insert(tx, 1);
        await insert(tx, 2);
        fail('midway');
      }),
    ).rejects.toThrow('midway');
    expect(rows()).toEqual([]);
    expect(raw.inTransaction).toBe(false);
    await ledger.close();
  });

  it('nested, are savepoints: an inner failure the outer catches undoes only the inner work', async () => {
    const { ledger, rows, insert } = await ledgerWithTable();
    await ledger.transaction(async (tx) => {
      await insert(tx, 1);
      await tx
        .transaction(async (inner) => {
          await insert(inner, 2);
          fail('inner');
        })
        .catch(() => undefined); // the outer goes on
      await tx.transaction((inner) => insert(inner, 3));
    });
    expect(rows()).toEqual([1, 3]);
    await ledger.close();
  });

  it('take the write lock before the function runs, so another writer waits instead of failing midway', async () => {
    const { ledger, file } = await ledgerWithTable();
    const other = new Sqlite(file, { timeout: 0 });
    try {
      await ledger.transaction(async () => {
        expect(() => other.exec('BEGIN IMMEDIATE')).toThrow(/locked|busy/i);
      });
      other.exec('BEGIN IMMEDIATE; ROLLBACK');
    } finally {
      other.close();
      await ledger.close();
    }
  });

  it('keep out a query made on the ledger meanwhile: it waits for the end and is not rolled back with it', async () => {
    const { ledger, raw, rows, insert, seen } = await ledgerWithTable();
    let outside: Promise<unknown> | undefined;
    const transaction = ledger.transaction(async (tx) => {
      await insert(tx, 1);
      outside = insert(ledger, 9);
      // A turn of the event loop: every promise callback has run by then, so an outside query that only waited for
      // promises (not kept out until the end) would have run already. An ordering, not a moment of the clock.
      await nextTurn();
      // The outside insert has not run: the transaction sees only its own row.
      expect(await seen(tx)).toEqual([1]);
      fail('after the wait');
    });
    await expect(transaction).rejects.toThrow('after the wait');
    expect(await outside).toEqual({ changes: 1 });
    expect(rows()).toEqual([9]);
    expect(raw.inTransaction).toBe(false);
    await ledger.close();
  });

  it('run one after another when two are asked for at once, each seeing what the other committed', async () => {
    const { ledger, rows, insert, seen } = await ledgerWithTable();
    let secondAsked!: () => void;
    const asked = new Promise<void>((r) => (secondAsked = r));
    let firstDone = false;
    let secondBeganAfterFirst: boolean | null = null;
    const first = ledger.transaction(async (tx) => {
      await insert(tx, 1);
      // Goes on once the second transaction has been asked for (and a turn of the event loop more), not after a moment.
      await asked;
      await nextTurn();
      const saw = await seen(tx);
      firstDone = true;
      return saw;
    });
    const second = ledger.transaction(async (tx) => {
      secondBeganAfterFirst = firstDone;
      await insert(tx, 2);
      return seen(tx);
    });
    secondAsked();
    expect(await Promise.all([first, second])).toEqual([[1], [1, 2]]);
    expect(secondBeganAfterFirst).toBe(true);
    expect(rows()).toEqual([1, 2]);
    await ledger.close();
  });
});
