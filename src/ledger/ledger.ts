import type Sqlite from 'better-sqlite3';
import type { Compilable, Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * An open ledger (see openLedger): kysely for queries, run synchronously through `all`/`first`/`run` so they can
 * take part in `transaction`. The SQLite connection under it is not part of this shape: see sqliteOf.
 */
export interface Ledger {
  readonly file: string;
  readonly db: Kysely<Database>;
  /** Runs `fn` in one SQLite transaction (synchronous: better-sqlite3 commits before it returns). */
  transaction<T>(fn: () => T): T;
  /** Runs a kysely query synchronously (so it can take part in `transaction`) and returns its rows. */
  all<R>(query: Compilable<R>): R[];
  first<R>(query: Compilable<R>): R | undefined;
  /** Runs a kysely write synchronously; returns the rowid of an insert and the number of rows changed. */
  run(query: Compilable<unknown>): { lastInsertRowid: number; changes: number };
  close(): Promise<void>;
}

const connections = new WeakMap<Ledger, Sqlite.Database>();

/** openLedger's: ties a ledger to its SQLite connection, for sqliteOf. */
export function bindSqlite<L extends Ledger>(ledger: L, raw: Sqlite.Database): L {
  connections.set(ledger, raw);
  return ledger;
}

/**
 * The better-sqlite3 connection of a ledger opened by openLedger. For src/ledger/ and tests only: what kysely does
 * not do as fast (one prepared statement run for many rows in one transaction), backups, pragmas, and tests that
 * set up or read rows directly. Everything else goes through the Ledger's kysely queries.
 */
export function sqliteOf(ledger: Ledger): Sqlite.Database {
  const raw = connections.get(ledger);
  if (!raw) throw new Error('This ledger was not opened by openLedger: it has no SQLite connection.');
  return raw;
}
