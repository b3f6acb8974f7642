import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isLedgerUnavailable } from '../../src/ledger/ledger-unavailable.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { usePostgresDatabases } from '../helpers/postgres.js';

const failure = (code: string) => Object.assign(new Error(`failed with ${code}`), { code });

describe('isLedgerUnavailable', () => {
  it.each([
    ['08006', 'connection failure'], ['08001', 'cannot establish a connection'], ['53300', 'too many connections'],
    ['53100', 'disk full'], ['53200', 'out of memory'], ['57P01', 'admin shutdown'], ['57P03', 'cannot connect now'],
    ['55000', 'database not accepting connections'], ['55P03', 'lock timeout'], ['57014', 'statement timeout'],
    ['25P03', 'idle-in-transaction timeout'], ['40001', 'serialization failure'], ['ECONNREFUSED', 'server down'], ['SQLITE_BUSY', 'file locked'],
  ])('%s (%s) is the ledger being unavailable: wait and try again', (code) => {
    expect(isLedgerUnavailable(failure(code))).toBe(true);
    expect(isLedgerUnavailable(new Error('the pass failed', { cause: failure(code) }))).toBe(true);
  });

  it.each([['23505', 'unique violation'], ['42P01', 'no such table'], ['22P02', 'invalid text'], ['55006', 'object in use']])(
    '%s (%s) is a real error, never waited out',
    (code) => {
      expect(isLedgerUnavailable(failure(code))).toBe(false);
    },
  );
});

const freshDatabase = usePostgresDatabases();

describe('a PostgreSQL transaction that times out on a lock', () => {
  it('is run again once the lock is released, as a serialization conflict is', async () => {
    const url = await freshDatabase();
    const ledger = await openLedger(url);
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await ledger.run(sql`CREATE TABLE counter (n integer)`);
      await ledger.run(sql`INSERT INTO counter VALUES (0)`);
      // Another session holds the row: the ledger's first attempt gives up on it (55P03) after 50 ms.
      await holder.query('BEGIN');
      await holder.query('SELECT n FROM counter FOR UPDATE');
      let attempts = 0;
      await ledger.transaction(async (tx) => {
        attempts += 1;
        if (attempts === 2) await holder.query('COMMIT');
        await tx.run(sql`SET LOCAL lock_timeout = '50ms'`);
        await tx.run(sql`UPDATE counter SET n = n + 1`);
      });
      expect(attempts).toBe(2);
      expect((await ledger.first<{ n: number }>(sql`SELECT n FROM counter`))?.n).toBe(1);
    } finally {
      await holder.end();
      await ledger.close();
    }
  });
});
