import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { issue, pkcs12, privateFile } from '../helpers/certificates.js';
import { startConnectProxy, type ConnectProxy } from '../helpers/connect-proxy.js';
import { paybatch, startSandboxProcess, useProcesses, userEnv, type SandboxProcess } from '../helpers/e2e.js';
import { writeSheet } from '../helpers/sheets.js';
import { useTempDir } from '../helpers/temp-dir.js';

// paybatch against a provider that demands the company's certificate (the sandbox with --client-ca), as users run it:
// the built binary, settings from the environment, certificates made here, a CONNECT proxy written here.
const tempDir = useTempDir();
const { sandboxes } = useProcesses();
const proxies: ConnectProxy[] = [];
afterEach(async () => {
  for (const p of proxies.splice(0)) await p.close();
});

const serverCa = issue('Provedor CA');
const clientCa = issue('Banco Emissor CA');
const company = issue('EMPRESA LTDA:12345678000190', { by: clientCa });
const PROVIDER_HOST = 'pagamentos.provedor.test';

interface Rig {
  readonly dir: string;
  readonly sandbox: SandboxProcess;
  readonly port: string;
  readonly files: { serverCa: string; cert: string; key: string; pfx: string; passphrase: string };
}

async function rig(): Promise<Rig> {
  const dir = tempDir();
  const server = issue('provider', { by: serverCa, names: ['localhost', PROVIDER_HOST] });
  const sandbox = await startSandboxProcess({
    state: join(dir, 'sandbox.db'),
    args: ['--speed', '120', '--tls-cert', privateFile(dir, 'server.pem', server.cert), '--tls-key', privateFile(dir, 'server.key', server.key), '--client-ca', privateFile(dir, 'client-ca.pem', clientCa.cert)],
  });
  sandboxes.push(sandbox);
  const files = {
    serverCa: privateFile(dir, 'server-ca.pem', serverCa.cert),
    cert: privateFile(dir, 'empresa.pem', company.cert),
    key: privateFile(dir, 'empresa.key', company.key),
    pfx: privateFile(dir, 'empresa.p12', pkcs12(company, 'frase secreta')),
    passphrase: privateFile(dir, 'passphrase', 'frase secreta\n'),
  };
  return { dir, sandbox, port: new URL(sandbox.url).port, files };
}

/** The user's environment for the provider at `origin` (base and token URL), trusting the provider's CA. */
function providerEnv(r: Rig, home: string, origin: string, extra: Record<string, string>): Record<string, string> {
  return userEnv(home, {
    ...r.sandbox.env(),
    PAYBATCH_BASE_URL: origin,
    PAYBATCH_TOKEN_URL: `${origin}/oauth/token`,
    NODE_EXTRA_CA_CERTS: r.files.serverCa,
    ...extra,
  });
}

/** The sandbox's accounts report, asked over mutual TLS with the company's certificate. */
function accounts(r: Rig): Promise<{ batches: number; items: number }[]> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      `https://localhost:${r.port}/_sandbox/accounts`,
      { headers: { authorization: `Bearer ${r.sandbox.adminToken}` }, ca: serverCa.cert, cert: company.cert, key: company.key },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve((JSON.parse(body) as { accounts: { batches: number; items: number }[] }).accounts));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Imports and starts a sheet of `rows`, then follows it with the daemon until settled; returns the batches' statuses. */
async function payAndFollow(env: Record<string, string>, sheet: string): Promise<string[]> {
  const imported = await paybatch(['import', sheet, '--start', '--yes', '--json'], { env, timeout: 120_000 });
  expect(imported.exitCode, imported.stderr).toBe(0);
  const daemon = await paybatch(['daemon', '--listen', '127.0.0.1:0', '--interval', '0.5', '--until-settled', '--timeout', '240s', '--json'], { env, timeout: 300_000 });
  expect([0, 4], daemon.stderr.slice(-2000)).toContain(daemon.exitCode);
  const listed = await paybatch(['batch', 'list', '--json'], { env });
  return (JSON.parse(listed.stdout) as { status: string }[]).map((b) => b.status);
}

