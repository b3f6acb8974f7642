import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Prompter } from '../../src/cli/prompter.js';
import { runCli } from '../helpers/test-io.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const envOf = (dir: string) => ({ XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir });
const storedProfiles = (dir: string) => JSON.parse(readFileSync(join(dir, 'config', 'paybatch', 'config.json'), 'utf8')).profiles;

interface Question {
  readonly message: string;
  readonly default?: string;
}

/** Answers each question whose message starts with a key of `answers` (unlisted: Enter, i.e. the default) and records them. */
function scripted(answers: Record<string, string>): Prompter & { asked: Question[] } {
  const asked: Question[] = [];
  const answer = (message: string, fallback = '') => {
    const key = Object.keys(answers).find((k) => message.startsWith(k));
    return key === undefined ? fallback : answers[key]!;
  };
  return {
    asked,
    confirm: () => Promise.reject(new Error('not expected')),
    select: () => Promise.reject(new Error('not expected')),
    input: async (message, o) => {
      asked.push({ message, ...(o?.default === undefined ? {} : { default: o.default }) });
      const a = answer(message, o?.default ?? '');
      const valid = o?.validate?.(a) ?? true;
      if (valid !== true) throw new Error(`the answer "${a}" to "${message}" was refused: ${valid}`);
      return a;
    },
    password: async (message) => (asked.push({ message }), answer(message)),
  };
}

