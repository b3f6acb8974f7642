import { chmodSync, linkSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type Sqlite from 'better-sqlite3';
import { ConfigError } from '../errors.js';
import { createPrivateFile, PRIVATE_FILE_MODE } from '../private-files.js';
import { sqliteOf, type Ledger } from './ledger.js';

/** Automatic backups taken before migrations that are kept; older ones are removed. */
const KEEP_PRE_MIGRATION = 3;

export interface BackupResult {
  readonly path: string;
  readonly bytes: number;
}

const stem = (ledgerFile: string) => basename(ledgerFile).replace(/\.db$/, '');
/** `20261120T120000Z`: sorts by time, and is a valid file name everywhere. */
const stamp = (now: Date) => now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');

/** `<ledger>.backup-<time>.db` beside the ledger: what `paybatch ledger backup` writes without --to. */
export const defaultBackupFile = (ledgerFile: string, now: Date) => join(dirname(ledgerFile), `${stem(ledgerFile)}.backup-${stamp(now)}.db`);

/**
 * Copies the open ledger to `to` with SQLite's online backup: a consistent copy even while another process (the
 * daemon) writes, since the copy starts over when the ledger changes under it. The copy is written under a
 * temporary name, made 0600, and then linked to `to`, so a backup never overwrites a file: an existing `to` is
 * refused, or with `numbered` (timestamped names, two backups in one second) becomes `<name>-2.db`, `-3`, ….
 */
export async function backupLedger(ledger: Ledger, to: string, o: { numbered?: boolean } = {}): Promise<BackupResult> {
  return backupDatabase(sqliteOf(ledger), to, o);
}

/** backupLedger on a bare connection: the pre-migration backup runs before there is a Ledger. */
async function backupDatabase(raw: Sqlite.Database, to: string, o: { numbered?: boolean }): Promise<BackupResult> {
  const tmp = join(dirname(to), `.${basename(to)}.${process.pid}.tmp`);
  try {
    createPrivateFile(tmp);
    await raw.backup(tmp);
    chmodSync(tmp, PRIVATE_FILE_MODE);
    for (let n = 1; ; n++) {
      const path = n === 1 ? to : to.replace(/(\.db)?$/, `-${n}$1`);
      try {
        linkSync(tmp, path);
        return { path, bytes: statSync(path).size };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        if (!o.numbered) {
          throw new ConfigError(`${to} already exists; a backup never overwrites a file.`, {
            hint: 'Choose another name with --to, or leave --to out for a new timestamped name.',
            reason: { code: 'backup_exists', file: to },
          });
        }
      }
    }
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * Backs the ledger up as `<ledger>.pre-migration-<time>.db` before its schema changes, and keeps the newest
 * three such backups.
 */
export async function backupBeforeMigration(raw: Sqlite.Database, ledgerFile: string, now: Date): Promise<BackupResult> {
  const result = await backupDatabase(raw, join(dirname(ledgerFile), `${stem(ledgerFile)}.pre-migration-${stamp(now)}.db`), { numbered: true });
  const old = backupsOf(ledgerFile).filter((f) => basename(f).startsWith(`${stem(ledgerFile)}.pre-migration-`));
  for (const file of old.slice(KEEP_PRE_MIGRATION)) rmSync(file, { force: true });
  return result;
}

/** The backups beside a ledger (manual and pre-migration), newest first. */
export function backupsOf(ledgerFile: string): string[] {
  const prefix = `${stem(ledgerFile)}.`;
  const name = /^(?:backup|pre-migration)-(\d{8}T\d{6}Z)(?:-(\d+))?\.db$/;
  return readdirSync(dirname(ledgerFile))
    .flatMap((f) => {
      const m = f.startsWith(prefix) ? name.exec(f.slice(prefix.length)) : null;
      return m ? [{ f, order: `${m[1]}.${(m[2] ?? '1').padStart(6, '0')}` }] : [];
    })
    .sort((a, b) => b.order.localeCompare(a.order))
    .map(({ f }) => join(dirname(ledgerFile), f));
}
