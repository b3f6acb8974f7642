import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors.js';
import type { NewItem } from '../../src/provider/types.js';
import { deadPort, DEST, json, miniProvider, rejection, testClient, useFakeProviders, type Handler } from './fake-provider.js';

const fake = useFakeProviders({ retry: { attempts: 5, baseMs: 100, capMs: 10_000 } });
const setup = (handler: Handler, clientOpts: Parameters<typeof testClient>[1] = {}) => fake.setup(handler, {}, clientOpts);

/** Answers the scripted statuses in order (then 200 with `ok`), each with optional headers. */
function script(steps: { status: number; headers?: Record<string, string>; body?: unknown }[], ok: unknown): Handler {
  let n = 0;
  return (_q, res) => {
    const s = steps[n++];
    if (s) return json(res, s.status, s.body ?? { error: { code: `e${s.status}`, message: 'scripted' } }, s.headers);
    return json(res, 200, ok);
  };
}

const LINE = '23793381286000000000300000000401184340000012345';
const items: NewItem[] = [
  { amountCents: 1000, identifier: '11111111-1111-4111-8111-111111111111', description: 'a', to: DEST },
  { amountCents: 2000, identifier: '22222222-2222-4222-8222-222222222222', description: 'b', to: DEST },
];

describe('GET retries', () => {
  it('retries 503 and 429, honouring Retry-After in seconds and as an HTTP-date', async () => {
    const now = Date.parse('2025-03-10T12:00:00Z');
    const { client, server, sleeps, events } = await setup(
      script(
        [
          { status: 503, headers: { 'retry-after': '3' } },
          { status: 429, headers: { 'retry-after': 'Mon, 10 Mar 2025 12:00:07 GMT' } },
          { status: 502 },
        ],
        DEST,
      ),
      { now: () => now },
    );
    expect(await client.lookupKey('k')).toEqual(DEST);
    expect(server.seen).toHaveLength(4);
    // Retry-After is the least wait; the third retry has none: full jitter of min(cap, 100·2²) at random 0.5.
    expect(sleeps).toEqual([3_000, 7_000, 200]);
    expect(events.filter((e) => e.type === 'retry').map((e) => (e.type === 'retry' ? e.reason : ''))).toEqual(['HTTP 503', 'HTTP 429', 'HTTP 502']);
  });

  it('is bounded by the number of attempts and reports it', async () => {
    const { client, server, sleeps } = await setup((_q, res) => json(res, 500, { error: { code: 'boom', message: 'down' } }), { retry: { attempts: 3, baseMs: 100, capMs: 150 } });
    const e = (await rejection(client.lookupKey('k'))) as ProviderError;
    expect(e.status).toBe(500);
    expect(e.message).toMatch(/gave up after 3 attempts/);
    expect(server.seen).toHaveLength(3);
    expect(sleeps).toEqual([50, 75]);
  });

  it('does not wait for a Retry-After beyond the limit', async () => {
    const { client, server } = await setup(script([{ status: 429, headers: { 'retry-after': '3600' } }], DEST));
    const e = (await rejection(client.lookupKey('k'))) as ProviderError;
    expect(e.status).toBe(429);
    expect(e.message).toMatch(/asked to wait 3600 s/);
    expect(server.seen).toHaveLength(1);
  });

  it('retries communication failures (a connection reset)', async () => {
    let n = 0;
    const { client, server } = await setup((_q, res, raw) => {
      if (n++ === 0) return void raw.socket.destroy();
      json(res, 200, DEST);
    });
    expect(await client.lookupKey('k')).toEqual(DEST);
    expect(server.seen).toHaveLength(2);
  });

  it.each([400, 403, 404, 405, 422, 501])('never retries HTTP %i', async (status) => {
    const { client, server, sleeps } = await setup((_q, res) => json(res, status, { error: { code: 'x', message: 'no' } }));
    const e = (await rejection(client.receipt('p'))) as ProviderError;
    expect(e.status).toBe(status);
    expect(server.seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe('adding items', () => {
  it('is retried with the very same body after a 503', async () => {
    const mini = miniProvider();
    let failed = false;
    const { client, server } = await setup((q, res, raw) => {
      if (q.method === 'POST' && q.url.endsWith('/items') && !failed) {
        failed = true;
        return json(res, 503, { error: { code: 'unavailable', message: 'try later' } });
      }
      return mini.handler(q, res, raw);
    });
    const b = await client.createBatch('x');
    const added = await client.addItems(b.id, items);
    expect(added.map((i) => i.amountCents)).toEqual([1000, 2000]);
    const posts = server.seen.filter((s) => s.method === 'POST' && s.url.endsWith('/items'));
    expect(posts).toHaveLength(2);
    expect(posts[0]!.body).toBe(posts[1]!.body);
    expect(mini.state.items.get(b.id)).toHaveLength(2);
  });

  it('after a lost response the repeat returns the items already held, never a second copy', async () => {
    const mini = miniProvider();
    let lost = true;
    const { client, server } = await setup((q, res, raw) => {
      if (q.method === 'POST' && q.url.endsWith('/items') && lost) {
        lost = false;
        // Apply, then destroy the socket instead of answering.
        const fakeRes = { writeHead: () => fakeRes, end: () => raw.socket.destroy(), headersSent: false } as unknown as typeof res;
        return mini.handler(q, fakeRes, raw);
      }
      return mini.handler(q, res, raw);
    });
    const b = await client.createBatch('x');
    const added = await client.addItems(b.id, items);
    expect(added).toHaveLength(2);
    const posts = server.seen.filter((s) => s.method === 'POST' && s.url.endsWith('/items'));
    expect(posts).toHaveLength(2);
    expect(posts[0]!.body).toBe(posts[1]!.body);
    expect(mini.state.items.get(b.id)).toHaveLength(2);
  });

  it('surfaces a 409 (same identifier, other data) without retrying', async () => {
    const mini = miniProvider();
    const { client, server } = await setup(mini.handler);
    const b = await client.createBatch('x');
    await client.addItems(b.id, items);
    const changed = [{ ...items[0]!, amountCents: 9999 }];
    const e = (await rejection(client.addItems(b.id, changed))) as ProviderError;
    expect(e.status).toBe(409);
    expect(e.code).toBe('conflict');
    expect(e.message).toMatch(/HTTP 409 \(conflict: identifier already used\) \[identifier: 11111111/);
    expect(e.hint).toMatch(/same identifier/);
    expect(server.seen.filter((s) => s.url.endsWith('/items'))).toHaveLength(2);
  });

  it('the final error says the outcome is unknown when an earlier attempt may have been applied', async () => {
    let n = 0;
    const { client } = await setup((_q, res, raw) => {
      if (n++ === 0) return void raw.socket.destroy();
      json(res, 400, { error: { code: 'bad', message: 'no' } });
    });
    const e = (await rejection(client.addItems('b', items))) as ProviderError;
    expect(e.status).toBe(400);
    expect(e.outcomeUnknown).toBe(true);
  });
});

describe('start-process', () => {
  it('is retried like items (idempotent)', async () => {
    const { client, server } = await setup(script([{ status: 502 }], { status: 'processing', timestamp: 1, id: 'b1', name: 'x' }));
    expect((await client.startBatch('b1')).status).toBe('processing');
    expect(server.seen).toHaveLength(2);
  });
});

describe('creating a batch', () => {
  it('createBatch is never retried, even on 503', async () => {
    const { client, server } = await setup((_q, res) => json(res, 503, { error: { code: 'unavailable', message: 'x' } }));
    const e = (await rejection(client.createBatch('x'))) as ProviderError;
    expect(e.status).toBe(503);
    expect(server.seen).toHaveLength(1);
  });

  it('ensureBatch finds the orphan of a lost response instead of creating a second batch', async () => {
    const mini = miniProvider();
    let lose = true;
    const { client, server, events } = await setup((q, res, raw) => {
      if (q.method === 'POST' && q.url === '/pix/batch' && lose) {
        lose = false;
        const fakeRes = { writeHead: () => fakeRes, end: () => raw.socket.destroy(), headersSent: false } as unknown as typeof res;
        return mini.handler(q, fakeRes, raw);
      }
      return mini.handler(q, res, raw);
    });
    const { batch, created } = await client.ensureBatch('payroll [pb:42]');
    expect(created).toBe(false);
    expect(batch.name).toBe('payroll [pb:42]');
    expect(mini.state.batches).toHaveLength(1);
    expect(server.seen.filter((s) => s.method === 'POST')).toHaveLength(1);
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /pix/batch', 'POST /pix/batch', 'GET /pix/batch']);
    expect(events.some((e) => e.type === 'failure' && e.outcomeUnknown)).toBe(true);
  });

  it('ensureBatch walks the pages again after a 503 and then creates', async () => {
    const mini = miniProvider();
    let fail = true;
    const { client, server } = await setup((q, res, raw) => {
      if (q.method === 'POST' && fail) {
        fail = false;
        return json(res, 503, { error: { code: 'unavailable', message: 'x' } }, { 'retry-after': '1' });
      }
      return mini.handler(q, res, raw);
    });
    const r = await client.ensureBatch('n [pb:1]');
    expect(r.created).toBe(true);
    expect(server.seen.map((s) => s.method)).toEqual(['GET', 'POST', 'GET', 'POST']);
  });

  it('ensureBatch does not retry a 400', async () => {
    const mini = miniProvider();
    const { client, server } = await setup((q, res, raw) => (q.method === 'POST' ? json(res, 400, { error: { code: 'bad_name', message: 'too long' } }) : mini.handler(q, res, raw)));
    const e = (await rejection(client.ensureBatch('n'))) as ProviderError;
    expect(e.code).toBe('bad_name');
    expect(server.seen.map((s) => s.method)).toEqual(['GET', 'POST']);
  });
});

describe('paying a bill', () => {
  it('is never retried on a timeout, and reports the outcome as unknown', async () => {
    const { client, server, events } = await setup(() => undefined /* never answers */, { timeouts: { headersMs: 150 } });
    const e = (await rejection(client.payBoleto(LINE, 12345))) as ProviderError;
    expect(e).toBeInstanceOf(ProviderError);
    expect(e.status).toBeNull();
    expect(e.code).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect(e.outcomeUnknown).toBe(true);
    expect(e.message).toMatch(/POST \/cashout\/boleto: no answer within 150 ms; the request may have reached the provider/);
    expect(server.seen).toHaveLength(1);
    expect(events.filter((x) => x.type === 'retry')).toHaveLength(0);
  });

  it('is never retried after a lost response', async () => {
    const { client, server } = await setup((_q, _res, raw) => void raw.socket.destroy());
    const e = (await rejection(client.payBoleto(LINE, 12345))) as ProviderError;
    expect(e.outcomeUnknown).toBe(true);
    expect(server.seen).toHaveLength(1);
  });

  it.each([500, 502, 504])('is not retried on %i, whose outcome is unknown', async (status) => {
    const { client, server } = await setup((_q, res) => json(res, status, { error: { code: 'x', message: 'y' } }));
    const e = (await rejection(client.payBoleto(LINE, 12345))) as ProviderError;
    expect(e.outcomeUnknown).toBe(true);
    expect(server.seen).toHaveLength(1);
  });

  it.each([503, 429, 422])('is not retried on %i, which the provider refused', async (status) => {
    const { client, server } = await setup((_q, res) => json(res, status, { error: { code: 'x', message: 'y' } }));
    const e = (await rejection(client.payBoleto(LINE, 12345))) as ProviderError;
    expect(e.outcomeUnknown).toBe(false);
    expect(server.seen).toHaveLength(1);
  });

  it('says the outcome is known when the connection was refused', async () => {
    const auth = await fake.server((_q, res) => json(res, 404, {}));
    const { client, sleeps } = fake.client({ url: await deadPort(), tokenUrl: auth.tokenUrl });
    const e = (await rejection(client.payBoleto(LINE, 12345))) as ProviderError;
    expect(e.code).toBe('ECONNREFUSED');
    expect(e.outcomeUnknown).toBe(false);
    expect(sleeps).toEqual([]);
  });
});

describe('deletes', () => {
  it('are retried, and a 404 after a lost response counts as done', async () => {
    const mini = miniProvider();
    let lose = true;
    const { client, server } = await setup((q, res, raw) => {
      if (q.method === 'DELETE' && lose) {
        lose = false;
        const fakeRes = { writeHead: () => fakeRes, end: () => raw.socket.destroy(), headersSent: false } as unknown as typeof res;
        return mini.handler(q, fakeRes, raw);
      }
      return mini.handler(q, res, raw);
    });
    const b = await client.createBatch('x');
    const [it1] = await client.addItems(b.id, items);
    await client.deleteItem(b.id, it1!.itemId);
    expect(server.seen.filter((s) => s.method === 'DELETE')).toHaveLength(2);
    expect(mini.state.items.get(b.id)).toHaveLength(1);
  });
});

describe('timeouts', () => {
  it('a GET to a server that never answers times out on headers and is retried, then fails', async () => {
    const { client, server } = await setup(() => undefined, { timeouts: { headersMs: 100 }, retry: { attempts: 2, baseMs: 1, capMs: 1 } });
    // The server never answers: only the headers timeout can end each attempt (the test's own timeout would fail it).
    const e = (await rejection(client.lookupKey('k'))) as ProviderError;
    expect(e.code).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect(e.message).toMatch(/gave up after 2 attempts/);
    expect(e.message).toContain('no answer within 100 ms');
    expect(server.seen).toHaveLength(2);
  });

  it('a body that stalls times out on body', async () => {
    const { client } = await setup(
      (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"name":');
      },
      { timeouts: { bodyMs: 100 }, retry: { attempts: 1 } },
    );
    const e = (await rejection(client.lookupKey('k'))) as ProviderError;
    expect(e.code).toBe('UND_ERR_BODY_TIMEOUT');
    expect(e.status).toBeNull();
    expect(e.outcomeUnknown).toBe(true);
  });

  it('a connection refused on a GET is retried and reported as not sent', async () => {
    const auth = await fake.server((_q, res) => json(res, 404, {}));
    const { client, sleeps } = fake.client({ url: await deadPort(), tokenUrl: auth.tokenUrl }, { retry: { attempts: 3, baseMs: 10, capMs: 10 } });
    const e = (await rejection(client.lookupKey('k'))) as ProviderError;
    expect(e.code).toBe('ECONNREFUSED');
    expect(e.outcomeUnknown).toBe(false);
    expect(e.message).toMatch(/connection to http:\/\/127\.0\.0\.1:\d+ refused.*gave up after 3 attempts/);
    expect(sleeps).toHaveLength(2);
  });
});

describe('whether the provider answers', () => {
  it('is true before any call and after any answer below 500; false after no answer or a 5xx', async () => {
    let status = 503;
    const { client } = await setup((_q, res) => json(res, status, status === 200 ? DEST : { error: { code: 'x', message: 'scripted' } }), { retry: { attempts: 1, baseMs: 1, capMs: 1 } });
    expect(client.answering(60_000)).toBe(true);
    await rejection(client.lookupKey('k'));
    expect(client.answering(60_000)).toBe(false);
    status = 404; // a key nobody has: an answer
    expect(await client.lookupKey('k')).toBeNull();
    expect(client.answering(60_000)).toBe(true);
    const auth = await fake.server((_q, res) => json(res, 404, {}));
    const unreachable = fake.client({ url: await deadPort(), tokenUrl: auth.tokenUrl }, { retry: { attempts: 1, baseMs: 1, capMs: 1 } }).client;
    await rejection(unreachable.lookupKey('k'));
    expect(unreachable.answering(60_000)).toBe(false);
  });

  it('is false while a request has waited longer than asked for its answer (a link that swallows requests)', async () => {
    let now = Date.parse('2026-11-27T12:00:00Z');
    let answer!: () => void;
    const held = new Promise<void>((r) => (answer = r));
    let arrived!: () => void;
    const seen = new Promise<void>((r) => (arrived = r));
    const { client } = await setup(
      (_q, res) => {
        arrived();
        void held.then(() => json(res, 200, DEST));
      },
      { now: () => now },
    );
    const lookup = client.lookupKey('k');
    await seen;
    now += 9_000;
    expect(client.answering(10_000)).toBe(true);
    now += 1_000;
    expect(client.answering(10_000)).toBe(false);
    answer();
    expect(await lookup).toEqual(DEST);
    expect(client.answering(10_000)).toBe(true);
  });
});
