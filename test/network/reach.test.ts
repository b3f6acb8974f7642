import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors.js';
import { readTlsFiles } from '../../src/network/client-identity.js';
import type { Reach } from '../../src/network/connector.js';
import { ProviderClient } from '../../src/provider/client.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { issue, privateFile } from '../helpers/certificates.js';
import { startConnectProxy, type ConnectProxy } from '../helpers/connect-proxy.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const serverCa = issue('Provedor CA');
const clientCa = issue('Banco Emissor CA');
const company = issue('EMPRESA LTDA:12345678000190', { by: clientCa });
const stranger = issue('OUTRA EMPRESA', { by: issue('Desconhecida CA') });

/** A sandbox on HTTPS demanding a client certificate signed by the bank's CA, its certificate issued for `names`. */
async function mtlsSandbox(names: readonly string[] = ['localhost']): Promise<RunningSandbox> {
  const cert = issue('provider', { by: serverCa, names });
  const sandbox = await startSandbox({ stateFile: ':memory:', tls: { cert: cert.cert, key: cert.key, clientCa: clientCa.cert } });
  closers.push(() => sandbox.close());
  return sandbox;
}

/** The test's CONNECT proxy (tunnelling to `to`), closed after the test. */
async function testProxy(to: number, o: { answer?: number; credentials?: string } = {}): Promise<ConnectProxy> {
  const proxy = await startConnectProxy(to, o);
  closers.push(() => proxy.close());
  return proxy;
}

async function reachWith(o: { cert?: typeof company; caFile?: boolean; env?: Record<string, string>; proxy?: string }): Promise<Reach> {
  const dir = tempDir();
  const files = {
    ...(o.cert ? { clientCert: privateFile(dir, 'c.pem', o.cert.cert), clientKey: privateFile(dir, 'c.key', o.cert.key) } : {}),
    ...(o.caFile === false ? {} : { caFile: privateFile(dir, 'ca.pem', serverCa.cert) }),
  };
  const read = await readTlsFiles(files, { passphrase: async () => '', now: new Date(), env: {} });
  if (!read.ok) throw new Error(read.problem.code);
  return { tls: read.identity, proxy: { env: o.env ?? {}, ...(o.proxy === undefined ? {} : { setting: o.proxy }) } };
}

function client(sandbox: RunningSandbox, reach: Reach, origin = sandbox.url, tokenOrigin = origin): ProviderClient {
  const c = new ProviderClient({
    baseUrl: origin,
    tokenUrl: `${tokenOrigin}/oauth/token`,
    apiKey: sandbox.apiKey,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
    pixAmountUnit: 'cents',
    reach,
    sleep: async () => undefined,
    timeouts: { connectMs: 5_000, headersMs: 10_000, bodyMs: 10_000 },
  });
  closers.push(() => c.close());
  return c;
}

/** The failure of `call`, which must fail with a ProviderError. */
async function failure(call: Promise<unknown>): Promise<ProviderError> {
  const e = await call.then(() => null, (error: unknown) => error);
  expect(e).toBeInstanceOf(ProviderError);
  return e as ProviderError;
}

