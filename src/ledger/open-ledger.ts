import { closeSync, existsSync, linkSync, openSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { ConfigError, type LedgerDamage } from '../errors.js';
import { createPrivateFile, makePrivateDir } from '../private-files.js';
import { backupsOf } from './backup.js';
import type { Ledger } from './ledger.js';
import { isPostgresUrl, withoutPasswords } from '../domain/ledger-location.js';
import { appliedMigrations, migratedNames, migrateLedger, type OpenOptions } from './migrate.js';
import type { Database } from './schema.js';
import { sqliteLedger } from './sqlite-ledger.js';

export { sqliteOf, type Ledger } from './ledger.js';
export type { OpenOptions } from './migrate.js';

/**
 * Up to this size an existing ledger gets `PRAGMA quick_check` on every open: measured at about 3 ms per MB
 * (180 ms for 100,000 items, 57 MB), so ~100 ms here. Larger ledgers get the cheap checks on open, and the full
 * one from `paybatch ledger check`.
 */
const QUICK_CHECK_MAX_BYTES = 32 * 1024 * 1024;
const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * Opens the ledger at `file`, with WAL, foreign keys and a busy timeout, migrated to the latest schema. A missing
 * ledger is created (privately: 0600 in a 0700 folder); an existing file is never re-created or repaired: one that
 * is not a sound paybatch ledger is refused with a ConfigError saying what is wrong and naming its backups.
 */
export async function openLedger(file: string, o: OpenOptions = {}): Promise<Ledger> {
  // pg is loaded only for a PostgreSQL ledger: most runs never need it.
  if (isPostgresUrl(file)) return (await import('./postgres-ledger.js')).openPostgresLedger(file, o);
  // A mistyped URL (postgress://, mysql://) would otherwise become an empty SQLite file in folders named after it.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(file)) {
    throw new ConfigError(`The ledger ${withoutPasswords(file)} is neither a file nor a PostgreSQL URL.`, {
      hint: 'Name an SQLite file, or a PostgreSQL database as postgres://user:password@host:5432/database.',
      reason: { code: 'ledger_url_unknown', ledger: withoutPasswords(file) },
    });
  }
  if (file !== ':memory:' && !existsSync(file)) await createLedgerFile(file, o);
  const raw = file === ':memory:' ? new Sqlite(file) : openExistingLedger(file);
  configure(raw);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
  try {
    const applied = migratedNames(await migrateLedger(db as Kysely<unknown>, raw, file));
    o.onMigrated?.(applied);
  } catch (e) {
    await closeLedger(db, raw);
    throw e;
  }
  return sqliteLedger(file, raw, db, () => closeLedger(db, raw));
}

/** kysely closes the connection only if it ever ran a query, which an up-to-date ledger may not have. */
async function closeLedger(db: Kysely<Database>, raw: Sqlite.Database): Promise<void> {
  await db.destroy();
  if (raw.open) raw.close();
}

function configure(raw: Sqlite.Database): void {
  // First, so that every later statement waits for another process's lock instead of failing at once.
  raw.pragma('busy_timeout = 5000');
  raw.pragma('journal_mode = WAL');
  raw.pragma('foreign_keys = ON');
  // WAL with synchronous=FULL: a commit survives power loss, which a money ledger needs more than speed.
  raw.pragma('synchronous = FULL');
}

/**
 * Builds a new, fully migrated ledger under a temporary name and links it into place only if `file` still does not
 * exist. So `file` never exists half-made (an empty file always means damage), and when two processes create the
 * same ledger at once, one wins and the other opens the winner's. The file is 0600 from the start; SQLite gives
 * its -wal and -shm files the database's mode.
 */
