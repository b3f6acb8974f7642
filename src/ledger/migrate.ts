import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, Migrator, type Kysely, type Migration, type MigrationProvider, type MigrationResult } from 'kysely';
import { ConfigError } from '../errors.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { backupBeforeMigration } from './backup.js';

const MIGRATIONS_DIR = join(PACKAGE_ROOT, 'migrations');
/** How long a process waits for another one that is migrating the same ledger (a backup of a large one included). */
const MIGRATION_LOCK_WAIT_MS = 60_000;

const migrationNames = () =>
  readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => f.replace(/\.sql$/, ''));

export interface OpenOptions {
  /** Told the migrations this open applied (none when the ledger was up to date). */
  readonly onMigrated?: (names: readonly string[]) => void;
  /**
   * A PostgreSQL ledger's bound on each statement (the daemon's: its transactions are small, and one held up by a
   * paused or cut-off holder must end before that holder's lease does). Unset: none (imports of a million rows,
   * `ledger copy`, `ledger check`, migrations).
   */
  readonly statementTimeoutMs?: number;
}

/** How many migrations this paybatch knows: a ledger up to date has had them all. */
export const countMigrations = () => migrationNames().length;

export const migratedNames = (results: readonly MigrationResult[]) => results.filter((r) => r.status === 'Success').map((r) => r.migrationName);

/** The SQL files of migrations/, in order, each run through the raw connection (inside migrateLedger's lock). */
class SqlFileMigrationProvider implements MigrationProvider {
  constructor(private readonly raw: BetterSqlite3.Database) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const name of migrationNames()) {
      const text = readFileSync(join(MIGRATIONS_DIR, `${name}.sql`), 'utf8');
      // kysely runs one statement per query; the files hold several, so they go through the same connection's exec.
      migrations[name] = { up: async () => void this.raw.exec(text) };
    }
    return migrations;
  }
}

/** Names of the migrations this ledger has had, or none when it has no migration table yet. */
export function appliedMigrations(raw: BetterSqlite3.Database): string[] {
  const table = raw.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'").get();
  return table ? raw.prepare('SELECT name FROM kysely_migration').pluck().all() as string[] : [];
}

/**
 * Brings the ledger up to the newest schema; refuses a ledger written by a newer paybatch. A ledger that already
 * had migrations is backed up first (`backupBeforeMigration`). kysely's Migrator takes no lock and no transaction
 * on SQLite, so two processes opening one ledger would both apply the same migration ("table … already exists"):
 * the check and the migrations run inside one BEGIN EXCLUSIVE, where a second process waits and then finds nothing
 * left to do. The transaction also makes the migrations all-or-nothing.
 */
export async function migrateLedger(db: Kysely<unknown>, raw: BetterSqlite3.Database, file: string): Promise<MigrationResult[]> {
  const known = migrationNames();
  const applied = appliedMigrations(raw);
  if (applied.length === known.length && known.every((n) => applied.includes(n))) return [];
  if (applied.length > 0 && applied.every((n) => known.includes(n))) await backupBeforeMigration(raw, file, new Date());

  const busyTimeout = raw.pragma('busy_timeout', { simple: true }) as number;
  raw.pragma(`busy_timeout = ${MIGRATION_LOCK_WAIT_MS}`);
  let outcome: Awaited<ReturnType<Migrator['migrateToLatest']>> | undefined;
  try {
    raw.exec('BEGIN EXCLUSIVE');
    outcome = await new Migrator({ db, provider: new SqlFileMigrationProvider(raw) }).migrateToLatest();
  } catch (e) {
    if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
    throw new ConfigError(`The ledger ${file} stayed locked by another process for ${MIGRATION_LOCK_WAIT_MS / 1000} s while its schema was to be updated.`, {
      hint: 'Run the command again once the other paybatch (a daemon, or an import) has finished.',
      reason: { code: 'ledger_busy', ledger: file, seconds: MIGRATION_LOCK_WAIT_MS / 1000 },
    });
  } finally {
    if (raw.inTransaction) raw.exec(outcome && !outcome.error ? 'COMMIT' : 'ROLLBACK');
    raw.pragma(`busy_timeout = ${busyTimeout}`);
  }
  const { error, results } = outcome;
  if (error) throw migrationError(error, file);
  return results ?? [];
}

/**
 * Brings a PostgreSQL ledger up to the newest schema (migrations/postgres/, the same names as SQLite's). kysely's
 * Migrator runs them in one transaction under an advisory lock on PostgreSQL, so hosts starting together apply each
 * migration once; a ledger written by a newer paybatch is refused as on SQLite.
 */
export async function migratePostgresLedger(db: Kysely<unknown>, shown: string): Promise<MigrationResult[]> {
  const dir = join(MIGRATIONS_DIR, 'postgres');
  const provider: MigrationProvider = {
    async getMigrations() {
      const migrations: Record<string, Migration> = {};
      for (const name of migrationNames()) {
        const text = readFileSync(join(dir, `${name}.sql`), 'utf8');
        // Without parameters, pg sends the text as one simple query: every statement of the file, in order.
        migrations[name] = { up: async (trx) => void (await trx.executeQuery(CompiledQuery.raw(text))) };
      }
      return migrations;
    },
  };
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) throw migrationError(error, shown);
  return results ?? [];
}

function migrationError(error: unknown, shown: string): ConfigError {
  const message = error instanceof Error ? error.message : String(error);
  if (/previously executed migration .* is missing/.test(message)) {
    const detail = message.replace(/^corrupted migrations: /, '');
    return new ConfigError(`The ledger ${shown} was written by a newer paybatch (${detail}).`, {
      hint: 'Upgrade paybatch before using this ledger; nothing was changed.',
      reason: { code: 'ledger_newer', ledger: shown, detail },
    });
  }
  return new ConfigError(`Could not update the ledger ${shown}: ${message}; nothing was changed.`, { cause: error });
}
