import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Sqlite from 'better-sqlite3';
import { Kysely, SqliteDialect, type Compilable } from 'kysely';
import { migrateLedger } from './migrate.js';
import type { Database } from './schema.js';

/** An open ledger: kysely for queries, the raw handle for bulk statements and transactions. */
export interface Ledger {
  readonly file: string;
  readonly db: Kysely<Database>;
  readonly raw: Sqlite.Database;
  /** Runs `fn` in one SQLite transaction (synchronous: better-sqlite3 commits before it returns). */
  transaction<T>(fn: () => T): T;
  /** Runs a kysely query synchronously (so it can take part in `transaction`) and returns its rows. */
  all<R>(query: Compilable<R>): R[];
  first<R>(query: Compilable<R>): R | undefined;
  /** Runs a kysely write synchronously; returns the rowid of an insert and the number of rows changed. */
  run(query: Compilable<unknown>): { lastInsertRowid: number; changes: number };
  close(): Promise<void>;
}

/** Opens (creating if needed) the ledger at `file`, with WAL, foreign keys and a busy timeout, migrated to the latest schema. */
export async function openLedger(file: string): Promise<Ledger> {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const raw = new Sqlite(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  // WAL with synchronous=FULL: a commit survives power loss, which a money ledger needs more than speed.
  raw.pragma('synchronous = FULL');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
  try {
    await migrateLedger(db as Kysely<unknown>, raw, file);
  } catch (e) {
    await db.destroy();
    throw e;
  }
  const statements = new Map<string, Sqlite.Statement>();
  const prepare = (q: Compilable<unknown>) => {
    const { sql, parameters } = q.compile();
    let stmt = statements.get(sql);
    if (!stmt) statements.set(sql, (stmt = raw.prepare(sql)));
    return { stmt, parameters: parameters as unknown[] };
  };
  return {
    file,
    db,
    raw,
    // IMMEDIATE: take the write lock up front, so a writer waits (busy_timeout) instead of failing midway.
    transaction: (fn) => raw.transaction(fn).immediate(),
    all<R>(q: Compilable<R>) {
      const { stmt, parameters } = prepare(q);
      return stmt.all(...parameters) as R[];
    },
    first<R>(q: Compilable<R>) {
      const { stmt, parameters } = prepare(q);
      return stmt.get(...parameters) as R | undefined;
    },
    run(q) {
      const { stmt, parameters } = prepare(q);
      const r = stmt.run(...parameters);
      return { lastInsertRowid: Number(r.lastInsertRowid), changes: r.changes };
    },
    close: () => db.destroy(),
  };
}
