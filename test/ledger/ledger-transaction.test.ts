import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openLedger, sqliteOf } from '../../src/ledger/open-ledger.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const fail = (message: string): never => {
  throw new Error(message);
};

async function ledgerWithTable() {
  const file = join(tempDir(), 'ledger.db');
  const ledger = await openLedger(file);
  const raw = sqliteOf(ledger);
  raw.exec('CREATE TABLE t (x INTEGER)');
  const rows = () => raw.prepare('SELECT x FROM t ORDER BY x').pluck().all();
  const insert = (x: number) => raw.prepare('INSERT INTO t (x) VALUES (?)').run(x);
  return { ledger, file, raw, rows, insert };
}

describe('ledger transactions', () => {
  it('commit what the function did and return its value', async () => {
    const { ledger, rows, insert } = await ledgerWithTable();
    expect(ledger.transaction(() => (insert(1), insert(2), 'done'))).toBe('done');
    expect(ledger.transaction(() => 7)).toBe(7);
    expect(rows()).toEqual([1, 2]);
    await ledger.close();
  });

  it('roll back everything when the function throws, and rethrow', async () => {
    const { ledger, raw, rows, insert } = await ledgerWithTable();
    expect(() => ledger.transaction(() => (insert(1), insert(2), fail('midway')))).toThrow('midway');
    expect(rows()).toEqual([]);
    expect(raw.inTransaction).toBe(false);
    await ledger.close();
  });

  it('nested, are savepoints: an inner failure the outer catches undoes only the inner work', async () => {
    const { ledger, rows, insert } = await ledgerWithTable();
    ledger.transaction(() => {
      insert(1);
      try {
        ledger.transaction(() => (insert(2), fail('inner')));
      } catch {
        // the outer goes on
      }
      ledger.transaction(() => insert(3));
    });
    expect(rows()).toEqual([1, 3]);
    await ledger.close();
  });

  it('take the write lock before the function runs, so another writer waits instead of failing midway', async () => {
    const { ledger, file } = await ledgerWithTable();
    const other = new Sqlite(file, { timeout: 0 });
    try {
      ledger.transaction(() => {
        expect(() => other.exec('BEGIN IMMEDIATE')).toThrow(/locked|busy/i);
      });
      other.exec('BEGIN IMMEDIATE; ROLLBACK');
    } finally {
      other.close();
      await ledger.close();
    }
  });

  it('refuse a function that returns a promise, leaving nothing of it', async () => {
    const { ledger, raw, rows, insert } = await ledgerWithTable();
    expect(() => ledger.transaction(() => (insert(1), Promise.resolve()))).toThrow(TypeError);
    expect(rows()).toEqual([]);
    expect(raw.inTransaction).toBe(false);
    await ledger.close();
  });
});