describe('paybatch config init', () => {
  it('asks the profile name, then each setting with its default, webhookVerification included', async () => {
    const dir = tempDir();
    const prompter = scripted({ 'Profile name': 'prod', baseUrl: 'https://api.provider.example', tokenUrl: 'https://auth.provider.example/token', clientId: 'acme', webhookVerification: 'hmac', apiKey: 'k-secret-1' });
    const r = await runCli(['config', 'init'], { tty: true, env: envOf(dir), prompter });
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked[0]).toEqual({ message: 'Profile name (each profile has its own settings and ledger)', default: 'default' });
    expect(prompter.asked.map((q) => q.message.split(' ')[0])).toEqual([
      'Profile', 'baseUrl', 'tokenUrl', 'clientId', 'webhookVerification', 'pixAmountUnit', 'maxItemAmount', 'maxBatchTotal', 'receiptsDir', 'apiKey', 'clientSecret', 'webhookSecret',
    ]);
    expect(prompter.asked.find((q) => q.message.startsWith('maxItemAmount'))).toMatchObject({ default: 'R$ 50.000,00' });
    expect(prompter.asked.find((q) => q.message.startsWith('maxItemAmount'))!.message).toContain('(default R$ 50.000,00; Enter keeps it)');
    expect(prompter.asked.find((q) => q.message.startsWith('baseUrl'))!.message).toContain('(empty to skip)');
    // Defaults kept with Enter are not written: the profile follows the default if it changes.
    expect(storedProfiles(dir)).toEqual({
      prod: { baseUrl: 'https://api.provider.example', tokenUrl: 'https://auth.provider.example/token', clientId: 'acme', webhookVerification: 'hmac', apiKey: 'k-secret-1' },
    });
    expect(r.stdout).not.toContain('No base URL');
    expect(r.stdout).not.toContain('k-secret-1');
  });

  it('asks in Portuguese under pt-BR, and says why it refuses an answer in Portuguese too', async () => {
    const dir = tempDir();
    const prompter = scripted({ 'Nome do perfil': 'prod', baseUrl: 'https://api.provider.example', pixAmountUnit: 'euros' });
    const r = await runCli(['config', 'init'], { tty: true, env: { ...envOf(dir), LC_ALL: 'pt_BR.UTF-8' }, prompter });
    expect(r.code).not.toBe(0);
    expect(prompter.asked[0]).toEqual({ message: 'Nome do perfil (cada perfil tem suas configurações e seu registro)', default: 'default' });
    expect(prompter.asked.find((q) => q.message.startsWith('tokenUrl'))!.message).toBe('tokenUrl — URL de token OAuth 2.0 (client credentials) (vazio para pular)');
    expect(prompter.asked.find((q) => q.message.startsWith('webhookVerification'))!.message).toMatch(/^webhookVerification — como as entregas provam o segredo: .* \(padrão auto; Enter mantém\)$/);
    // The scripted prompter throws the refusal it is given: the setting's rule, in Portuguese.
    expect(r.stderr).toContain('the answer "euros" to "pixAmountUnit — unidade dos valores Pix na API');
    expect(r.stderr).toContain('was refused: Deve ser um destes: cents, reais');
  });

  it('shows current values, keeps them on Enter, and does not call a profile with a base URL a sandbox', async () => {
    const dir = tempDir();
    const env = envOf(dir);
    expect((await runCli(['--profile', 'prod', 'config', 'init', '--base-url', 'https://api.provider.example', '--max-item-amount', '10.000,00'], { env })).code).toBe(0);
    const prompter = scripted({ maxBatchTotal: '200.000,00' });
    const r = await runCli(['--profile', 'prod', 'config', 'init'], { tty: true, env, prompter });
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked.some((q) => q.message.startsWith('Profile name'))).toBe(false);
    expect(prompter.asked.find((q) => q.message.startsWith('baseUrl'))).toMatchObject({ default: 'https://api.provider.example' });
    expect(prompter.asked.find((q) => q.message.startsWith('baseUrl'))!.message).toContain('(now https://api.provider.example; Enter keeps it)');
    expect(prompter.asked.find((q) => q.message.startsWith('maxItemAmount'))).toMatchObject({ default: 'R$ 10.000,00' });
    expect(prompter.asked.find((q) => q.message.startsWith('apiKey'))!.message).toContain('(empty to skip)');
    expect(storedProfiles(dir).prod).toEqual({ baseUrl: 'https://api.provider.example', maxItemAmount: 1_000_000, maxBatchTotal: 20_000_000 });
    expect(r.stdout).toContain('maxBatchTotal = R$ 200.000,00');
    expect(r.stdout).not.toContain('No base URL');

    const again = await runCli(['--profile', 'prod', 'config', 'init'], { env });
    expect(again.stdout).toContain('Nothing changed.');
    expect(again.stdout).not.toContain('SANDBOX');
  });

  it('--sandbox removes the connection settings and says the sandbox is used; --json says so too', async () => {
    const dir = tempDir();
    const env = envOf(dir);
    await runCli(['config', 'init', '--base-url', 'https://api.provider.example', '--client-id', 'acme', '--webhook-verification', 'bearer'], { env });
    const r = await runCli(['config', 'init', '--sandbox', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ profile: 'default', set: [], removed: ['baseUrl', 'clientId', 'webhookVerification'], embeddedSandbox: true });
    expect(storedProfiles(dir).default).toEqual({});
    const human = await runCli(['config', 'init', '--sandbox'], { env });
    expect(human.stdout).toContain('No base URL: this profile uses the embedded SANDBOX.');
  });

  it('refuses a webhookVerification it does not know, naming the setting', async () => {
    const r = await runCli(['config', 'init', '--webhook-verification', 'carrier-pigeon'], { env: envOf(tempDir()) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('webhookVerification:');
  });
});

describe('the alertEmailFrom setting', () => {
  it('takes an address, with or without a name, and reaches the e-mail channel with the locale', async () => {
    const dir = tempDir();
    const env = envOf(dir);
    const ok = await runCli(['config', 'set', 'alertEmailFrom', 'Pagamentos <pagamentos@empresa.com.br>'], { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(storedProfiles(dir).default).toEqual({ alertEmailFrom: 'Pagamentos <pagamentos@empresa.com.br>' });
    const bad = await runCli(['config', 'set', 'alertEmailFrom', 'pagamentos'], { env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('alertEmailFrom: must be an e-mail address');

    const { alertChannelsOf } = await import('../../src/cli/daemon-deps.js');
    const { DEFAULT_SETTINGS } = await import('../../src/config/settings.js');
    const channels = alertChannelsOf({ ...DEFAULT_SETTINGS, alertEmailFrom: 'pagamentos@empresa.com.br', locale: 'pt-BR' }, {});
    expect(channels).toMatchObject({ emailFrom: 'pagamentos@empresa.com.br', locale: 'pt-BR' });
    expect(alertChannelsOf(DEFAULT_SETTINGS, { LC_ALL: 'en_US.UTF-8' })).toMatchObject({ emailFrom: undefined, locale: 'en' });
  });
});
