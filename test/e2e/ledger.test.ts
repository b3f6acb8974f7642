import { readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES, paybatch, userEnv } from '../helpers/e2e.js';
import { writeSheet } from '../helpers/sheets.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const mode = (path: string) => statSync(path).mode & 0o777;
// Children inherit the umask: the usual one, which would leave files 0644 if paybatch did not set modes itself.
let umask: number;
beforeEach(() => {
  umask = process.umask(0o022);
});
afterEach(() => {
  process.umask(umask);
});

const MIGRATIONS = readdirSync(new URL('../../migrations/', import.meta.url)).filter((f) => f.endsWith('.sql')).sort().map((f) => f.replace(/\.sql$/, ''));

/** A ledger as an older paybatch left it: every migration but the last applied, and some data. */
function olderLedger(file: string): void {
  const raw = new Sqlite(file);
  raw.pragma('journal_mode = WAL');
  raw.exec('CREATE TABLE kysely_migration (name varchar(255) NOT NULL PRIMARY KEY, timestamp varchar(255) NOT NULL)');
  raw.exec('CREATE TABLE kysely_migration_lock (id varchar(255) NOT NULL PRIMARY KEY, is_locked integer DEFAULT 0 NOT NULL)');
  for (const name of MIGRATIONS.slice(0, -1)) {
    raw.exec(readFileSync(new URL(`../../migrations/${name}.sql`, import.meta.url), 'utf8'));
    raw.prepare('INSERT INTO kysely_migration VALUES (?, ?)').run(name, new Date().toISOString());
  }
  raw.prepare("INSERT INTO imports (file_hash, file_name, row_count, item_count, rejected_count, created_at) VALUES ('old', 'old.csv', 1, 0, 0, 'x')").run();
  raw.close();
}

/** No stack trace and no "bug" wording: the run failed for a reason it explained. */
function expectExplained(stderr: string): void {
  expect(stderr).not.toContain('This is a bug');
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toContain('unexpected:');
}