describe('a provider that demands the company certificate', () => {
  it('pays a sheet to the end with the PKCS#12 file (passphrase from a file), the token request included', async () => {
    const r = await rig();
    const home = tempDir();
    const env = providerEnv(r, home, `https://localhost:${r.port}`, { PAYBATCH_CLIENT_PFX: r.files.pfx, PAYBATCH_CLIENT_PASSPHRASE_FILE: r.files.passphrase });
    expect(await payAndFollow(env, writeSheet(join(home, 'folha.csv'), 12))).toEqual(['settled']);
    expect((await accounts(r))[0]).toMatchObject({ batches: 1, items: 12 });

    const check = await paybatch(['provider', 'check', '--json'], { env });
    const doc = JSON.parse(check.stdout) as { connection: { certificate: { subject: string; issuer: string; file: string }; proxy: unknown } };
    expect(doc.connection.certificate).toMatchObject({ subject: 'CN=EMPRESA LTDA:12345678000190', issuer: 'CN=Banco Emissor CA', file: r.files.pfx });
    expect(doc.connection.proxy).toBeNull();
    expect(check.stdout).not.toContain('frase secreta');
  }, 400_000);

  it('without the certificate the import fails clearly and nothing reaches the provider; an expired one is refused before any call', async () => {
    const r = await rig();
    const home = tempDir();
    const sheet = writeSheet(join(home, 'folha.csv'), 3);
    const bare = await paybatch(['import', sheet, '--start', '--yes', '--json'], { env: providerEnv(r, home, `https://localhost:${r.port}`, {}), timeout: 120_000 });
    expect(bare.exitCode).toBe(1);
    const error = (JSON.parse(bare.stdout) as { error: { type: string; message: string; hint: string } }).error;
    expect(error.type).toBe('provider_unreachable');
    expect(error.message).toContain('asks for a client certificate (mutual TLS) and none is set');
    expect(error.hint).toContain('PAYBATCH_CLIENT_CERT');
    expect(bare.stderr).not.toMatch(/bug|at .*\.js:\d+/);

    const expired = issue('EMPRESA LTDA:12345678000190', { by: clientCa, from: new Date('2025-01-01T12:00:00Z'), until: new Date('2026-01-01T12:00:00Z') });
    const env = providerEnv(r, tempDir(), `https://localhost:${r.port}`, {
      PAYBATCH_CLIENT_CERT: privateFile(r.dir, 'vencido.pem', expired.cert),
      PAYBATCH_CLIENT_KEY: privateFile(r.dir, 'vencido.key', expired.key),
      LC_ALL: 'pt_BR.UTF-8',
    });
    const late = await paybatch(['import', sheet, '--start', '--yes'], { env, timeout: 120_000 });
    expect(late.exitCode).toBe(1);
    expect(late.stderr).toContain(`O certificado de cliente ${join(r.dir, 'vencido.pem')} venceu em 01/01/2026 09:00`);
    expect((await accounts(r)).every((a) => a.batches === 0 && a.items === 0)).toBe(true);
  }, 300_000);

  it('through HTTPS_PROXY every call goes by CONNECT to the provider, TLS and certificate end to end', async () => {
    const r = await rig();
    const home = tempDir();
    const proxy = await startConnectProxy(Number(r.port));
    proxies.push(proxy);
    const env = providerEnv(r, home, `https://${PROVIDER_HOST}:${r.port}`, { PAYBATCH_CLIENT_CERT: r.files.cert, PAYBATCH_CLIENT_KEY: r.files.key, HTTPS_PROXY: proxy.url });
    expect(await payAndFollow(env, writeSheet(join(home, 'folha.csv'), 8))).toEqual(['settled']);
    expect(proxy.connects.length).toBeGreaterThan(0);
    expect(new Set(proxy.connects)).toEqual(new Set([`${PROVIDER_HOST}:${r.port}`]));
  }, 400_000);
});
