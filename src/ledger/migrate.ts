import { readdirSync, readFileSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import { Migrator, type Kysely, type Migration, type MigrationProvider, type MigrationResult } from 'kysely';
import { ConfigError } from '../errors.js';

const MIGRATIONS_DIR = new URL('../../migrations/', import.meta.url);

/** The SQL files of migrations/, in order; each runs whole inside the Migrator's transaction. */
class SqlFileMigrationProvider implements MigrationProvider {
  constructor(private readonly raw: BetterSqlite3.Database) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort()) {
      const text = readFileSync(new URL(file, MIGRATIONS_DIR), 'utf8');
      // kysely runs one statement per query; the files hold several, so they go through the same connection's exec.
      migrations[file.replace(/\.sql$/, '')] = { up: async () => void this.raw.exec(text) };
    }
    return migrations;
  }
}

/** Brings the ledger up to the newest schema; refuses a ledger written by a newer paybatch. */
export async function migrateLedger(db: Kysely<unknown>, raw: BetterSqlite3.Database, file: string): Promise<MigrationResult[]> {
  const migrator = new Migrator({ db, provider: new SqlFileMigrationProvider(raw) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/previously executed migration .* is missing/.test(message)) {
      throw new ConfigError(`The ledger ${file} was written by a newer paybatch (${message.replace(/^corrupted migrations: /, '')}).`, {
        hint: 'Upgrade paybatch before using this ledger; nothing was changed.',
      });
    }
    throw new ConfigError(`Could not update the ledger ${file}: ${message}`, { cause: error });
  }
  return results ?? [];
}