describe('the ledger file (end to end)', () => {
  it('two or three processes opening a brand-new ledger at once all succeed (migrations run once, under a lock)', async () => {
    const dir = tempDir();
    const env = userEnv(dir);
    for (let round = 0; round < 10; round++) {
      const ledger = join(dir, `n${round}.db`);
      const runs = await Promise.all([0, 1, 2].map(() => paybatch(['batch', 'list', '--ledger', ledger], { env })));
      for (const r of runs) {
        expect(r.exitCode, `round ${round}: ${r.stderr}`).toBe(0);
        expect(r.stdout).toContain('No batches yet');
      }
      const raw = new Sqlite(ledger, { readonly: true });
      expect(raw.prepare('SELECT name FROM kysely_migration ORDER BY name').pluck().all()).toEqual(MIGRATIONS);
      raw.close();
      expect(mode(ledger)).toBe(0o600);
    }
    // Only the ledgers are left: no temporary files of the processes that lost the race to create them (.cache holds
    // the bundle's code caches of this user, whose home the folder is).
    expect(readdirSync(dir).filter((f) => (f.startsWith('.') && f !== '.cache') || f.endsWith('.new'))).toEqual([]);
  }, 120_000);

  it('processes updating an older ledger at once all succeed: the migration runs once, after one backup or more', async () => {
    const dir = tempDir();
    const env = userEnv(dir);
    for (let round = 0; round < 10; round++) {
      const ledger = join(dir, `old${round}.db`);
      olderLedger(ledger);
      const runs = await Promise.all([0, 1, 2].map(() => paybatch(['batch', 'list', '--ledger', ledger, '--json'], { env })));
      for (const r of runs) expect(r.exitCode, `round ${round}: ${r.stderr}`).toBe(0);
      const raw = new Sqlite(ledger, { readonly: true });
      expect(raw.prepare('SELECT name FROM kysely_migration ORDER BY name').pluck().all()).toEqual(MIGRATIONS);
      raw.close();
      expect(readdirSync(dir).filter((f) => f.startsWith(`old${round}.pre-migration-`)).length).toBeGreaterThanOrEqual(1);
    }
  }, 120_000);

  it.each([
    ['empty', (f: string) => writeFileSync(f, ''), 'the file is empty'],
    ['not SQLite', (f: string) => writeFileSync(f, 'chave;valor\n'), 'it is not an SQLite database'],
    ['truncated', (f: string) => truncateSync(f, Math.floor(statSync(f).size / 2)), 'it is truncated'],
    ['bad header', (f: string) => writeFileSync(f, Buffer.concat([Buffer.from('SQLite format 2\0'), readFileSync(f).subarray(16)])), 'it is not an SQLite database'],
  ])('refuses a damaged ledger (%s) with a clear message, exit 1, and leaves the file as it was', async (_, damage, what) => {
    const dir = tempDir();
    const env = userEnv(dir);
    const ledger = join(dir, 'ledger.db');
    // A real ledger, closed so that everything is in the main file, and a backup beside it.
    expect((await paybatch(['batch', 'list', '--ledger', ledger], { env })).exitCode).toBe(0);
    expect((await paybatch(['ledger', 'backup', '--ledger', ledger], { env })).exitCode).toBe(0);
    damage(ledger);
    const before = readFileSync(ledger);
    const r = await paybatch(['batch', 'list', '--ledger', ledger], { env });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: The ledger ${ledger} is not a usable paybatch ledger: ${what}`);
    expect(r.stderr).toMatch(/Restore a backup: move .* away and copy the newest backup, .*ledger\.backup-\d{8}T\d{6}Z\.db, in its place\./);
    expectExplained(r.stderr);
    expect(readFileSync(ledger).equals(before)).toBe(true);
  }, 60_000);

  it('ledger backup: a private, consistent copy while another process keeps writing; --json gives path and bytes', async () => {
    const dir = tempDir();
    const env = userEnv(dir);
    const ledger = join(dir, 'ledger.db');
    expect((await paybatch(['batch', 'list', '--ledger', ledger], { env })).exitCode).toBe(0);
    // A writer standing in for the daemon: one transaction after another, each adding a batch and its item.
    const writer = execa(process.execPath, ['--input-type=module', '-e', `
      import Sqlite from 'better-sqlite3';
      const db = new Sqlite(${JSON.stringify(ledger)});
      db.pragma('busy_timeout = 5000');
      const add = db.transaction((n) => {
        db.prepare("INSERT INTO batches (id, kind, name, remote_name, status, item_count, total_cents, created_at, updated_at) VALUES (?, 'sheet', 'b', ?, 'draft', 1, 100, 'x', 'x')").run(n, 'b [pb:' + n + ']');
        db.prepare("INSERT INTO items (batch_id, identifier, key, key_type, amount_cents, description, status, created_at, updated_at, status_changed_at) VALUES (?, ?, 'k', 'email', 100, 'd', 'resolved', 'x', 'x', 'x')").run(n, 'id-' + n);
      });
      for (let n = 1; ; n++) { add(n); if (n === 50) console.log('writing'); }
    `], { cwd: new URL('../../', import.meta.url), reject: false });
    await new Promise<void>((resolve) => writer.stdout!.once('data', () => resolve()));
    try {
      const r = await paybatch(['ledger', 'backup', '--ledger', ledger, '--json'], { env });
      expect(r.exitCode, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as { path: string; bytes: number };
      expect(Object.keys(doc).sort()).toEqual(['bytes', 'path']);
      expect(doc.path).toMatch(new RegExp(`^${dir}/ledger\\.backup-\\d{8}T\\d{6}Z(-\\d+)?\\.db$`));
      expect(doc.bytes).toBe(statSync(doc.path).size);
      expect(mode(doc.path)).toBe(0o600);
      const copy = new Sqlite(doc.path, { readonly: true });
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const { batches, items } = copy.prepare('SELECT (SELECT count(*) FROM batches) AS batches, (SELECT count(*) FROM items) AS items').get() as { batches: number; items: number };
      expect(batches).toBeGreaterThanOrEqual(50);
      expect(items).toBe(batches); // never a batch without the item its transaction added
      copy.close();
      const check = await paybatch(['ledger', 'check', '--ledger', doc.path, '--json'], { env });
      expect(check.exitCode, check.stdout).toBe(0);
      const named = await paybatch(['ledger', 'backup', '--ledger', ledger, '--to', join(dir, 'copy.db')], { env });
      expect(named.exitCode).toBe(0);
      expect(named.stdout).toContain(`Backed up ${ledger} to ${join(dir, 'copy.db')}`);
      const again = await paybatch(['ledger', 'backup', '--ledger', ledger, '--to', join(dir, 'copy.db')], { env });
      expect(again.exitCode).toBe(1);
      expect(again.stderr).toContain('already exists; a backup never overwrites a file');
      expectExplained(again.stderr);
    } finally {
      writer.kill();
      await writer;
    }
  }, 60_000);

  it('ledger --help lists backup and check with examples', async () => {
    const r = await paybatch(['ledger', 'check', '--help'], { env: userEnv(tempDir()) });
    expect(r.stdout).toContain('paybatch ledger check --json');
    const b = await paybatch(['ledger', 'backup', '--help'], { env: userEnv(tempDir()) });
    expect(b.stdout).toContain('paybatch ledger backup --to');
  });
});

describe('paybatch import and the files it writes (end to end)', () => {
  it('the same sheet imported by two processes at once: one imports, the other says so clearly; the ledger stays whole', async () => {
    for (let round = 0; round < 3; round++) {
      const dir = tempDir();
      const env = userEnv(dir);
      const sheet = join(FIXTURES, 'pagamentos-exemplo.csv');
      const runs = await Promise.all([0, 1].map(() => paybatch(['import', sheet, '--yes', '--json'], { env })));
      const docs = runs.map((r) => JSON.parse(r.stdout) as { outcome?: string; ok?: boolean; error?: { message: string; hint: string } });
      const imported = runs.filter((_, i) => docs[i]!.outcome === 'imported');
      expect(imported, runs.map((r) => r.stderr).join('\n')).toHaveLength(1);
      const other = runs.find((_, i) => docs[i]!.outcome !== 'imported')!;
      expectExplained(other.stderr);
      expect(other.stderr).not.toContain('UNIQUE constraint');
      expect(other.stderr).not.toContain('paid in the last 30 days');
      if (other.exitCode === 0) {
        // It started only after the first one had finished: it found that import instead.
        expect(JSON.parse(other.stdout).outcome).toBe('already-imported');
      } else {
        expect(other.exitCode).toBe(1);
        expect(other.stderr).toMatch(
          /error: .*pagamentos-exemplo\.csv is being imported right now by another paybatch run \(pid \d+ on .+, since \d{4}-\d\d-\d\dT[\d:.]+Z(, still planning|; import #1, batch #1)\); this run changed nothing\./,
        );
        expect(other.stderr).toContain('Wait for that run to finish, then run the same command again');
      }
      const list = await paybatch(['batch', 'list', '--json'], { env });
      expect(JSON.parse(list.stdout)).toMatchObject([{ id: 1, items: 300 }]);
      const check = await paybatch(['ledger', 'check', '--json'], { env });
      expect(check.exitCode, check.stdout).toBe(0);
      const raw = new Sqlite(join(dir, 'data', 'paybatch', 'ledger.db'), { readonly: true });
      expect(raw.prepare('SELECT (SELECT count(*) FROM imports) || \'/\' || (SELECT count(*) FROM items) || \'/\' || (SELECT count(*) FROM import_claims)').pluck().get()).toBe('1/300/0');
      raw.close();
    }
  }, 120_000);

  it('a second run that starts while the first is under way is told which import is in progress', async () => {
    const dir = tempDir();
    const env = userEnv(dir);
    // Large enough that its key lookups (seconds) outlast the second run's start; the claim is taken before them.
    const sheet = writeSheet(join(dir, 'folha.csv'), 2000);
    const first = paybatch(['import', sheet, '--yes', '--json'], { env, timeout: 120_000 });
    // The embedded sandbox's notice comes after the first run has claimed the sheet, before its key lookups.
    await new Promise<void>((resolve) => first.stderr!.on('data', (b: Buffer) => b.toString().includes('SANDBOX') && resolve()));
    const second = await paybatch(['import', sheet, '--yes', '--allow-duplicates'], { env });
    expect((await first).exitCode).toBe(0);
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`is being imported right now by another paybatch run \\(pid ${first.pid} on `));
    expectExplained(second.stderr);
    // Once it is done, the same command finds the import.
    const third = await paybatch(['import', sheet, '--yes', '--json'], { env });
    expect(JSON.parse(third.stdout)).toMatchObject({ outcome: 'already-imported', importId: 1 });
  }, 150_000);

  it('--skip-invalid writes the rejected rows privately, with formula cells neutralised', async () => {
    const dir = tempDir();
    const sheet = join(dir, 'folha.csv');
    writeFileSync(
      sheet,
      [
        'chave;valor;descricao;nome',
        'ana.souza@exemplo.com.br;10,00;ok;Ana Souza',
        'bia@exemplo.com.br;-10,00;"=HYPERLINK(""http://evil.example"";""x"")";Bia',
        '+cmd|x!A0;5,00;@SUM(1+1);=1+2',
        '',
      ].join('\r\n'),
    );
    const r = await paybatch(['import', sheet, '--yes', '--skip-invalid', '--json'], { env: userEnv(dir) });
    expect(r.exitCode, r.stderr).toBe(0);
    const rejected = join(dir, 'folha.rejected.csv');
    expect(JSON.parse(r.stdout).rejectedFile).toBe(rejected);
    expect(mode(rejected)).toBe(0o600);
    expect(mode(join(dir, 'data', 'paybatch', 'ledger.db'))).toBe(0o600);
    expect(mode(join(dir, 'data', 'paybatch'))).toBe(0o700);
    const rows: string[][] = parse(readFileSync(rejected, 'utf8').replace(/^\uFEFF/, ''), { delimiter: ';' });
    expect(rows.map((row) => row.slice(0, 4))).toEqual([
      ['chave', 'valor', 'descricao', 'nome'],
      ['bia@exemplo.com.br', "'-10,00", `'=HYPERLINK("http://evil.example";"x")`, 'Bia'],
      ["'+cmd|x!A0", '5,00', "'@SUM(1+1)", "'=1+2"],
    ]);
  }, 60_000);
});
