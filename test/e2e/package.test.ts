import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

/**
 * npm's own script, so that npm runs on the Node under test (the one running these tests): it checks engines
 * against that Node, as it would on a user's machine. Under `npm test` npm says where it is; otherwise it is the
 * `npm` on the PATH.
 */
const NPM_CLI = process.env.npm_execpath ?? realpathSync(execFileSync('which', ['npm'], { encoding: 'utf8' }).trim());

describe('the packed tarball, installed as users install it', () => {
  const tempDir = useTempDir();

  it(`installs globally with npm on Node ${process.versions.node} and its paybatch runs the demo, the daemon and the dashboard`, async () => {
    const dir = tempDir();
    const prefix = join(dir, 'prefix');
    // Whatever runs `node` for npm and for the installed paybatch's shebang is the Node under test; nothing of the
    // npm that runs these tests (its npm_* variables name this checkout) reaches the user's npm.
    const inherited = Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k));
    const env = { ...Object.fromEntries(inherited), PATH: [dirname(process.execPath), process.env.PATH].join(delimiter), LC_ALL: 'en_US.UTF-8', NO_COLOR: '1', XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), XDG_CACHE_HOME: join(dir, 'cache'), TMPDIR: join(dir, 'tmp') };
    // The demo's folder (made under the system's temporary one) and the code caches stay inside the test's folder.
    mkdirSync(env.TMPDIR);

    // dist/ is what `npm test` just built; pack takes it as it is (no second build under running tests).
    const pack = await execa(process.execPath, [NPM_CLI, 'pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, env });
    const [packed] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
    const shipped = packed!.files.map((f) => f.path);
    expect(shipped).toEqual(expect.arrayContaining(['bin/paybatch.js', 'bin/bundle-loader.js', 'bin/package.json', 'dist/bundle/main.cjs', 'migrations/0001_ledger.sql', 'migrations/postgres/0001_ledger.sql', 'fixtures/pagamentos-exemplo.csv', 'src/ui/assets/index.html']));
    expect(shipped.filter((f) => f.startsWith('test/') || (f.startsWith('src/') && !f.startsWith('src/ui/assets/')))).toEqual([]);

    const install = await execa(process.execPath, [NPM_CLI, 'install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(dir, packed!.filename)], { cwd: dir, env, reject: false, all: true });
    expect(install.exitCode, install.all).toBe(0);
    expect(install.all, 'no installed package refuses this Node').not.toMatch(/EBADENGINE/);
    const bin = join(prefix, 'bin', 'paybatch');
    expect(existsSync(bin)).toBe(true);

    const installed = await execa(bin, ['--version'], { env, cwd: dir });
    expect(installed.stdout.trim()).toBe(version);

    // The demo: a sheet shipped in the package, paid on the embedded sandbox, followed to the end.
    const demo = await execa(bin, ['demo', '--json'], { env, cwd: dir, reject: false, timeout: 120_000 });
    expect(demo.exitCode, demo.stderr.slice(-3000)).toBe(0);
    expect(demo.stderr).not.toMatch(/Assertion failed|Aborted|ERR_/);
    const outcome = JSON.parse(demo.stdout) as { folder: string; rows: number; paid: number; failed: number; returnedFinal: number; open: number; receiptsDir: string };
    expect(outcome.rows).toBe(300);
    expect(outcome.open).toBe(0);
    expect(outcome.paid + outcome.failed + outcome.returnedFinal).toBe(300);
    expect(outcome.paid).toBeGreaterThan(250);
    expect(readdirSync(outcome.receiptsDir, { recursive: true }).filter((f) => String(f).endsWith('.pdf')).length).toBeGreaterThanOrEqual(outcome.paid);

    // The daemon over the demo's ledger (the migrations shipped in the package), then the ledger checked whole.
    const ledger = join(outcome.folder, 'ledger.db');
    const daemon = await execa(bin, ['--ledger', ledger, 'daemon', '--once', '--log-format', 'json'], { env, cwd: dir, reject: false, timeout: 60_000 });
    expect(daemon.exitCode, daemon.stderr.slice(-3000)).toBe(4); // the demo's two failed payments stay an open alert
    expect(daemon.stderr).toMatch(/"msg":"pass done"/);
    const check = await execa(bin, ['--ledger', ledger, 'ledger', 'check', '--json'], { env, cwd: dir, reject: false });
    expect(JSON.parse(check.stdout)).toMatchObject({ clean: true, paidTwice: [] });

    // The dashboard serves its page and assets from the package.
    const ui = execa(bin, ['--ledger', ledger, 'ui', '--listen', '127.0.0.1:0', '--json'], { env, cwd: dir, reject: false, buffer: false });
    try {
      const { url } = await new Promise<{ url: string }>((resolve, reject) => {
        let text = '';
        ui.stdout!.on('data', (b: Buffer) => {
          text += b.toString();
          try {
            resolve(JSON.parse(text) as { url: string });
          } catch {
            // not complete yet
          }
        });
        void ui.then((r) => reject(new Error(`paybatch ui exited ${r.exitCode}`)));
      });
      const signIn = await fetch(url, { redirect: 'manual' });
      expect(signIn.status).toBe(303);
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
      const page = await fetch(new URL('/', url), { headers: { cookie } });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toMatch(/<html/i);
      const script = /src="([^"]*app\.js[^"]*)"/.exec(html)?.[1];
      expect(script, 'the page loads its script').toBeDefined();
      const asset = await fetch(new URL(script!, url), { headers: { cookie } });
      expect(asset.status).toBe(200);
      expect(await asset.text()).toBe(readFileSync(join(ROOT, 'src/ui/assets/app.js'), 'utf8'));
    } finally {
      ui.kill('SIGTERM');
      await ui;
    }
  }, 300_000);
});
