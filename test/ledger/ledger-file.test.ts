import { existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { backupLedger, backupsOf } from '../../src/ledger/backup.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { openLedger, sqliteOf } from '../../src/ledger/open-ledger.js';
import { plannedItem } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const now = new Date('2026-11-20T12:00:00Z');
const MIGRATIONS = new URL('../../migrations/', import.meta.url);

/** A ledger with `n` items, closed, so its main file holds everything. */
async function ledgerWithItems(file: string, n: number): Promise<void> {
  const ledger = await openLedger(file);
  await recordImport(ledger, { fileHash: 'h', fileName: 's.csv', rowCount: n, batchName: 'Folha', itemCount: n, items: Array.from({ length: n }, (_, i) => plannedItem(i + 1)), rejectedCount: 0, now });
  await ledger.close();
}

/** A ledger as paybatch before `0005_import_claims` left it: every earlier migration applied. */
function olderLedger(file: string): void {
  const raw = new Sqlite(file);
  raw.pragma('journal_mode = WAL');
  raw.exec('CREATE TABLE kysely_migration (name varchar(255) NOT NULL PRIMARY KEY, timestamp varchar(255) NOT NULL)');
  raw.exec('CREATE TABLE kysely_migration_lock (id varchar(255) NOT NULL PRIMARY KEY, is_locked integer DEFAULT 0 NOT NULL)');
  for (const name of ['0001_ledger', '0002_daemon', '0003_bills', '0004_provider_profile']) {
    raw.exec(readFileSync(new URL(`${name}.sql`, MIGRATIONS), 'utf8'));
    raw.prepare('INSERT INTO kysely_migration VALUES (?, ?)').run(name, now.toISOString());
  }
  raw.prepare("INSERT INTO imports (file_hash, file_name, row_count, item_count, rejected_count, created_at) VALUES ('old', 'old.csv', 1, 0, 0, ?)").run(now.toISOString());
  raw.close();
}

async function refusal(file: string): Promise<ConfigError> {
  const error = await openLedger(file).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('opening a ledger file that is not a sound ledger', () => {
  it('refuses an empty file instead of re-creating it', async () => {
    const file = join(tempDir(), 'ledger.db');
    writeFileSync(file, '');
    const e = await refusal(file);
    expect(e.message).toBe(`The ledger ${file} is not a usable paybatch ledger: the file is empty. paybatch left it as it is.`);
    expect(e.hint).toMatch(/Restore it from a backup.*'paybatch ledger backup'/);
    expect(statSync(file).size).toBe(0);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('refuses a file that is not SQLite, or whose header is damaged', async () => {
    const dir = tempDir();
    const text = join(dir, 'text.db');
    writeFileSync(text, 'nome;chave;valor\nAna;ana@example.com;10,00\n');
    expect((await refusal(text)).message).toContain('it is not an SQLite database');
    const header = join(dir, 'header.db');
    await ledgerWithItems(header, 10);
    const bytes = readFileSync(header);
    bytes.write('SQLite format 2', 0, 'latin1');
    writeFileSync(header, bytes);
    expect((await refusal(header)).message).toContain('it is not an SQLite database');
    expect(readFileSync(header).equals(bytes)).toBe(true);
  });

  it('refuses a truncated ledger, naming the newest backup beside it', async () => {
    const file = join(tempDir(), 'ledger.db');
    await ledgerWithItems(file, 3000);
    const ledger = await openLedger(file);
    const backup = await backupLedger(ledger, join(ledger.file, '..', 'ledger.backup-20261120T120000Z.db'));
    await ledger.close();
    const size = statSync(file).size;
    truncateSync(file, Math.floor(size / 2));
    const e = await refusal(file);
    expect(e.message).toMatch(/is not a usable paybatch ledger: it is truncated: \d+ bytes where its header says \d+\. paybatch left it as it is\.$/);
    expect(e.hint).toContain(`copy the newest backup, ${backup.path}, in its place`);
    expect(statSync(file).size).toBe(Math.floor(size / 2));
  });

  it('refuses a ledger with a damaged page (PRAGMA quick_check)', async () => {
    const file = join(tempDir(), 'ledger.db');
    await ledgerWithItems(file, 3000);
    const bytes = readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0x5a, pageSize * 5, pageSize * 7); // two pages of items in the middle
    writeFileSync(file, bytes);
    expect((await refusal(file)).message).toMatch(/is not a usable paybatch ledger: SQLite finds it damaged \(.+\)\./);
  });

  it('refuses another SQLite database without touching it', async () => {
    const file = join(tempDir(), 'other.db');
    const other = new Sqlite(file);
    other.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('x')");
    other.close();
    const before = readFileSync(file);
    expect((await refusal(file)).message).toContain("it is an SQLite database without paybatch's tables (it has notes)");
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('opens a sound ledger as before', async () => {
    const file = join(tempDir(), 'ledger.db');
    await ledgerWithItems(file, 100);
    const ledger = await openLedger(file);
    expect(sqliteOf(ledger).prepare('SELECT count(*) FROM items').pluck().get()).toBe(100);
    await ledger.close();
  });
});

describe('ledger backups', () => {
  it('copies the ledger to a 0600 file that opens with the same data, and never overwrites a file', async () => {
    const previous = process.umask(0o022);
    try {
      const dir = tempDir();
      const file = join(dir, 'ledger.db');
      await ledgerWithItems(file, 50);
      const ledger = await openLedger(file);
      const result = await backupLedger(ledger, join(dir, 'copy.db'));
      expect(result).toEqual({ path: join(dir, 'copy.db'), bytes: statSync(join(dir, 'copy.db')).size });
      expect(statSync(result.path).mode & 0o777).toBe(0o600);
      await expect(backupLedger(ledger, result.path)).rejects.toThrow(/already exists; a backup never overwrites a file/);
      const numbered = await backupLedger(ledger, result.path, { numbered: true });
      expect(numbered.path).toBe(join(dir, 'copy-2.db'));
      await ledger.close();
      const copy = await openLedger(result.path);
      expect(sqliteOf(copy).prepare('SELECT count(*) FROM items').pluck().get()).toBe(50);
      await copy.close();
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      process.umask(previous);
    }
  });

  it('backs up a ledger before migrating it, keeps the newest three, and the backup has the old schema', async () => {
    const dir = tempDir();
    const file = join(dir, 'ledger.db');
    for (const at of ['20260101T000000Z', '20260201T000000Z', '20260301T000000Z']) writeFileSync(join(dir, `ledger.pre-migration-${at}.db`), 'old');
    olderLedger(file);
    const ledger = await openLedger(file);
    expect(sqliteOf(ledger).prepare("SELECT count(*) FROM sqlite_master WHERE name = 'import_claims'").pluck().get()).toBe(1);
    await ledger.close();
    const backups = backupsOf(file);
    expect(backups.map((b) => b.replace(dir, ''))).toEqual([
      expect.stringMatching(/^\/ledger\.pre-migration-\d{8}T\d{6}Z\.db$/),
      '/ledger.pre-migration-20260301T000000Z.db',
      '/ledger.pre-migration-20260201T000000Z.db',
    ]);
    expect(statSync(backups[0]!).mode & 0o777).toBe(0o600);
    const old = new Sqlite(backups[0]!, { readonly: true });
    expect(old.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'import_claims'").pluck().get()).toBe(0);
    expect(old.prepare('SELECT file_hash FROM imports').pluck().all()).toEqual(['old']);
    old.close();
    // Opening it again migrates nothing and backs up nothing.
    await (await openLedger(file)).close();
    expect(backupsOf(file)).toEqual(backups);
  });

  it('takes no backup of a ledger it creates', async () => {
    const dir = tempDir();
    await (await openLedger(join(dir, 'ledger.db'))).close();
    expect(readdirSync(dir).sort()).toEqual(['ledger.db']);
  });
});
