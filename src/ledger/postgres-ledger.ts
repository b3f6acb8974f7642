import pg from 'pg';
import { CompiledQuery, Kysely, PostgresDialect, type Transaction } from 'kysely';
import { ConfigError } from '../errors.js';
import { compileQuery, type Ledger, type LedgerQuery } from './ledger.js';
import { shownUrl } from '../domain/ledger-location.js';
import { isLedgerUnavailable, RETRIED_CODES } from './ledger-unavailable.js';
import { migratedNames, migratePostgresLedger, type OpenOptions } from './migrate.js';
import type { Database } from './schema.js';

/** BIGINT (ids, centavos, counts) and NUMERIC (sums) come back as numbers, as SQLite gives them: centavos stay below 2^53. */
export const NUMBER_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * How many times a transaction that lost a serialization conflict or a deadlock to another host (or timed out on a
 * lock, a statement or while idle: `RETRIED_CODES`) is run again, after a random wait that doubles each time (up to a
 * second): several daemons reconciling, storing events and claiming receipts at once can make the same transaction
 * lose a few times in a row.
 */
const CONFLICT_RETRIES = 10;
const conflictBackoffMs = (attempt: number) => Math.random() * Math.min(1000, 10 * 2 ** attempt);
const isConflict = (e: unknown) => RETRIED_CODES.has(String((e as { code?: unknown }).code));

/**
 * Opens (and migrates) a PostgreSQL ledger. Transactions are SERIALIZABLE: each behaves as if it ran alone, as on
 * SQLite, so the stores' read-then-write steps stay exactly-once when several hosts share the ledger; one that
 * loses a conflict to another host is rolled back and run again (their bodies only read and write the ledger).
 */
export async function openPostgresLedger(url: string, o: OpenOptions = {}): Promise<Ledger> {
  const shown = shownUrl(url);
  // Migrations run without a statement bound, on a pool of their own when the ledger's sessions have one.
  const migrating = postgresPool(url, {});
  const db = o.statementTimeoutMs === undefined ? migrating : postgresPool(url, { statement_timeout: o.statementTimeoutMs });
  try {
    const applied = migratedNames(await migratePostgresLedger(migrating as Kysely<unknown>, shown));
    o.onMigrated?.(applied);
  } catch (e) {
    await Promise.all([...new Set([migrating, db])].map((d) => d.destroy()));
    const cause = (e as { cause?: unknown }).cause ?? e; // the migrator's error wraps the connection's
    throw isLedgerUnavailable(cause) ? unreachable(shown, cause) : e;
  }
  if (migrating !== db) await migrating.destroy();
  return postgresLedger(shown, db);
}

/**
 * Every session waits at most SESSION_BOUNDS.lockMs for a row lock (a conflict, run again like a serialization
 * one) and is ended by the server after SESSION_BOUNDS.idleInTransactionMs idle inside a transaction: a process
 * paused (SIGSTOP, a frozen VM) while it holds rows never holds up the other hosts for longer, and its transaction
 * is ended well before its lease (a minute) runs out.
 */
export const SESSION_BOUNDS = { lockMs: 10_000, idleInTransactionMs: 20_000 };

function postgresPool(url: string, bounds: { statement_timeout?: number }): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 8,
    types: NUMBER_TYPES,
    connectionTimeoutMillis: 10_000,
    application_name: 'paybatch',
    lock_timeout: SESSION_BOUNDS.lockMs,
    idle_in_transaction_session_timeout: SESSION_BOUNDS.idleInTransactionMs,
    ...bounds,
  });
  // A connection dropped by the server (a restart, a failover, a fast shutdown, an idle transaction ended) must not
  // end the process: the pool hears it for idle connections, each connection itself while it is checked out
  // (between a transaction's queries, say), and the query in flight, or the next one, fails and says so.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

function postgresLedger(shown: string, db: Kysely<Database>): Ledger {
  return {
    ...queriesOn(db, shown, db),
    transaction: async (fn) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction().setIsolationLevel('serializable').execute((trx) => fn(transactionOn(trx, shown, db)));
        } catch (e) {
          if (!isConflict(e) || attempt > CONFLICT_RETRIES) throw e;
          await new Promise((r) => setTimeout(r, conflictBackoffMs(attempt)));
        }
      }
    },
    close: () => db.destroy(),
  };
}

/** The ledger inside one transaction: its queries run on the transaction's connection; a nested one is a savepoint. */
function transactionOn(trx: Transaction<Database>, shown: string, db: Kysely<Database>): Ledger {
  let savepoints = 0;
  const tx: Ledger = {
    ...queriesOn(trx, shown, db),
    async transaction(fn) {
      const name = `sp${++savepoints}`;
      await trx.executeQuery(CompiledQuery.raw(`SAVEPOINT ${name}`));
      try {
        const result = await fn(tx);
        await trx.executeQuery(CompiledQuery.raw(`RELEASE SAVEPOINT ${name}`));
        return result;
      } catch (e) {
        await trx.executeQuery(CompiledQuery.raw(`ROLLBACK TO SAVEPOINT ${name}`));
        throw e;
      }
    },
    close: () => Promise.reject(new Error('A ledger cannot be closed inside one of its transactions.')),
  };
  return tx;
}

function queriesOn(executor: Kysely<Database>, shown: string, db: Kysely<Database>): Omit<Ledger, 'transaction' | 'close'> {
  return {
    dialect: 'postgres',
    file: shown,
    db,
    all: async <R>(q: LedgerQuery<R>) => (await executor.executeQuery(compileQuery(q, db))).rows,
    first: async <R>(q: LedgerQuery<R>) => (await executor.executeQuery(compileQuery(q, db))).rows[0],
    run: async (q) => ({ changes: Number((await executor.executeQuery(compileQuery(q, db))).numAffectedRows ?? 0n) }),
  };
}

function unreachable(shown: string, e: unknown): ConfigError {
  const error = (e as Error).message || String((e as { code?: unknown }).code);
  return new ConfigError(`Could not reach the PostgreSQL ledger ${shown}: ${error}.`, {
    hint: 'Check that the server is running and the URL (host, port, database, user) is right; set it with the ledger setting, --ledger, PAYBATCH_LEDGER or PAYBATCH_LEDGER_FILE.',
    reason: { code: 'ledger_unreachable', ledger: shown, error },
  });
}
