import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, paybatch, userEnv } from '../helpers/e2e.js';
import { inTerminal } from '../helpers/terminal.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();

describe('paybatch on a real terminal (pseudo-terminal)', () => {
  it('config init asks for the profile and every setting, hides secrets as they are typed, and writes a 0600 profile', async () => {
    const dir = tempDir();
    const env = userEnv(dir, { PATH: process.env.PATH ?? '' });
    const r = await inTerminal(['config', 'init'], env, [
      ['Profile name', ''],
      ['baseUrl —', 'https://api.provider.example'],
      ['tokenUrl —', 'https://auth.provider.example/oauth/token'],
      ['clientId —', 'acme-ltda'],
      ['webhookVerification —', 'hmac'],
      ['pixAmountUnit —', ''],
      ['maxItemAmount —', '10.000,00'],
      ['maxBatchTotal —', ''],
      ['receiptsDir —', ''],
      ['apiKey —', 'api-key-typed-at-the-prompt'],
      ['clientSecret —', 'client-secret-typed-at-the-prompt'],
      ['webhookSecret —', ''],
    ]);
    expect(r.answered, r.output).toBe(12);
    expect(r.code, r.output).toBe(0);
    expect(r.output).not.toContain('typed-at-the-prompt');
    expect(r.output).toContain('apiKey = ********');
    const file = join(dir, 'config', 'paybatch', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default).toEqual({
      baseUrl: 'https://api.provider.example',
      tokenUrl: 'https://auth.provider.example/oauth/token',
      clientId: 'acme-ltda',
      webhookVerification: 'hmac',
      maxItemAmount: 1_000_000,
      apiKey: 'api-key-typed-at-the-prompt',
      clientSecret: 'client-secret-typed-at-the-prompt',
    });
  });

  it('config init re-asks a value that breaks its rule, saying why', async () => {
    const dir = tempDir();
    const env = userEnv(dir);
    const r = await inTerminal(['--profile', 'default', 'config', 'init', '--sandbox'], env, [
      ['pixAmountUnit —', 'dollars'],
      // The rejected text stays in the field: erase it (7 backspaces) before typing the right one.
      ['must be one of cents, reais', `${'\u007f'.repeat(7)}reais`],
      ['maxItemAmount —', ''],
      ['maxBatchTotal —', ''],
      ['receiptsDir —', ''],
    ]);
    expect(r.code, r.output).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config', 'paybatch', 'config.json'), 'utf8')).profiles.default).toEqual({ pixAmountUnit: 'reais' });
  });

  it('Ctrl-C at the import confirmation cancels and leaves nothing behind', async () => {
    const dir = tempDir();
    const env = userEnv(dir);
    const r = await inTerminal(['import', join(FIXTURES, 'payments-en.csv')], env, [['paying 6 people', '\u0003']]);
    expect(r.answered).toBe(1);
    expect(r.code).toBe(1);
    expect(r.output).toContain('Cancelled; nothing was changed.');
    expect(r.output).not.toContain('unexpected');
    const list = await paybatch(['batch', 'list', '--json'], { env });
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('in Portuguese the confirmation takes s: the batch is created; anything but s/sim/n/não is asked again', async () => {
    const dir = tempDir();
    const env = userEnv(dir, { LC_ALL: 'pt_BR.UTF-8' });
    const r = await inTerminal(['import', join(FIXTURES, 'payments-en.csv')], env, [
      ['(s/N)', 'talvez'],
      ['Responda s (sim) ou n (não).', `${'\u007f'.repeat(6)}s`],
    ]);
    expect(r.answered).toBe(2);
    expect(r.code, r.output).toBe(0);
    const list = await paybatch(['batch', 'list', '--json'], { env });
    expect((JSON.parse(list.stdout) as unknown[]).length).toBe(1);
  });

  it('in English s is no answer, and n cancels', async () => {
    const dir = tempDir();
    const env = userEnv(dir);
    const r = await inTerminal(['import', join(FIXTURES, 'payments-en.csv')], env, [
      ['(y/N)', 's'],
      ['Answer y (yes) or n (no).', `${'\u007f'}n`],
    ]);
    expect(r.code).toBe(1);
    expect(r.output).toContain('Cancelled; nothing was changed.');
    const list = await paybatch(['batch', 'list', '--json'], { env });
    expect(JSON.parse(list.stdout)).toEqual([]);
  });
});
