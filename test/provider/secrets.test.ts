import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors.js';
import type { ProviderEvent } from '../../src/provider/types.js';
import { deadPort, fakeProvider, json, rejection, SECRETS, testClient, type FakeServer } from './fake-provider.js';

const HOOK_SECRET = 'whsec_SECRETHOOK_5eb63bbbe01eeed';
const ALL_SECRETS = [...SECRETS, HOOK_SECRET];

/** Everything a logger or a JSON renderer could print of an error, the cause chain included. */
function serialise(e: unknown): string {
  const plain = (x: unknown, depth = 0): unknown => {
    if (!(x instanceof Error) || depth > 5) return x;
    return { ...x, name: x.name, message: x.message, stack: x.stack, cause: plain(x.cause, depth + 1) };
  };
  return [JSON.stringify(plain(e)), inspect(e, { depth: Infinity, showHidden: true }), String(e)].join('\n');
}

function expectNoSecret(text: string): void {
  for (const s of ALL_SECRETS) expect(text).not.toContain(s);
}

/** A provider whose errors echo every request header and body back, as some gateways do. */
function echo(status: number, asText = false) {
  return (q: { headers: unknown; body: string }, res: import('node:http').ServerResponse) => {
    const payload = { error: { code: 'echo', message: `you sent ${JSON.stringify(q.headers)} ${q.body}`, details: [{ field: 'headers', problem: JSON.stringify(q.headers) }] }, headers: q.headers, body: q.body };
    if (!asText) return json(res, status, payload);
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(`Internal error. Request headers: ${JSON.stringify(q.headers)} body: ${q.body}`);
  };
}

describe('no secret leaks', () => {
  let server: FakeServer;
  let mode: 'json400' | 'text500' | 'never' | 'bad200' | '401' = 'json400';
  const events: ProviderEvent[] = [];
  const errors: unknown[] = [];

  beforeAll(async () => {
    server = await fakeProvider((q, res) => {
      if (mode === 'json400') return echo(400)(q, res);
      if (mode === 'text500') return echo(500, true)(q, res);
      if (mode === '401') return json(res, 401, { error: { code: 'unauthorized', message: `token ${q.headers.authorization} refused` } });
      if (mode === 'bad200') return json(res, 200, { weird: q.headers, secret: q.body });
      // 'never': no answer at all.
    });
  });
  afterAll(async () => {
    await server.close();
  });

  async function run(m: typeof mode, call: (c: ReturnType<typeof testClient>['client']) => Promise<unknown>, opts: Parameters<typeof testClient>[1] = {}) {
    mode = m;
    const t = testClient(server, { onEvent: (e) => events.push(e), retry: { attempts: 2, baseMs: 1, capMs: 1 }, timeouts: { headersMs: 100 }, ...opts });
    try {
      const e = await rejection(call(t.client));
      expect(e).toBeInstanceOf(ProviderError);
      errors.push(e);
      expectNoSecret(serialise(e));
      expectNoSecret(inspect(t.client, { depth: Infinity, showHidden: true }));
      return e as ProviderError;
    } finally {
      await t.client.close();
    }
  }

  it('masks secrets a provider echoes in a JSON error body', async () => {
    const e = await run('json400', (c) => c.subscribe('https://hooks.example.com', HOOK_SECRET));
    // The echo is there, but masked.
    expect(JSON.stringify(e.body)).toContain('[redacted]');
    expect(e.message).toContain('[redacted]');
  });

  it('masks secrets echoed in a text error body', async () => {
    const e = await run('text500', (c) => c.lookupKey('k'));
    expect(String(e.body)).toContain('[redacted]');
  });

  it('masks secrets echoed in an unreadable success body', async () => {
    const e = await run('bad200', (c) => c.payBoleto('23793381286000000000300000000401184340000012345', 100));
    expect(e.outcomeUnknown).toBe(true);
    expect(JSON.stringify(e.body)).toContain('[redacted]');
  });

  it('keeps them out of a rejected-credentials error', async () => {
    const e = await run('401', (c) => c.deleteBatch('b1'));
    expect(e.status).toBe(401);
  });

  it('keeps them out of timeouts and their causes', async () => {
    const e = await run('never', (c) => c.startBatch('b1'), { retry: { attempts: 1 }, timeouts: { headersMs: 100 } });
    expect(e.code).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect(e.cause).toBeInstanceOf(Error);
  });

  it('keeps them out of refused connections and token endpoint errors', async () => {
    const dead = await deadPort();
    const t1 = testClient({ url: dead, tokenUrl: `${dead}/oauth/token` }, { onEvent: (e) => events.push(e), retry: { attempts: 1 } });
    const e1 = await rejection(t1.client.lookupKey('k'));
    await t1.client.close();
    expectNoSecret(serialise(e1));

    const tokenEcho = await fakeProvider(() => undefined, {
      tokenAnswer: () => ({ status: 401, body: { error: 'invalid_client', error_description: `bad ${CLIENT_SECRET_IN_BODY}` } }),
    });
    const t2 = testClient(tokenEcho, { onEvent: (e) => events.push(e) });
    const e2 = (await rejection(t2.client.lookupKey('k'))) as ProviderError;
    await t2.client.close();
    await tokenEcho.close();
    expect(e2.message).toContain('[redacted]');
    expectNoSecret(serialise(e2));
  });

  it('never puts a secret in an event', () => {
    expect(events.length).toBeGreaterThan(10);
    expectNoSecret(JSON.stringify(events));
    expect(errors).toHaveLength(5);
  });
});

const CLIENT_SECRET_IN_BODY = SECRETS[1]!;
