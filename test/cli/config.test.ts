import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { runCli, testIO } from '../helpers/test-io.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const envOf = (dir: string, extra: Record<string, string> = {}) => ({ XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir, ...extra });

/** Runs the CLI with `input` piped on standard input (not a terminal). */
async function withStdin(argv: string[], env: Record<string, string>, input: string) {
  const io = testIO({ env });
  const stdin = new PassThrough();
  stdin.end(input);
  const code = await main(argv, { io: { ...io, stdin } });
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

describe('paybatch config', () => {
  it('writes profiles with mode 0600 and shows settings with their sources, secrets masked', async () => {
    const dir = tempDir();
    const env = envOf(dir);
    expect((await runCli(['config', 'init', '--base-url', 'https://api.example.com', '--token-url', 'https://auth.example.com/token', '--client-id', 'acme', '--max-item-amount', '10.000,00'], { env })).code).toBe(0);
    const set = await withStdin(['config', 'set', 'apiKey'], env, 'k-123-very-secret\n');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).not.toContain('k-123-very-secret');
    const file = join(dir, 'config', 'paybatch', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toMatchObject({ baseUrl: 'https://api.example.com', maxItemAmount: 1_000_000, apiKey: 'k-123-very-secret' });

    const show = await runCli(['config', 'show', '--json'], { env: { ...env, PAYBATCH_CLIENT_SECRET: 'env-secret-456', PAYBATCH_MAX_BATCH_TOTAL: '2.000,00' } });
    expect(show.code).toBe(0);
    expect(show.stdout).not.toContain('k-123-very-secret');
    expect(show.stdout).not.toContain('env-secret-456');
    const doc = JSON.parse(show.stdout);
    const byName = Object.fromEntries(doc.settings.map((s: { name: string }) => [s.name, s]));
    expect(byName.apiKey).toMatchObject({ value: '********', source: 'file', env: 'PAYBATCH_API_KEY' });
    expect(byName.clientSecret).toMatchObject({ value: '********', source: 'env' });
    expect(byName.maxItemAmount).toMatchObject({ value: 'R$ 10.000,00', source: 'file' });
    expect(byName.maxBatchTotal).toMatchObject({ value: 'R$ 2.000,00', source: 'env' });
    expect(doc.embeddedSandbox).toBe(false);
  });

  it('never takes a secret from the command line', async () => {
    const dir = tempDir();
    const r = await runCli(['config', 'set', 'clientSecret', 'oops-in-history'], { env: envOf(dir) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('never taken from the command line');
    expect(r.stderr).not.toContain('oops-in-history');
  });

  it('refuses a config file others can read, and bad values with the setting named', async () => {
    const dir = tempDir();
    const env = envOf(dir);
    await runCli(['config', 'set', 'pixAmountUnit', 'reais'], { env });
    const file = join(dir, 'config', 'paybatch', 'config.json');
    chmodSync(file, 0o644);
    const r = await runCli(['config', 'show'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`chmod 600 ${file}`);
    chmodSync(file, 0o600);
    const bad = await runCli(['config', 'set', 'pixAmountUnit', 'dollars'], { env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('pixAmountUnit: must be one of cents, reais');
    const badEnv = await runCli(['config', 'show'], { env: { ...env, PAYBATCH_STALE_AFTER: 'soon' } });
    expect(badEnv.stderr).toContain('PAYBATCH_STALE_AFTER');
  });

  it('reads secrets from PAYBATCH_*_FILE (systemd credentials)', async () => {
    const dir = tempDir();
    const secretFile = join(dir, 'api-key');
    writeFileSync(secretFile, 'from-a-file\n');
    const r = await runCli(['config', 'show', '--json'], { env: envOf(dir, { PAYBATCH_API_KEY_FILE: secretFile }) });
    const apiKey = JSON.parse(r.stdout).settings.find((s: { name: string }) => s.name === 'apiKey');
    expect(apiKey).toMatchObject({ value: '********', source: 'env' });
    expect(r.stdout).not.toContain('from-a-file');
  });

  it('names the profiles it knows when asked for one that does not exist', async () => {
    const dir = tempDir();
    const env = envOf(dir);
    await runCli(['--profile', 'prod', 'config', 'set', 'baseUrl', 'https://api.example.com'], { env });
    const r = await runCli(['--profile', 'staging', 'batch', 'list'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('There is no profile "staging"');
    expect(r.stderr).toContain('Known profiles: prod');
  });
});
