import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openLedger, type Ledger } from '../../src/ledger/open-ledger.js';
import { PACKAGE_ROOT } from '../../src/package-root.js';
import { usePostgresDatabases } from '../helpers/postgres.js';

const freshDatabase = usePostgresDatabases();

async function withLedger<T>(fn: (ledger: Ledger, url: string) => Promise<T>): Promise<T> {
  const url = await freshDatabase();
  const ledger = await openLedger(url);
  try {
    return await fn(ledger, url);
  } finally {
    await ledger.close();
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const importRow = (hash: string) => ({ file_hash: hash, file_name: `${hash}.csv`, row_count: 2, item_count: 2, rejected_count: 0, created_at: '2026-11-23T12:00:00.000Z' });

describe('the PostgreSQL ledger', () => {
  it('has a PostgreSQL migration for every SQLite migration, under the same name', () => {
    const names = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
    expect(names(join(PACKAGE_ROOT, 'migrations', 'postgres'))).toEqual(names(join(PACKAGE_ROOT, 'migrations')));
  });

  it('is created by migrations on first open, says where it is without the password, and reads BIGINT as numbers', async () => {
    await withLedger(async (ledger, url) => {
      expect(ledger.dialect).toBe('postgres');
      expect(ledger.file).not.toContain('paybatch-test');
      expect(ledger.file).toContain(new URL(url).pathname);
      const { id } = (await ledger.first(ledger.db.insertInto('imports').values(importRow('a')).returning('id')))!;
      expect(id).toBe(1);
      await ledger.run(ledger.db.insertInto('batches').values({ import_id: id, kind: 'sheet', name: 'Folha', remote_name: 'Folha [pb:1]', status: 'draft', item_count: 1, total_cents: 9_007_199_254_740, created_at: 'x', updated_at: 'x' }));
      const sums = await ledger.first(ledger.db.selectFrom('batches').select((eb) => [eb.fn.sum<number>('total_cents').as('total'), eb.fn.countAll<number>().as('n')]));
      expect(sums).toEqual({ total: 9_007_199_254_740, n: 1 });
    });
  });

  it('keeps the provider call log append-only in the database itself', async () => {
    await withLedger(async (ledger) => {
      await ledger.run(ledger.db.insertInto('provider_calls').values({ phase: 'intent', operation: 'pix.start', subject: 'batch:1', created_at: 'x' }));
      await expect(ledger.run(ledger.db.updateTable('provider_calls').set({ subject: 'batch:2' }))).rejects.toThrow(/append-only/);
      await expect(ledger.run(ledger.db.deleteFrom('provider_calls'))).rejects.toThrow(/append-only/);
      await expect(ledger.run(sql`TRUNCATE provider_calls`)).rejects.toThrow(/append-only/);
      expect(await ledger.all(ledger.db.selectFrom('provider_calls').select('subject'))).toEqual([{ subject: 'batch:1' }]);
    });
  });

  it('refuses a ledger written by a newer paybatch, changing nothing', async () => {
    const url = await freshDatabase();
    await (await openLedger(url)).close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("INSERT INTO kysely_migration (name, timestamp) VALUES ('9999_from_the_future', 'x')");
    await client.end();
    await expect(openLedger(url)).rejects.toThrow(/written by a newer paybatch/);
  });

  it('says the server cannot be reached, without the password', async () => {
    const error = await openLedger('postgres://someone:s3cret-pass@127.0.0.1:1/nothing').catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/Could not reach the PostgreSQL ledger postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/nothing/);
    expect(JSON.stringify({ m: (error as Error).message, h: (error as { hint?: string }).hint })).not.toContain('s3cret-pass');
  });

  it('commits a transaction, rolls back one that throws, and makes a nested one a savepoint', async () => {
    await withLedger(async (ledger) => {
      await ledger.transaction(async (tx) => {
        await tx.run(tx.db.insertInto('imports').values(importRow('kept')));
        await tx.transaction(async (inner) => {
          await inner.run(inner.db.insertInto('imports').values(importRow('inner')));
          throw new Error('inner fails');
        }).catch(() => {});
      });
      await expect(ledger.transaction(async (tx) => {
        await tx.run(tx.db.insertInto('imports').values(importRow('lost')));
        throw new Error('outer fails');
      })).rejects.toThrow('outer fails');
      expect((await ledger.all(ledger.db.selectFrom('imports').select('file_hash'))).map((r) => r.file_hash)).toEqual(['kept']);
    });
  });

  it('runs concurrent read-then-write transactions as if one after the other (no lost update)', async () => {
    await withLedger(async (ledger) => {
      const { id } = (await ledger.first(ledger.db.insertInto('imports').values(importRow('counter')).returning('id')))!;
      // Twenty increments through two connections each reading the count and writing it back plus one: at READ
      // COMMITTED some would read the same value and one increment would be lost.
      const other = await openLedger(ledger.file.replace('***', 'paybatch-test'));
      // No write before a transaction on each connection has read: at least two read the same count (an event, not
      // a pause that makes it likely). Reads wait for no lock, so the barrier cannot hold anything up for good.
      const read = [deferred(), deferred()];
      try {
        await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? ledger : other).transaction(async (tx) => {
          const { row_count } = (await tx.first(tx.db.selectFrom('imports').select('row_count').where('id', '=', id)))!;
          read[i % 2]!.resolve();
          await Promise.all(read.map((r) => r.promise));
          await tx.run(tx.db.updateTable('imports').set({ row_count: row_count + 1 }).where('id', '=', id));
        })));
      } finally {
        await other.close();
      }
      expect((await ledger.first(ledger.db.selectFrom('imports').select('row_count').where('id', '=', id)))!.row_count).toBe(22);
    });
  });

  it('is migrated once when several processes open a new ledger together', async () => {
    const url = await freshDatabase();
    const ledgers = await Promise.all([openLedger(url), openLedger(url), openLedger(url)]);
    try {
      const applied = await ledgers[0]!.all(sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`);
      expect(applied.map((r) => r.name)).toEqual(readdirSync(join(PACKAGE_ROOT, 'migrations')).filter((f) => f.endsWith('.sql')).sort().map((f) => f.replace(/\.sql$/, '')));
    } finally {
      await Promise.all(ledgers.map((l) => l.close()));
    }
  });
});
