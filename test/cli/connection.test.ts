import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Prompter } from '../../src/cli/prompter.js';
import { issue, pkcs12, privateFile } from '../helpers/certificates.js';
import { runCli, testIO } from '../helpers/test-io.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const NOW = new Date('2026-11-27T12:00:00Z');
const DAY = 86_400_000;
const ca = issue('Banco Emissor CA', { now: NOW });

/** A profile pointing at a provider (nothing listens: these commands must not need it), in English. */
const envOf = (dir: string, extra: Record<string, string> = {}) => ({
  XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir, LC_ALL: 'en_US.UTF-8',
  PAYBATCH_BASE_URL: 'https://api.provedor.example', PAYBATCH_TOKEN_URL: 'https://auth.provedor.example/token',
  PAYBATCH_API_KEY: 'k', PAYBATCH_CLIENT_ID: 'c', PAYBATCH_CLIENT_SECRET: 's', ...extra,
});

/** A terminal prompter that answers the passphrase, recording what was asked. */
function passphrasePrompter(answer: string, asked: string[]): Prompter {
  return {
    confirm: async () => false,
    input: async () => '',
    password: async (message) => (asked.push(message), answer),
    select: async () => {
      throw new Error('no select expected');
    },
  };
}

describe('the connection settings at the edge', () => {
  it('config show asks a PKCS#12 passphrase on a terminal and tells the certificate and the proxy, its password masked', async () => {
    const dir = tempDir();
    const company = issue('EMPRESA LTDA:12345678000190', { by: ca, from: new Date('2026-06-01T00:00:00Z'), until: new Date('2027-06-01T00:00:00Z') });
    const pfx = privateFile(dir, 'empresa.p12', pkcs12(company, 'abre-te'));
    const env = envOf(dir, { PAYBATCH_CLIENT_PFX: pfx });
    const io = testIO({ env });
    const stdin = new PassThrough();
    stdin.end('http://financeiro:s3nh4@proxy.corp.example:3128\n');
    expect(await main(['config', 'set', 'proxy'], { io: { ...io, stdin } })).toBe(0);

    const asked: string[] = [];
    const show = await runCli(['config', 'show'], { env, tty: true, now: () => NOW, prompter: passphrasePrompter('abre-te', asked) });
    expect(show.code, show.stderr).toBe(0);
    expect(asked).toEqual([`Passphrase of ${pfx}`]);
    expect(show.stdout).toContain(`client certificate: CN=EMPRESA LTDA:12345678000190, issued by CN=Banco Emissor CA, valid 2026-06-01 to 2027-06-01 (185 days left; ${pfx})`);
    expect(show.stdout).toContain('proxy: http://proxy.corp.example:3128 (from proxy setting)');
    expect(show.stdout + show.stderr).not.toContain('s3nh4');

    const json = await runCli(['config', 'show', '--json'], { env: { ...env, PAYBATCH_CLIENT_PASSPHRASE: 'abre-te' }, now: () => NOW });
    const doc = JSON.parse(json.stdout) as { settings: { name: string; value: string }[]; connection: { certificate: { notAfter: string; daysLeft: number }; proxy: { url: string; source: string } } };
    expect(doc.settings.find((s) => s.name === 'proxy')?.value).toBe('http://financeiro:****@proxy.corp.example:3128');
    expect(doc.connection.certificate).toMatchObject({ notAfter: '2027-06-01T00:00:00.000Z', daysLeft: 185 });
    expect(doc.connection.proxy).toEqual({ url: 'http://proxy.corp.example:3128', source: 'proxy setting' });
    expect(json.stdout).not.toContain('s3nh4');
  });

  it('without a terminal or a passphrase, a command that calls the provider stops naming the variables; config show only warns', async () => {
    const dir = tempDir();
    const company = issue('EMPRESA', { by: ca, now: NOW });
    const env = envOf(dir, { PAYBATCH_CLIENT_PFX: privateFile(dir, 'empresa.p12', pkcs12(company, 'x')) });
    const check = await runCli(['provider', 'check', '--json'], { env, now: () => NOW });
    expect(check.code).toBe(1);
    const error = (JSON.parse(check.stdout) as { error: { type: string; message: string } }).error;
    expect(error.type).toBe('config_invalid');
    expect(error.message).toContain('PAYBATCH_CLIENT_PASSPHRASE_FILE');
    const show = await runCli(['config', 'show'], { env, now: () => NOW });
    expect(show.code).toBe(0);
    expect(show.stderr).toContain('there is no terminal to ask its passphrase on');
  });

  it('warns from 30 days before the certificate ends, in the run\'s language', async () => {
    const dir = tempDir();
    const company = issue('EMPRESA', { by: ca, from: new Date(NOW.getTime() - 300 * DAY), until: new Date('2026-12-07T15:00:00Z') });
    const env = envOf(dir, { PAYBATCH_CLIENT_CERT: privateFile(dir, 'c.pem', company.cert), PAYBATCH_CLIENT_KEY: privateFile(dir, 'c.key', company.key), LC_ALL: 'pt_BR.UTF-8' });
    const show = await runCli(['config', 'show'], { env, now: () => NOW });
    expect(show.stderr).toContain(`O certificado de cliente ${join(dir, 'c.pem')} (CN=EMPRESA) vence em 07/12/2026 12:00 (horário de São Paulo), daqui a 10 dias`);
  });

  it.each([
    ['socks5://proxy.corp:1080', 'is a socks5 proxy'],
    ['http://[broken', 'is not a URL'],
  ])('refuses HTTPS_PROXY=%s before any call', async (proxy, said) => {
    const dir = tempDir();
    const r = await runCli(['provider', 'check'], { env: envOf(dir, { HTTPS_PROXY: proxy }), now: () => NOW });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`The proxy in HTTPS_PROXY ${said}`);
  });
});
