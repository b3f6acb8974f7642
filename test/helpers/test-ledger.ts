import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { inject } from 'vitest';
import { NUMBER_TYPES } from '../../src/ledger/postgres-ledger.js';

/**
 * The ledger backend the end-to-end tests run on: the vitest project `postgres` sets PAYBATCH_TEST_BACKEND so the
 * same tests run against a PostgreSQL ledger (each user's environment names a new database of the test server).
 */
export const BACKEND: 'sqlite' | 'postgres' = process.env.PAYBATCH_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

/** A new database on the run's PostgreSQL server (test/global-setup.ts); synchronous, for userEnv. */
export function newPostgresDatabase(): string {
  const error = inject('postgresError');
  if (error) throw new Error(`${error}. The PostgreSQL tests need a server: see docs/development.md (PAYBATCH_TEST_POSTGRES_URL).`);
  const server = new URL(inject('postgresUrl'));
  const name = `paybatch_${randomBytes(6).toString('hex')}`;
  execFileSync(process.execPath, ['--input-type=module', '-e', `
    import pg from 'pg';
    const c = new pg.Client({ connectionString: process.env.SERVER });
    await c.connect();
    await c.query('CREATE DATABASE ${name}');
    await c.end();`], { env: { ...process.env, SERVER: server.toString() }, cwd: process.cwd(), stdio: ['ignore', 'ignore', 'inherit'] });
  server.pathname = `/${name}`;
  return server.toString();
}

/** The environment's ledger: PAYBATCH_LEDGER when it names one, else the default profile's SQLite file. */
export const ledgerOf = (env: Record<string, string>) => env.PAYBATCH_LEDGER ?? join(env.XDG_DATA_HOME!, 'paybatch', 'ledger.db');

/**
 * Runs one read-only query on the ledger of a user's environment, whichever backend it is on: `?` placeholders
 * (numbered for PostgreSQL here). Rows of a ledger that does not exist yet: none.
 */
export async function queryLedger<R = Record<string, unknown>>(env: Record<string, string>, text: string, params: unknown[] = []): Promise<R[]> {
  const where = ledgerOf(env);
  if (/^postgres/.test(where)) {
    const client = new pg.Client({ connectionString: where, types: NUMBER_TYPES });
    client.on('error', () => {});
    await client.connect();
    try {
      let n = 0;
      // A ledger no command has opened yet is an empty database: no rows, as for a missing SQLite file.
      const tables = await client.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'items'");
      if (tables.rowCount === 0) return [];
      const { rows } = await client.query(text.replace(/\?/g, () => `$${++n}`), params);
      return rows as R[];
    } finally {
      await client.end();
    }
  }
  if (!existsSync(where)) return [];
  const db = new Sqlite(where, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  try {
    return db.prepare(text).all(...params) as R[];
  } finally {
    db.close();
  }
}
