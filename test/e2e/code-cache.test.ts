import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paybatch, userEnv } from '../helpers/e2e.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const CPF = '529.982.247-25';

/** A user whose cache folder is XDG_CACHE_HOME=<home>/cache, and where the bundle's code caches land in it. */
function user() {
  const home = tempDir();
  const env = userEnv(home, { XDG_CACHE_HOME: join(home, 'cache') });
  const folder = join(home, 'cache', 'paybatch', 'code', `${process.versions.node}-${process.arch}`);
  const entries = () => (existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.v8')).sort() : []);
  const contributed = () => readFileSync(join(folder, 'contributed'), 'utf8').split('\n').filter(Boolean).sort();
  const keys = async () => {
    const r = await paybatch(['keys', 'check', CPF, '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject([{ input: CPF, valid: true, type: 'cpf', normalized: '52998224725' }]);
  };
  return { env, folder, entries, contributed, keys };
}

describe("the bundle's code caches (end to end)", { timeout: 60_000 }, () => {
  it("are made after a command's first run, privately, named for their file, and read by the next run unchanged", async () => {
    const u = user();
    await u.keys();
    const made = u.entries();
    // main.cjs and the keys command's chunks, each named after its file's size, inode and change time.
    expect(made.some((e) => /^main\.cjs\.\d+\.\d+\.\d+\.v8$/.test(e))).toBe(true);
    expect(made.length).toBeGreaterThan(1);
    expect(statSync(u.folder).mode & 0o777).toBe(0o700);
    for (const e of made) expect(statSync(join(u.folder, e)).mode & 0o777).toBe(0o600);
    expect(u.contributed()).toEqual(made.map((e) => `${e} keys check`).sort());

    const written = made.map((e) => statSync(join(u.folder, e)).mtimeMs);
    await u.keys();
    expect(u.entries()).toEqual(made);
    expect(made.map((e) => statSync(join(u.folder, e)).mtimeMs)).toEqual(written);
  });

  it("are made again when another command first uses a file, and a damaged one is replaced, the command's answer the same", async () => {
    const u = user();
    await u.keys();
    const main = u.entries().find((e) => e.startsWith('main.cjs.'))!;
    const version = await paybatch(['--version'], { env: u.env });
    expect(version.exitCode, version.stderr).toBe(0);
    // --version uses main.cjs only: its entry is made again (holding both commands' code), the others left.
    expect(u.contributed()).toContain(`${main} `);

    writeFileSync(join(u.folder, main), 'not compiled code');
    await u.keys();
    const again = readFileSync(join(u.folder, main));
    expect(again.length).toBeGreaterThan(1000);
    expect(again.toString('latin1')).not.toContain('not compiled code');
  });

  it('forgets the entries of files no longer in the bundle', async () => {
    const u = user();
    await u.keys();
    const stale = 'chunk-OLDBUILD.cjs.100.1.1.v8';
    writeFileSync(join(u.folder, stale), 'old', { mode: 0o600 });
    // A command that owes a cache (its first run) writes it, and the stale entry goes.
    expect((await paybatch(['--version'], { env: u.env })).exitCode).toBe(0);
    expect(u.entries()).not.toContain(stale);
  });

  it('are not used from a folder others may write in, nor from a relative XDG_CACHE_HOME, nor with NODE_DISABLE_COMPILE_CACHE=1', async () => {
    const shared = user();
    await shared.keys();
    const before = shared.entries();
    chmodSync(shared.folder, 0o777);
    writeFileSync(join(shared.folder, 'contributed'), '');
    await shared.keys();
    // Nothing read or written: the contributions stay empty and the folder is left as it is.
    expect(readFileSync(join(shared.folder, 'contributed'), 'utf8')).toBe('');
    expect(shared.entries()).toEqual(before);
    expect(statSync(shared.folder).mode & 0o777).toBe(0o777);

    // A relative XDG_CACHE_HOME is not a cache folder: ~/.cache is used, nothing lands where the command runs.
    const relative = user();
    const home = relative.env.HOME!;
    const cwd = join(home, 'work');
    mkdirSync(cwd);
    expect((await paybatch(['--version'], { env: { ...relative.env, XDG_CACHE_HOME: 'cache' }, cwd })).exitCode).toBe(0);
    expect(readdirSync(cwd)).toEqual([]);
    expect(readdirSync(join(home, '.cache', 'paybatch', 'code', `${process.versions.node}-${process.arch}`)).some((f) => f.startsWith('main.cjs.'))).toBe(true);

    const off = user();
    const r = await paybatch(['keys', 'check', CPF], { env: { ...off.env, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(existsSync(join(off.env.XDG_CACHE_HOME!, 'paybatch'))).toBe(false);
  });
});