async function createLedgerFile(file: string, o: OpenOptions): Promise<void> {
  makePrivateDir(dirname(file));
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.new`);
  try {
    createPrivateFile(tmp);
    const raw = new Sqlite(tmp);
    configure(raw);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
    try {
      // Not inside o.onMigrated?.(…): an optional call skips evaluating its arguments, migration included.
      const applied = migratedNames(await migrateLedger(db as Kysely<unknown>, raw, tmp));
      o.onMigrated?.(applied);
    } finally {
      await closeLedger(db, raw);
    }
    try {
      linkSync(tmp, file);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // EEXIST: another process created it first, and that one is used. Without hard links (FAT, some network
      // shares) a rename does, with a tiny window where two creators could both win.
      if (code !== 'EEXIST' && !existsSync(file)) renameSync(tmp, file);
    }
  } finally {
    for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
  }
}

/** Opens an existing ledger after checking it is one, without writing to it until it passed. */
function openExistingLedger(file: string): Sqlite.Database {
  const refuse = (damage: LedgerDamage) => damagedLedger(file, damage);
  const problem = fileProblem(file);
  if (problem) throw refuse(problem);
  // SQLite reads nothing on open: damage shows at the first statement.
  const raw = new Sqlite(file, { fileMustExist: true });
  try {
    raw.pragma('busy_timeout = 5000'); // another process may be recovering the WAL index at this very moment
    const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    if (!tables.includes('imports') || !appliedMigrations(raw).length) {
      throw refuse(tables.length ? { kind: 'foreign_tables', tables: tables.slice(0, 5).join(', ') } : { kind: 'empty_database' });
    }
    if (statSync(file).size <= QUICK_CHECK_MAX_BYTES) {
      const result = raw.pragma('quick_check', { simple: true }) as string;
      if (result !== 'ok') throw refuse({ kind: 'sqlite_damaged', sqlite: result.split('\n').filter((l) => !l.startsWith('***')).slice(0, 3).join('; ') });
    }
    return raw;
  } catch (e) {
    raw.close();
    throw isDamage(e) ? refuse({ kind: 'sqlite_damaged', sqlite: (e as Error).message }) : e;
  }
}

/** What the bytes on disk say is wrong with an existing ledger file, before SQLite reads it; null when nothing. */
function fileProblem(file: string): LedgerDamage | null {
  const size = statSync(file).size;
  // Another process closing the ledger removes its -wal file at any moment: gone between two looks is no WAL.
  const walSize = statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
  // A database whose pages are all still in its -wal file can be 0 bytes: SQLite reads it from the WAL.
  if (size === 0) return walSize > 0 ? null : { kind: 'empty_file' };
  const header = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  if (header.toString('latin1', 0, 16) !== SQLITE_HEADER) return { kind: 'not_sqlite' };
  if (size < 100) return { kind: 'shorter_than_header', size };
  // The header's page count is trustworthy when its change counter matches "version valid for" (always, since
  // SQLite 3.7). Pages still in a -wal file may not be in the main file yet, so only a file without one is held to it.
  const pageSize = header.readUInt16BE(16) === 1 ? 65_536 : header.readUInt16BE(16);
  const pages = header.readUInt32BE(28);
  if (walSize === 0 && header.readUInt32BE(24) === header.readUInt32BE(92) && pages * pageSize > size) {
    return { kind: 'truncated', size, expected: pages * pageSize };
  }
  return null;
}

const isDamage = (e: unknown) => /^SQLITE_(CORRUPT|NOTADB)/.test(String((e as { code?: unknown }).code ?? ''));

function damagedLedger(file: string, damage: LedgerDamage): ConfigError {
  const [newest] = backupsOf(file);
  return new ConfigError(`The ledger ${file} is not a usable paybatch ledger: ${DAMAGE_IN_ENGLISH[damage.kind](damage as never)}. paybatch left it as it is.`, {
    hint:
      (newest ? `Restore a backup: move ${file} away and copy the newest backup, ${newest}, in its place. ` : 'Restore it from a backup, or move it away to start an empty ledger. ') +
      "Once a ledger opens again, 'paybatch ledger backup' makes a copy to restore from.",
    reason: { code: 'ledger_unusable', file, damage, backup: newest ?? null },
  });
}

/** The English of `--json` (other languages: the CLI's catalog of error reasons). */
const DAMAGE_IN_ENGLISH: { readonly [K in LedgerDamage['kind']]: (d: Extract<LedgerDamage, { kind: K }>) => string } = {
  empty_file: () => 'the file is empty',
  not_sqlite: () => 'it is not an SQLite database (its first bytes are not an SQLite header)',
  shorter_than_header: (d) => `it is truncated: ${d.size} bytes, less than an SQLite header`,
  truncated: (d) => `it is truncated: ${d.size} bytes where its header says ${d.expected}`,
  foreign_tables: (d) => `it is an SQLite database without paybatch's tables (it has ${d.tables})`,
  empty_database: () => 'it is an empty SQLite database',
  sqlite_damaged: (d) => `SQLite finds it damaged (${d.sqlite})`,
};
