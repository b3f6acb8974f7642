import type Sqlite from 'better-sqlite3';
import type { Compilable, CompiledQuery, Kysely, RawBuilder } from 'kysely';
import type { Database } from './schema.js';

/** The database a ledger lives in: one SQLite file (one host), or a PostgreSQL database shared by several hosts. */
export type LedgerDialect = 'sqlite' | 'postgres';

/**
 * An open ledger (see openLedger). Queries are built with `db` (kysely, or its `sql` tag for hand-written SQL: it
 * binds values in either dialect) and run with `all`/`first`/`run`. Inside `transaction`, every query of the
 * transaction goes through the `tx` it is given: the outer ledger waits until the transaction ends.
 */
export interface Ledger {
  readonly dialect: LedgerDialect;
  /** Where the ledger lives, fit to show: the SQLite file, or the PostgreSQL URL without its password. */
  readonly file: string;
  /** Builds queries; never runs them itself (run them with all/first/run, so transactions see them). */
  readonly db: Kysely<Database>;
  /**
   * Runs `fn` in one transaction, committed when it resolves and rolled back when it throws. Within `fn`, use `tx`
   * (a transaction inside it becomes a savepoint). SQLite takes the write lock at once (BEGIN IMMEDIATE).
   */
  transaction<T>(fn: (tx: Ledger) => Promise<T>, o?: TransactionOptions): Promise<T>;
  all<R>(query: LedgerQuery<R>): Promise<R[]>;
  first<R>(query: LedgerQuery<R>): Promise<R | undefined>;
  /** Runs a write; returns the number of rows changed. (An insert that needs its id says `returning('id')`.) */
  run(query: LedgerQuery<unknown>): Promise<{ changes: number }>;
  close(): Promise<void>;
}

export interface TransactionOptions {
  /**
   * false: the commit need not survive a power loss by itself (SQLite: synchronous=NORMAL for it, no fsync; the next
   * durable commit makes it durable with it, and a crash before that loses it whole, never in part). Only for work
   * that is redone when lost: applying an event stored durably as not applied yet. A PostgreSQL ledger commits as
   * always; so does a transaction inside another.
   * 'async': durable when transaction() resolves, as with true; on SQLite the commit is made with synchronous=NORMAL
   * and the -wal file is synced after the lock is let go, by an fdatasync off the event loop that the commits made
   * meanwhile share (wal-sync.ts), so other work goes on while the disk writes. For a hot path of small durable
   * commits: the webhook receiver's group commit.
   */
  readonly durable?: boolean | 'async';
}

/** A query built with kysely: by the builder, or hand-written with its `sql` tag. */
export type LedgerQuery<R> = Compilable<R> | RawBuilder<R>;

/** The SQL of a query in the ledger's dialect (a `sql` tag compiles only through a database; a builder knows its own). */
export const compileQuery = <R>(query: LedgerQuery<R>, db: Kysely<Database>): CompiledQuery<R> =>
  'isRawBuilder' in query ? query.compile(db) : query.compile();

const connections = new WeakMap<object, Sqlite.Database>();

/** openLedger's: ties a ledger to its SQLite connection, for sqliteOf. */
export function bindSqlite<L extends object>(ledger: L, raw: Sqlite.Database): L {
  connections.set(ledger, raw);
  return ledger;
}

/**
 * The better-sqlite3 connection of an SQLite ledger. For src/ledger/ and tests only, for what only SQLite has
 * (backups, pragmas, the integrity check) and for tests that set up or read rows directly. It bypasses the
 * ledger's transaction lock: never use it while a transaction of the ledger may be open.
 */
export function sqliteOf(ledger: Ledger): Sqlite.Database {
  const raw = connections.get(ledger);
  if (!raw) throw new Error(`The ledger ${ledger.file} is not an SQLite ledger opened by openLedger.`);
  return raw;
}
