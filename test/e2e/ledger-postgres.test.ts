import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paybatch, userEnv } from '../helpers/e2e.js';
import { usePostgresDatabases } from '../helpers/postgres.js';
import { writeSheet } from '../helpers/sheets.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/wait-for.js';

const tempDir = useTempDir();
const freshDatabase = usePostgresDatabases();

interface CopyDoc {
  from: string;
  to: string;
  tables: { table: string; rows: number; cents?: Record<string, number> }[];
}

// Moving a company from the embedded SQLite ledger to a shared PostgreSQL one, through the commands a person runs.
describe('paybatch ledger migrate | copy | check on PostgreSQL (end to end)', () => {
  it('copies a ledger that paid a sheet into PostgreSQL, verified, where the same commands go on', async () => {
    const dir = tempDir();
    const sqliteEnv: Record<string, string> = { ...userEnv(dir, { PAYBATCH_SANDBOX_SPEED: '600', LC_ALL: 'en_US.UTF-8' }) };
    delete sqliteEnv.PAYBATCH_LEDGER; // this user starts on the SQLite file, whatever the test run's backend
    const sqliteFile = join(dir, 'data', 'paybatch', 'ledger.db');
    const sheet = writeSheet(join(dir, 'folha.csv'), 8);
    expect((await paybatch(['import', sheet, '--start', '--yes'], { env: sqliteEnv })).exitCode).toBe(0);
    const settled = await paybatch(['daemon', '--listen', '127.0.0.1:0', '--interval', '0.5', '--until-settled', '--timeout', '60s'], { env: sqliteEnv, timeout: 90_000 });
    expect([0, 4], settled.stderr.slice(-2000)).toContain(settled.exitCode);
    const before = JSON.parse((await paybatch(['batch', 'list', '--json'], { env: sqliteEnv })).stdout) as { id: number; totalCents: number; status: string }[];

    const url = await freshDatabase();
    // Without --to, into the profile's ledger setting (here PAYBATCH_LEDGER): the URL stays off the command line.
    const copy = await paybatch(['ledger', 'copy', '--from', sqliteFile, '--json'], { env: { ...sqliteEnv, PAYBATCH_LEDGER: url } });
    expect(copy.exitCode, copy.stderr).toBe(0);
    const doc = JSON.parse(copy.stdout) as CopyDoc;
    expect(copy.stdout).not.toContain(':paybatch-test@'); // the server's password
    expect(doc.to).toMatch(/^postgres:\/\/paybatch:\*\*\*@/);
    const items = doc.tables.find((t) => t.table === 'items')!;
    expect(items.rows).toBe(8);
    // writeSheet's 8 rows: what the daemon paid, failed or returned adds up to the sheet's total, whatever the split.
    expect(Object.values(items.cents!).reduce((a, b) => a + b, 0)).toBe(before.reduce((a, b) => a + b.totalCents, 0));

    // The copy is the ledger now: the same batch, checked clean, up to date, and not copied into twice.
    const pgEnv = { ...sqliteEnv, PAYBATCH_LEDGER: url };
    const after = JSON.parse((await paybatch(['batch', 'list', '--json'], { env: pgEnv })).stdout) as typeof before;
    expect(after.map((b) => [b.id, b.totalCents, b.status])).toEqual(before.map((b) => [b.id, b.totalCents, b.status]));
    const check = await paybatch(['ledger', 'check', '--json'], { env: pgEnv });
    expect(check.exitCode, check.stdout).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ dialect: 'postgres', clean: true, paidTwice: [], batchMismatches: [] });
    const migrate = await paybatch(['ledger', 'migrate', '--json'], { env: pgEnv });
    expect(JSON.parse(migrate.stdout)).toMatchObject({ dialect: 'postgres', applied: [] });
    const again = await paybatch(['ledger', 'copy', '--from', sqliteFile, '--to', url], { env: sqliteEnv });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/is not empty: its table imports has 1 rows/);
    const missing = await paybatch(['batch', 'show', '999', '--json'], { env: pgEnv });
    expect(missing.exitCode).toBe(2);
    expect(JSON.parse(missing.stdout).error.message).toMatch(/^No batch "999" in the ledger postgres:\/\/paybatch:\*\*\*@/);
    expect(missing.stdout + missing.stderr).not.toContain(':paybatch-test@');
    const backup = await paybatch(['ledger', 'backup'], { env: pgEnv });
    expect(backup.exitCode).toBe(1);
    expect(backup.stderr).toMatch(/PostgreSQL database: back it up with PostgreSQL's own tools/);
  });

  it('refuses to copy a ledger a running daemon holds, unless --force, and copies it once the daemon stopped', async () => {
    const dir = tempDir();
    const env: Record<string, string> = { ...userEnv(dir), PAYBATCH_WEBHOOK_SECRET: 'x-secret' };
    delete env.PAYBATCH_LEDGER;
    const sqliteFile = join(dir, 'data', 'paybatch', 'ledger.db');
    expect((await paybatch(['import', writeSheet(join(dir, 'folha.csv'), 3), '--yes'], { env })).exitCode).toBe(0);
    const daemon = paybatch(['daemon', '--listen', '127.0.0.1:0', '--interval', '30', '--log-format', 'json'], { env, timeout: 90_000 });
    let log = '';
    daemon.stderr!.on('data', (b: Buffer) => (log += b.toString()));
    try {
      await waitFor(() => log.includes('"pass done"'), { what: 'the daemon to hold the ledger and run a pass' });
      const refused = await paybatch(['ledger', 'copy', '--from', sqliteFile, '--to', await freshDatabase(), '--json'], { env });
      expect(refused.exitCode, refused.stderr).toBe(1);
      expect(JSON.parse(refused.stdout).error.type).toBe('failed');
      // In the profile's language (English here, where the environment names none), --to given or not.
      const { LC_ALL: _lang, ...noLanguage } = env;
      const human = await paybatch(['ledger', 'copy', '--from', sqliteFile, '--to', await freshDatabase()], { env: { ...noLanguage, PAYBATCH_LOCALE: 'en' } });
      expect(human.stderr).toMatch(/^error: .* is held by a running daemon/);
      expect(JSON.parse(refused.stdout).error.message).toMatch(new RegExp(`is held by a running daemon \\(the daemon pid ${daemon.pid} on .+\\): whatever it writes once the copy has begun would be missing from the copy\\. Nothing was copied\\.$`));
      expect(refused.stderr).toContain('--force');
      const forced = await paybatch(['ledger', 'copy', '--from', sqliteFile, '--to', await freshDatabase(), '--force', '--json'], { env });
      expect(forced.exitCode, forced.stderr).toBe(0);
      expect((JSON.parse(forced.stdout) as CopyDoc).tables.find((t) => t.table === 'items')!.rows).toBe(3);
    } finally {
      daemon.kill('SIGTERM');
      await daemon;
    }
    const copied = await paybatch(['ledger', 'copy', '--from', sqliteFile, '--to', await freshDatabase(), '--json'], { env });
    expect(copied.exitCode, copied.stderr).toBe(0);
  });

  it('reads the URL from PAYBATCH_LEDGER_FILE and never shows its password', async () => {
    const dir = tempDir();
    const url = await freshDatabase();
    const file = join(dir, 'ledger-url');
    writeFileSync(file, `${url}\n`, { mode: 0o600 });
    const env: Record<string, string> = { ...userEnv(dir), PAYBATCH_LEDGER_FILE: file };
    delete env.PAYBATCH_LEDGER;
    const r = await paybatch(['ledger', 'migrate', '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ dialect: 'postgres', applied: expect.arrayContaining(['0001_ledger']) });
    expect(r.stdout + r.stderr).not.toContain(':paybatch-test@');
    const human = await paybatch(['ledger', 'migrate'], { env });
    expect(human.stdout).toMatch(/Ledger postgres:\/\/paybatch:\*\*\*@127\.0\.0\.1:\d+\/paybatch_\w+ is up to date \(\d+ migrations\)/);
  });

  it('refuses a mistyped URL instead of making an SQLite file named after it', async () => {
    const dir = tempDir();
    const r = await paybatch(['--ledger', 'postgress://someone:hunter2@db.internal/ledger', 'batch', 'list'], { env: userEnv(dir), cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('The ledger postgress://someone:***@db.internal/ledger is neither a file nor a PostgreSQL URL.');
    expect(r.stderr).not.toContain('hunter2');
    expect(existsSync(join(dir, 'postgress:'))).toBe(false);
  });

  it('says clearly when the PostgreSQL server cannot be reached', async () => {
    const env = { ...userEnv(tempDir()), PAYBATCH_LEDGER: 'postgres://someone:hunter2@127.0.0.1:1/ledger' };
    const r = await paybatch(['batch', 'list'], { env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/Could not reach the PostgreSQL ledger postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/ledger/);
    expect(r.stderr).not.toContain('hunter2');
    expect(r.stderr).not.toMatch(/a bug in paybatch/);
  });
});
