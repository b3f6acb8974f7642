/** Looking after the ledger itself: `paybatch ledger migrate|copy|backup|check`. */
import { countMigrations } from '../../ledger/migrate.js';
import { openLedger, type Ledger } from '../../ledger/open-ledger.js';

export { backupLedger, defaultBackupFile, type BackupResult } from '../../ledger/backup.js';
export { copyLedger, type CopyResult } from '../../ledger/ledger-copy.js';
export { checkLedger, type LedgerCheck } from '../../ledger/ledger-check.js';

/** What migrating a ledger did: the migrations it applied now (none: it was up to date) of the `migrations` known. */
export interface MigrationReport {
  readonly ledger: string;
  readonly dialect: Ledger['dialect'];
  readonly applied: readonly string[];
  readonly migrations: number;
}

/** Opens the ledger at `file` (a path or a PostgreSQL URL), which brings it up to date, and closes it. */
export async function migrateLedgerAt(file: string): Promise<MigrationReport> {
  const applied: string[] = [];
  const ledger = await openLedger(file, { onMigrated: (names) => applied.push(...names) });
  await ledger.close();
  return { ledger: ledger.file, dialect: ledger.dialect, applied, migrations: countMigrations() };
}