describe('mutual TLS with the company certificate', () => {
  it('presents the certificate on the token request and every call', async () => {
    const sandbox = await mtlsSandbox();
    const c = client(sandbox, await reachWith({ cert: company }), sandbox.url.replace('127.0.0.1', 'localhost'));
    expect(await c.authenticate()).toBe('basic');
    expect(await c.findBatchByName('nenhum')).toBeNull();
  });

  it('presents it to a token endpoint on another origin too', async () => {
    const sandbox = await mtlsSandbox(['localhost', '127.0.0.1']);
    // The same server under two names: two origins, two connection pools, one certificate.
    const c = client(sandbox, await reachWith({ cert: company }), sandbox.url.replace('127.0.0.1', 'localhost'), sandbox.url);
    expect(await c.authenticate()).toBe('basic');
    expect(await c.findBatchByName('nenhum')).toBeNull();
    const bare = client(sandbox, await reachWith({}), sandbox.url.replace('127.0.0.1', 'localhost'), sandbox.url);
    expect((await failure(bare.authenticate())).path).toBe('/oauth/token');
  });

  it('without a certificate the provider refuses the handshake: nothing was sent, and it is said once, not retried', async () => {
    const sandbox = await mtlsSandbox();
    const e = await failure(client(sandbox, await reachWith({}), sandbox.url.replace('127.0.0.1', 'localhost')).authenticate());
    expect(e.type).toBe('provider_unreachable');
    expect(e.code).toMatch(/ALERT_CERTIFICATE_REQUIRED|ALERT_HANDSHAKE_FAILURE/);
    expect(e.outcomeUnknown).toBe(false);
    expect(e.message).toContain('asks for a client certificate');
    expect(e.hint).toContain('PAYBATCH_CLIENT_CERT');
    expect(e.message).not.toMatch(/attempt|gave up/);
  });

  it("a server certificate from a CA this host does not trust is refused before anything is sent, naming caFile", async () => {
    const sandbox = await mtlsSandbox();
    const e = await failure(client(sandbox, await reachWith({ cert: company, caFile: false }), sandbox.url.replace('127.0.0.1', 'localhost')).authenticate());
    expect(e.code).toMatch(/SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY/);
    expect(e.outcomeUnknown).toBe(false);
    expect(e.hint).toContain('caFile');
  });

  it("a server certificate that does not name the host is refused", async () => {
    const sandbox = await mtlsSandbox(['elsewhere.example']);
    const e = await failure(client(sandbox, await reachWith({ cert: company }), sandbox.url.replace('127.0.0.1', 'localhost')).authenticate());
    expect(e.code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    expect(e.outcomeUnknown).toBe(false);
  });

  it('a certificate the provider does not know gets no token', async () => {
    const sandbox = await mtlsSandbox();
    await failure(client(sandbox, await reachWith({ cert: stranger }), sandbox.url.replace('127.0.0.1', 'localhost')).authenticate());
  });
});

describe('through an HTTP CONNECT proxy', () => {
  const port = (url: string) => new URL(url).port;

  it('HTTPS_PROXY carries every call, and the client certificate runs end to end through the tunnel', async () => {
    const sandbox = await mtlsSandbox(['pagamentos.provedor.test']);
    const proxy = await testProxy(Number(port(sandbox.url)));
    const origin = `https://pagamentos.provedor.test:${port(sandbox.url)}`;
    const c = client(sandbox, await reachWith({ cert: company, env: { HTTPS_PROXY: proxy.url } }), origin);
    expect(await c.authenticate()).toBe('basic');
    expect(await c.findBatchByName('nenhum')).toBeNull();
    expect(new Set(proxy.connects)).toEqual(new Set([`pagamentos.provedor.test:${port(sandbox.url)}`]));
  });

  it('the proxy setting wins over HTTPS_PROXY, and its credentials go as Proxy-Authorization, never into errors', async () => {
    const sandbox = await mtlsSandbox(['pagamentos.provedor.test']);
    const unused = await testProxy(1);
    const proxy = await testProxy(Number(port(sandbox.url)), { credentials: 'financeiro:s3gr3d0@corp' });
    const origin = `https://pagamentos.provedor.test:${port(sandbox.url)}`;
    const setting = proxy.url.replace('http://', 'http://financeiro:s3gr3d0%40corp@');
    expect(await client(sandbox, await reachWith({ cert: company, env: { HTTPS_PROXY: unused.url }, proxy: setting }), origin).authenticate()).toBe('basic');
    expect(unused.connects).toEqual([]);
    expect(proxy.auth[0]).toBe(`Basic ${Buffer.from('financeiro:s3gr3d0@corp').toString('base64')}`);

    const wrong = proxy.url.replace('http://', 'http://financeiro:errada@');
    const e = await failure(client(sandbox, await reachWith({ cert: company, proxy: wrong }), origin).authenticate());
    expect(e.code).toBe('PROXY_AUTH_REQUIRED');
    expect(e.outcomeUnknown).toBe(false);
    expect(e.message).toContain('asks for authentication (HTTP 407)');
    expect(e.message).toContain('the proxy setting');
    const text = JSON.stringify({ m: e.message, h: e.hint, c: String((e.cause as Error | undefined)?.message) });
    expect(text).not.toContain('errada');
    expect(text).not.toContain(Buffer.from('financeiro:errada').toString('base64'));
  });

  it('a proxy that refuses the host says so; one that cannot be reached too; neither is retried as a lost answer', async () => {
    const sandbox = await mtlsSandbox(['pagamentos.provedor.test']);
    const forbidding = await testProxy(Number(port(sandbox.url)), { answer: 403 });
    const origin = `https://pagamentos.provedor.test:${port(sandbox.url)}`;
    const refused = await failure(client(sandbox, await reachWith({ cert: company, env: { https_proxy: forbidding.url } }), origin).authenticate());
    expect(refused.code).toBe('PROXY_REFUSED');
    expect(refused.message).toContain('refused to open a tunnel to pagamentos.provedor.test');
    expect(refused.message).toContain('https_proxy');
    expect(forbidding.connects).toHaveLength(1);

    const closed = await testProxy(1);
    await closers.pop()!();
    const gone = await failure(client(sandbox, await reachWith({ cert: company, env: { HTTPS_PROXY: closed.url } }), origin).authenticate());
    expect(gone.code).toBe('PROXY_UNREACHABLE');
    expect(gone.outcomeUnknown).toBe(false);
    expect(gone.type).toBe('provider_unreachable');
  });

  it('loopback is never proxied, whatever HTTPS_PROXY says', async () => {
    const sandbox = await mtlsSandbox(['localhost']);
    const proxy = await testProxy(1);
    const c = client(sandbox, await reachWith({ cert: company, env: { HTTPS_PROXY: proxy.url, NO_PROXY: '' } }), sandbox.url.replace('127.0.0.1', 'localhost'));
    expect(await c.authenticate()).toBe('basic');
    expect(proxy.connects).toEqual([]);
  });
});
