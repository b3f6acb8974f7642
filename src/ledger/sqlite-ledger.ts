import { resolve } from 'node:path';
import type Sqlite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { bindSqlite, compileQuery, type Ledger, type LedgerQuery } from './ledger.js';
import type { Database } from './schema.js';
import { walSync } from './wal-sync.js';

type Statement = Sqlite.Statement<unknown[]>;

/**
 * The Ledger over one better-sqlite3 connection. Statements run synchronously (the promises are already settled),
 * prepared once per SQL text. One connection serves every task of the process, so a transaction holds a lock:
 * while it is open, queries from outside it wait, or they would become part of it.
 */
export function sqliteLedger(file: string, raw: Sqlite.Database, db: Kysely<Database>, close: () => Promise<void>): Ledger {
  // Each SQL text prepared once: queries, and the transactions' own BEGIN, COMMIT and pragmas (better-sqlite3's exec
  // and pragma parse their text at every call, a cost each webhook commit paid).
  const statements = new Map<string, Statement>();
  const statementOf = (sql: string): Statement => {
    let stmt = statements.get(sql);
    if (!stmt) statements.set(sql, (stmt = raw.prepare(sql)));
    return stmt;
  };
  const prepare = (q: LedgerQuery<unknown>) => {
    const { sql, parameters } = compileQuery(q, db);
    return { stmt: statementOf(sql), parameters: parameters as unknown[] };
  };
  const run = (sql: string) => statementOf(sql).run();
  const direct = {
    all: <R>(q: LedgerQuery<R>) => {
      const { stmt, parameters } = prepare(q);
      return stmt.all(...parameters) as R[];
    },
    first: <R>(q: LedgerQuery<R>) => {
      const { stmt, parameters } = prepare(q);
      return stmt.get(...parameters) as R | undefined;
    },
    run: (q: LedgerQuery<unknown>) => {
      const { stmt, parameters } = prepare(q);
      return { changes: stmt.run(...parameters).changes };
    },
  };

  // The lock: the open transaction's end. Waiters loop (another waiter may take it first) and take it with no await
  // between their check and their take.
  let held: Promise<void> | null = null;
  /**
   * A file ledger in WAL mode (openLedger asks for it) has a -wal file to sync. Elsewhere (in memory, or a file
   * system where SQLite kept another journal) an 'async' commit is made durable by its own fsync instead. Asked at
   * the first 'async' commit (the webhook receiver's), not at every open.
   */
  let wal: ReturnType<typeof walSync> | null | undefined;
  const walOf = () => {
    if (wal === undefined) wal = file !== ':memory:' && raw.pragma('journal_mode', { simple: true }) === 'wal' ? walSync(`${resolve(file)}-wal`) : null;
    return wal;
  };
  let savepoints = 0;
  /** The level durable commits run under (openLedger sets FULL): read at the first commit that relaxes it. */
  let durableLevel: number | undefined;

  const inTransaction: Ledger = {
    dialect: 'sqlite',
    file,
    db,
    transaction: async (fn) => {
      const name = `sp${++savepoints}`;
      raw.exec(`SAVEPOINT ${name}`);
      try {
        const result = await fn(inTransaction);
        raw.exec(`RELEASE ${name}`);
        return result;
      } catch (e) {
        raw.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
        throw e;
      }
    },
    all: async (q) => direct.all(q),
    first: async (q) => direct.first(q),
    run: async (q) => direct.run(q),
    close: () => Promise.reject(new Error('A ledger cannot be closed inside one of its transactions.')),
  };

  const ledger: Ledger = {
    dialect: 'sqlite',
    file,
    db,
    async transaction(fn, o) {
      while (held !== null) await held;
      let release!: () => void;
      held = new Promise((r) => (release = r));
      // Set outside the transaction (SQLite refuses it inside) and back before the lock is let go.
      const relaxed = o?.durable === false || (o?.durable === 'async' && walOf()) ? (durableLevel ??= raw.pragma('synchronous', { simple: true }) as number) : null;
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        if (relaxed !== null) run('PRAGMA synchronous = NORMAL');
        // IMMEDIATE: take the write lock up front, so a writer waits (busy_timeout) instead of failing midway.
        run('BEGIN IMMEDIATE');
        try {
          result = await fn(inTransaction);
          run('COMMIT');
        } catch (e) {
          if (raw.inTransaction) run('ROLLBACK');
          throw e;
        }
      } finally {
        if (relaxed !== null) run(`PRAGMA synchronous = ${relaxed}`);
        held = null;
        savepoints = 0;
        release();
      }
      // Committed, the lock let go: the disk writes while the event loop and the next transactions go on.
      if (o?.durable === 'async' && wal) await wal.sync();
      return result;
    },
    all: async (q) => {
      while (held !== null) await held;
      return direct.all(q);
    },
    first: async (q) => {
      while (held !== null) await held;
      return direct.first(q);
    },
    run: async (q) => {
      while (held !== null) await held;
      return direct.run(q);
    },
    close: async () => {
      while (held !== null) await held;
      await wal?.close();
      await close();
    },
  };
  bindSqlite(inTransaction, raw);
  return bindSqlite(ledger, raw);
}
