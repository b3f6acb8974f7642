import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import type { WebhookEvent } from '../../src/domain/webhook-event.js';
import type { DeliveryMeta } from '../../src/engine/webhooks/apply-event.js';
import { startReceiver } from '../../src/daemon/webhook-receiver.js';
import type { ReceiverLogEntry, ReceiverOptions, RunningReceiver } from '../../src/daemon/webhook-receiver.js';
import { signStandardWebhook } from '../../src/domain/webhook-proof.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const NOW_MS = 1_714_000_000_000;
const NOW_S = NOW_MS / 1000;

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: () => unknown;
}

/** One HTTP request over node:http; a fresh connection each time unless an agent is given. */
function send(url: string, o: { method?: string; path?: string; headers?: OutgoingHttpHeaders; body?: string | Buffer } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const target = new URL(o.path ?? '/webhooks', url);
    const headers = Object.fromEntries(Object.entries(o.headers ?? {}).filter(([, v]) => v !== undefined));
    const req = request(target, { method: o.method ?? 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) as unknown });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

function pixEventBody(eventId = 'evt_1', identifier = 'item-0001'): string {
  return JSON.stringify({
    serviceId: 4821,
    payload: {
      id: `pix_${eventId}`,
      eventId,
      identifier,
      amount: 1050,
      endToEndId: 'E12345678202404250000abcdefghijk',
      isRefund: false,
      transactionAccepted: true,
      transactionStatus: 'approved',
      reason: null,
      timestamp: String(NOW_S),
    },
  });
}

function signed(body: string | Buffer, o: { id?: string; timestamp?: number; secret?: string } = {}): OutgoingHttpHeaders {
  const id = o.id ?? (JSON.parse(String(body)) as { payload?: { eventId?: string } }).payload?.eventId ?? 'msg_x';
  const timestamp = o.timestamp ?? NOW_S;
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signStandardWebhook(o.secret ?? SECRET, id, timestamp, body),
  };
}

interface Harness {
  receiver: RunningReceiver;
  url: string;
  calls: { event: WebhookEvent; meta: DeliveryMeta }[];
  stored: Map<string, WebhookEvent>;
  logs: ReceiverLogEntry[];
}

const running: RunningReceiver[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

async function start(overrides: Partial<ReceiverOptions> = {}): Promise<Harness> {
  const calls: Harness['calls'] = [];
  const stored = new Map<string, WebhookEvent>();
  const logs: ReceiverLogEntry[] = [];
  const receiver = await startReceiver({
    host: '127.0.0.1',
    port: 0,
    method: 'auto',
    secret: SECRET,
    now: () => NOW_MS,
    log: (entry) => logs.push(entry),
    onEvent: async (event, meta) => {
      calls.push({ event, meta });
      if (stored.has(event.eventId)) return 'duplicate';
      stored.set(event.eventId, event);
      return 'stored';
    },
    ...overrides,
  });
  running.push(receiver);
  return { receiver, url: receiver.url, calls, stored, logs };
}

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('webhook receiver: accepted deliveries', () => {
  it('listens on 127.0.0.1 and reports its /webhooks URL', async () => {
    const h = await start();
    expect(h.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    expect(h.url).toContain(`:${h.receiver.port}/`);
  });

  it('stores a signed Pix event and answers 200 only with the event in hand', async () => {
    const h = await start();
    const body = pixEventBody('evt_1');
    const reply = await send(h.url, { headers: signed(body), body });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({ ok: true, duplicate: false });
    expect(h.calls).toHaveLength(1);
    expect(h.calls[0]?.event).toMatchObject({ kind: 'pix', eventId: 'evt_1', identifier: 'item-0001', amountCents: 1050 });
    expect(h.calls[0]?.meta).toEqual({ deliveryId: 'evt_1', receivedAt: new Date(NOW_MS), body });
    expect(h.receiver.counters()).toMatchObject({ received: 1, stored: 1, duplicate: 0, refused: 0 });
  });

  it('stores a generic callback', async () => {
    const h = await start();
    const body = JSON.stringify({ serviceId: '1', eventId: 'cb_1', type: 'bill_payment', category: 'bill_paid', timestamp: '1', detail: {} });
    const reply = await send(h.url, { headers: signed(body, { id: 'cb_1' }), body });
    expect(reply.status).toBe(200);
    expect(h.calls[0]?.event).toMatchObject({ kind: 'callback', eventId: 'cb_1', category: 'bill_paid' });
  });

  it('acknowledges a replayed delivery and a retried one as duplicates', async () => {
    const h = await start();
    const body = pixEventBody('evt_dup');
    const headers = signed(body);
    expect((await send(h.url, { headers, body })).json()).toEqual({ ok: true, duplicate: false });
    // The very same bytes again (a replay within the tolerance), then a retry with a fresh timestamp and signature.
    const replay = await send(h.url, { headers, body });
    expect(replay.status).toBe(200);
    expect(replay.json()).toEqual({ ok: true, duplicate: true });
    const retry = await send(h.url, { headers: signed(body, { timestamp: NOW_S - 60 }), body });
    expect(retry.json()).toEqual({ ok: true, duplicate: true });
    expect(h.stored.size).toBe(1);
    expect(h.receiver.counters()).toMatchObject({ received: 3, stored: 1, duplicate: 2 });
  });

  it('dedupes on the body eventId when webhook-id differs, and logs it', async () => {
    const h = await start();
    const body = pixEventBody('evt_body');
    const reply = await send(h.url, { headers: signed(body, { id: 'msg_delivery_7' }), body });
    expect(reply.status).toBe(200);
    expect(h.calls[0]?.event.eventId).toBe('evt_body');
    expect(h.calls[0]?.meta.deliveryId).toBe('msg_delivery_7');
    expect(h.receiver.counters()['idMismatch']).toBe(1);
    expect(h.logs).toContainEqual(expect.objectContaining({ level: 'warn', deliveryId: 'msg_delivery_7', eventId: 'evt_body' }));
  });

  it('answers only after onEvent resolved', async () => {
    const gate = deferred<'stored'>();
    const entered = deferred<void>();
    const h = await start({
      onEvent: () => {
        entered.resolve();
        return gate.promise;
      },
    });
    const body = pixEventBody('evt_slow');
    // Whether the answer came before onEvent resolved, noted when it comes (whenever that is), not looked at after a pause.
    let resolved = false;
    let answeredBeforeResolved: boolean | null = null;
    const reply = send(h.url, { headers: signed(body), body }).then((r) => {
      answeredBeforeResolved = !resolved;
      return r;
    });
    await entered.promise;
    // The receiver answers another request meanwhile: an answer to the delivery written before onEvent resolved
    // would have reached us by then (an event of the server, not a pause).
    expect((await send(h.url, { path: '/healthz', method: 'GET' })).status).toBe(200);
    expect(answeredBeforeResolved).toBeNull();
    resolved = true;
    gate.resolve('stored');
    expect((await reply).status).toBe(200);
    expect(answeredBeforeResolved).toBe(false);
  });

  it('answers 500 when onEvent throws (the provider retries), without leaking the error', async () => {
    let fail = true;
    const h = await start({
      onEvent: async () => {
        if (fail) throw new Error('SQLITE_CORRUPT: database disk image is malformed');
        return 'stored';
      },
    });
    const body = pixEventBody('evt_retry');
    const first = await send(h.url, { headers: signed(body), body });
    expect(first.status).toBe(500);
    expect(first.text).not.toContain('SQLITE');
    fail = false;
    const second = await send(h.url, { headers: signed(body), body });
    expect(second.status).toBe(200);
    expect(h.receiver.counters()).toMatchObject({ failed: 1, stored: 1 });
    expect(h.logs).toContainEqual(expect.objectContaining({ level: 'error', eventId: 'evt_retry' }));
  });

  it('answers 503 with Retry-After while the ledger cannot be reached, and 200 once it is back', async () => {
    let down = true;
    const h = await start({
      onEvent: async () => {
        // What pg throws when the server is gone: a socket error with its code.
        if (down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        return 'stored';
      },
    });
    const body = pixEventBody('evt_db_down');
    const first = await send(h.url, { headers: signed(body), body });
    expect(first.status).toBe(503);
    expect(first.headers['retry-after']).toBe('5');
    expect(first.json()).toEqual({ ok: false, error: 'ledger unavailable' });
    expect(h.logs).toContainEqual(expect.objectContaining({ level: 'error', msg: expect.stringMatching(/ledger cannot be reached/), eventId: 'evt_db_down' }));
    down = false;
    expect((await send(h.url, { headers: signed(body), body })).status).toBe(200);
  });

  it('answers 500 when onEvent resolves with something else', async () => {
    const h = await start({ onEvent: async () => 'ok' as unknown as 'stored' });
    const body = pixEventBody();
    expect((await send(h.url, { headers: signed(body), body })).status).toBe(500);
  });

  it('accepts a JSON content type with a UTF-8 charset and a query string on the path', async () => {
    const h = await start();
    const body = pixEventBody();
    const headers = { ...signed(body), 'content-type': 'Application/JSON; charset="UTF-8"' };
    expect((await send(h.url, { path: '/webhooks?source=sandbox', headers, body })).status).toBe(200);
  });
});

describe('webhook receiver: refused deliveries never reach onEvent', () => {
  const body = pixEventBody('evt_refused');
  const cases: [string, { method?: string; path?: string; headers: OutgoingHttpHeaders; body?: string | Buffer }, number, string][] = [
    ['an unknown path', { path: '/hooks', headers: signed(body), body }, 404, 'not_found'],
    ['a sub-path', { path: '/webhooks/1', headers: signed(body), body }, 404, 'not_found'],
    ['GET /webhooks', { method: 'GET', headers: {} }, 405, 'method_not_allowed'],
    ['PUT /webhooks', { method: 'PUT', headers: signed(body), body }, 405, 'method_not_allowed'],
    ['POST /healthz', { path: '/healthz', headers: signed(body), body }, 405, 'method_not_allowed'],
    ['text/plain', { headers: { ...signed(body), 'content-type': 'text/plain' }, body }, 415, 'content_type_must_be_application_json'],
    ['no content type', { headers: { ...signed(body), 'content-type': undefined }, body }, 415, 'content_type_must_be_application_json'],
    ['a Latin-1 charset', { headers: { ...signed(body), 'content-type': 'application/json; charset=latin1' }, body }, 415, 'content_type_must_be_application_json'],
    ['form data', { headers: { ...signed(body), 'content-type': 'application/x-www-form-urlencoded' }, body }, 415, 'content_type_must_be_application_json'],
    ['an unsigned delivery', { headers: { 'content-type': 'application/json' }, body }, 401, 'missing_credentials'],
    ['a forged delivery (wrong secret)', { headers: signed(body, { secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }), body }, 401, 'no_signature_matches'],
    ['a tampered body', { headers: signed(body), body: body.replace('1050', '105000') }, 401, 'no_signature_matches'],
    ['an expired delivery', { headers: signed(body, { timestamp: NOW_S - 301 }), body }, 401, 'timestamp_outside_tolerance'],
    ['a delivery from the future', { headers: signed(body, { timestamp: NOW_S + 301 }), body }, 401, 'timestamp_outside_tolerance'],
    ['a malformed timestamp', { headers: { ...signed(body), 'webhook-timestamp': 'yesterday' }, body }, 400, 'malformed_webhook_timestamp'],
    ['a malformed signature', { headers: { ...signed(body), 'webhook-signature': 'garbage' }, body }, 400, 'malformed_webhook_signature'],
    ['bad JSON, correctly signed', { headers: signed('{"payload":', { id: 'x' }), body: '{"payload":' }, 400, 'invalid_json'],
    ['an empty body, correctly signed', { headers: signed('', { id: 'x' }), body: '' }, 400, 'invalid_json'],
    ['a wrong shape, correctly signed', { headers: signed('[1,2]', { id: 'x' }), body: '[1,2]' }, 422, 'invalid_event'],
    ['an event without identifier, correctly signed', (() => {
      const b = JSON.stringify({ serviceId: 1, payload: { ...(JSON.parse(body) as { payload: object }).payload, identifier: undefined } });
      return { headers: signed(b, { id: 'evt_refused' }), body: b };
    })(), 422, 'invalid_event'],
  ];

  it.each(cases)('refuses %s', async (_name, r, status, counter) => {
    const h = await start();
    const reply = await send(h.url, r);
    expect(reply.status).toBe(status);
    expect(reply.json()).toMatchObject({ ok: false });
    if (status === 405) expect(reply.headers['allow']).toBeTruthy();
    expect(h.calls).toHaveLength(0);
    expect(h.receiver.counters()).toMatchObject({ refused: 1, [`refused.${counter}`]: 1, stored: 0 });
    expect(h.logs).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'webhook request refused', status }));
  });

  it.each(cases.filter(([name]) => name !== 'an unsigned delivery'))('refuses %s with standard-webhooks pinned', async (_name, r, status, counter) => {
    const h = await start({ method: 'standard-webhooks' });
    const reply = await send(h.url, r);
    expect(reply.status).toBe(status);
    expect(h.calls).toHaveLength(0);
    expect(h.receiver.counters()).toMatchObject({ refused: 1, [`refused.${counter}`]: 1, stored: 0 });
  });

  it('refuses an unsigned delivery with standard-webhooks pinned, saying signature headers are missing', async () => {
    const h = await start({ method: 'standard-webhooks' });
    const reply = await send(h.url, { headers: { 'content-type': 'application/json', 'x-webhook-secret': SECRET }, body });
    expect(reply.status).toBe(401);
    expect(h.receiver.counters()).toMatchObject({ refused: 1, 'refused.missing_signature_headers': 1 });
  });

  it('refuses a correctly signed body that is not valid UTF-8, with 400', async () => {
    const h = await start();
    // Decoded lossily, each of these would become a valid event with U+FFFD in a field the provider never sent.
    const invalid = [Buffer.from([0xff, 0xfe]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xe2, 0x82])];
    for (const bytes of invalid) {
      const b = Buffer.concat([Buffer.from('{"eventId":"evt_bytes","type":"pix","category":"'), bytes, Buffer.from('"}')]);
      const reply = await send(h.url, { headers: signed(b, { id: 'evt_bytes' }), body: b });
      expect(reply.status).toBe(400);
      expect(reply.json()).toEqual({ ok: false, error: 'invalid UTF-8' });
    }
    expect(h.calls).toHaveLength(0);
    expect(h.receiver.counters()).toMatchObject({ refused: invalid.length, 'refused.invalid_utf_8': invalid.length });
    // Valid multi-byte text still passes.
    const good = Buffer.from('{"eventId":"evt_utf8","type":"pix","category":"São Paulo – ✓ 🎉"}', 'utf8');
    expect((await send(h.url, { headers: signed(good, { id: 'evt_utf8' }), body: good })).status).toBe(200);
    expect(h.calls[0]?.event).toMatchObject({ eventId: 'evt_utf8', category: 'São Paulo – ✓ 🎉' });
  });

  it('says which field makes an event invalid', async () => {
    const h = await start();
    const b = JSON.stringify({ eventId: 'e', category: 'c' });
    const reply = await send(h.url, { headers: signed(b, { id: 'e' }), body: b });
    expect(reply.json()).toEqual({ ok: false, error: 'invalid event: type must be a string' });
  });

  it('refuses an oversized delivery by its Content-Length without reading it', async () => {
    const h = await start();
    const big = JSON.stringify({ eventId: 'e', type: 't', category: 'c', pad: 'x'.repeat(300 * 1024) });
    const reply = await send(h.url, { headers: signed(big, { id: 'e' }), body: big });
    expect(reply.status).toBe(413);
    expect(reply.headers['connection']).toBe('close');
    expect(h.calls).toHaveLength(0);
    expect(h.receiver.counters()['refused.body_too_large']).toBe(1);
  });

  it('accepts a body of exactly the limit', async () => {
    const h = await start({ maxBodyBytes: 2048 });
    const base = JSON.stringify({ eventId: 'e', type: 't', category: 'c', pad: '' });
    const exact = base.replace('"pad":""', `"pad":"${'x'.repeat(2048 - base.length)}"`);
    expect(Buffer.byteLength(exact)).toBe(2048);
    expect((await send(h.url, { headers: signed(exact, { id: 'e' }), body: exact })).status).toBe(200);
  });

  it('stops reading a chunked body once it passes the limit and hangs up', async () => {
    const h = await start({ maxBodyBytes: 4096 });
    const result = await new Promise<{ status: number; closed: boolean; written: number }>((resolve, reject) => {
      const req = request(h.url, { method: 'POST', headers: { ...signed('{}', { id: 'e' }), 'transfer-encoding': 'chunked' }, agent: false });
      let written = 0;
      let status = 0;
      const timer = setInterval(() => {
        if (req.destroyed || written > 10 * 1024 * 1024) return;
        req.write(Buffer.alloc(1024, 0x20));
        written += 1024;
      }, 1);
      req.on('response', (res) => {
        status = res.statusCode ?? 0;
        res.resume();
      });
      req.on('close', () => {
        clearInterval(timer);
        resolve({ status, closed: true, written });
      });
      req.on('error', () => {}); // the server hangs up while we are still writing
      setTimeout(() => {
        clearInterval(timer);
        reject(new Error('the server kept reading'));
      }, 5_000).unref();
    });
    expect(result.status).toBe(413);
    expect(result.closed).toBe(true);
    expect(result.written).toBeLessThan(10 * 1024 * 1024);
    expect(h.calls).toHaveLength(0);
    expect(h.receiver.counters()['refused.body_too_large']).toBe(1);
  });
});

describe('webhook receiver: Expect: 100-continue', () => {
  function sendExpecting(url: string, headers: OutgoingHttpHeaders, body: string): Promise<{ status: number; bodySent: boolean }> {
    return new Promise((resolve, reject) => {
      let bodySent = false;
      const req = request(url, { method: 'POST', headers: { ...headers, expect: '100-continue' }, agent: false });
      req.on('continue', () => {
        bodySent = true;
        req.end(body);
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bodySent }));
      });
      req.on('error', reject);
      req.flushHeaders();
    });
  }

  it('asks for the body of a delivery it will read', async () => {
    const h = await start();
    const body = pixEventBody('evt_continue');
    expect(await sendExpecting(h.url, { ...signed(body), 'content-length': Buffer.byteLength(body) }, body)).toEqual({ status: 200, bodySent: true });
    expect(h.calls).toHaveLength(1);
  });

  it('refuses an oversized delivery before its body is sent', async () => {
    const h = await start({ maxBodyBytes: 1024 });
    const body = 'x'.repeat(2000);
    expect(await sendExpecting(h.url, { ...signed(body, { id: 'e' }), 'content-length': 2000 }, body)).toEqual({ status: 413, bodySent: false });
    expect(h.calls).toHaveLength(0);
  });
});

describe('webhook receiver: methods besides Standard Webhooks', () => {
  const secret = 'correct-horse-battery-staple';
  const body = pixEventBody('evt_shared');
  const basic = (password: string) => `Basic ${Buffer.from(`provider:${password}`).toString('base64')}`;
  const hmacHex = (key: string, b: string) => createHmac('sha256', key).update(b).digest('hex');

  it.each([
    ['the secret in x-webhook-secret', { 'x-webhook-secret': secret }, 200, 'header'],
    ['the secret in the named header', { 'x-provider-token': secret }, 200, 'header'],
    ['HTTP Basic auth', { authorization: basic(secret) }, 200, 'basic'],
    ['a Bearer token', { authorization: `Bearer ${secret}` }, 200, 'bearer'],
    ['an HMAC-SHA256 of the body', { 'x-signature': hmacHex(secret, body) }, 200, 'hmac'],
    ['Standard Webhooks headers', signed(body, { secret }), 200, 'standard-webhooks'],
    ['a wrong secret header', { 'x-webhook-secret': 'wrong' }, 401, null],
    ['a wrong secret in the named header', { 'x-provider-token': 'wrong' }, 401, null],
    ['a wrong Basic password', { authorization: basic('wrong') }, 401, null],
    ['a wrong Bearer token', { authorization: 'Bearer wrong' }, 401, null],
    ['an HMAC of another body', { 'x-signature': hmacHex(secret, `${body} `) }, 401, null],
    ['no credentials', {}, 401, null],
  ])('auto, with %s', async (_name, headers, status, method) => {
    const h = await start({ secret, header: 'X-Provider-Token' });
    const reply = await send(h.url, { headers: { 'content-type': 'application/json', ...headers }, body });
    expect(reply.status).toBe(status);
    if (status === 200) {
      expect(h.calls).toHaveLength(1);
      expect(h.calls[0]?.event.eventId).toBe('evt_shared');
      expect(h.calls[0]?.meta.deliveryId).toBe(method === 'standard-webhooks' ? 'evt_shared' : null);
      const health = (await send(h.url, { path: '/healthz', method: 'GET' })).json() as { verification: unknown };
      expect(health.verification).toEqual({ setting: 'auto', detected: [method] });
    } else {
      expect(h.calls).toHaveLength(0);
    }
  });

  it.each([
    ['the secret header', { 'x-provider-token': secret }, 200],
    ['HTTP Basic auth', { authorization: basic(secret) }, 401],
    ['the secret in another secret header', { 'x-webhook-secret': secret }, 401],
    ['a wrong secret header', { 'x-provider-token': 'wrong' }, 401],
    ['no credentials', {}, 401],
    ['Standard Webhooks headers instead', signed(body, { secret }), 401],
  ])('pinned to header with a named header, with %s', async (_name, headers, status) => {
    const h = await start({ method: 'header', secret, header: 'X-Provider-Token' });
    const reply = await send(h.url, { headers: { 'content-type': 'application/json', ...headers }, body });
    expect(reply.status).toBe(status);
    expect(h.calls).toHaveLength(status === 200 ? 1 : 0);
  });

  it('pinned to header without a named header, reads the well-known secret headers', async () => {
    const h = await start({ method: 'header', secret });
    const reply = await send(h.url, { headers: { 'content-type': 'application/json', 'x-webhook-secret': secret }, body });
    expect(reply.status).toBe(200);
  });

  it('pinned to basic, refuses the other methods', async () => {
    const h = await start({ method: 'basic', secret });
    for (const headers of [{ 'x-webhook-secret': secret }, { authorization: `Bearer ${secret}` }, signed(body, { secret })]) {
      expect((await send(h.url, { headers: { 'content-type': 'application/json', ...headers }, body })).status).toBe(401);
    }
    expect((await send(h.url, { headers: { 'content-type': 'application/json', authorization: basic(secret) }, body })).status).toBe(200);
    expect(h.calls).toHaveLength(1);
  });

  it('logs the method that proved deliveries once per method, telling how to pin it', async () => {
    const h = await start({ secret });
    const headers = { 'content-type': 'application/json', 'x-webhook-secret': secret };
    await send(h.url, { headers, body: pixEventBody('evt_a') });
    await send(h.url, { headers, body: pixEventBody('evt_b') });
    await send(h.url, { headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` }, body: pixEventBody('evt_c') });
    await send(h.url, { headers, body: pixEventBody('evt_d') });
    const pins = h.logs.filter((e) => String(e.msg).startsWith('webhook deliveries are proved by'));
    expect(pins).toEqual([
      { level: 'info', event: 'webhook_proof_found', msg: 'webhook deliveries are proved by header; pin it with: paybatch config set webhookVerification header', method: 'header' },
      { level: 'info', event: 'webhook_proof_found', msg: 'webhook deliveries are proved by bearer; pin it with: paybatch config set webhookVerification bearer', method: 'bearer' },
    ]);
    expect(h.calls).toHaveLength(4);
  });

  it('does not log a method before a delivery proves it, nor when the method is pinned', async () => {
    const auto = await start({ secret });
    await send(auto.url, { headers: { 'content-type': 'application/json', 'x-webhook-secret': 'wrong' }, body });
    const pinned = await start({ method: 'header', secret });
    await send(pinned.url, { headers: { 'content-type': 'application/json', 'x-webhook-secret': secret }, body });
    expect([...auto.logs, ...pinned.logs].filter((e) => String(e.msg).startsWith('webhook deliveries are proved by'))).toEqual([]);
    const health = (await send(pinned.url, { path: '/healthz', method: 'GET' })).json() as { verification: unknown };
    expect(health.verification).toEqual({ setting: 'header', detected: ['header'] });
  });
});

describe('webhook receiver: operations', () => {
  it('answers /healthz with its counters and the verification setting', async () => {
    const h = await start();
    await send(h.url, { path: '/nope', method: 'GET' });
    const reply = await send(h.url, { path: '/healthz', method: 'GET' });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({
      ok: true,
      counters: { received: 0, stored: 0, duplicate: 0, failed: 0, refused: 1, 'refused.not_found': 1 },
      verification: { setting: 'auto', detected: [] },
    });
    expect((await send(h.url, { path: '/healthz', method: 'HEAD' })).status).toBe(200);
  });

  it('lists in /healthz each method seen, in the order first seen', async () => {
    const h = await start();
    const a = pixEventBody('evt_h1');
    await send(h.url, { headers: signed(a), body: a });
    const b = pixEventBody('evt_h2');
    await send(h.url, { headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`u:${SECRET}`).toString('base64')}` }, body: b });
    await send(h.url, { headers: signed(b), body: b });
    const reply = (await send(h.url, { path: '/healthz', method: 'GET' })).json() as { verification: unknown };
    expect(reply.verification).toEqual({ setting: 'auto', detected: ['standard-webhooks', 'basic'] });
  });

  it('never logs the secret, a signature or a shared-secret password', async () => {
    const shared = 'shared-password-xyz';
    const h1 = await start();
    const h2 = await start({ method: 'header', secret: shared });
    const h3 = await start({ secret: shared });
    const body = pixEventBody('evt_log');
    const headers = signed(body);
    await send(h1.url, { headers, body });
    await send(h1.url, { headers, body: `${body} ` });
    await send(h1.url, { headers: signed(body, { timestamp: 1 }), body });
    await send(h1.url, { headers: { ...headers, 'webhook-signature': 'oops' }, body });
    await send(h2.url, { headers: { 'content-type': 'application/json', 'x-webhook-secret': shared }, body });
    await send(h2.url, { headers: { 'content-type': 'application/json', 'x-webhook-secret': `${shared}!` }, body });
    for (const authorization of [`Bearer ${shared}`, `Bearer ${shared}!`, `Basic ${Buffer.from(`u:${shared}`).toString('base64')}`, shared]) {
      await send(h3.url, { headers: { 'content-type': 'application/json', authorization }, body });
    }
    await send(h3.url, { headers: { 'content-type': 'application/json', 'x-signature': createHmac('sha256', shared).update(body).digest('hex') }, body });
    const text = JSON.stringify([...h1.logs, ...h2.logs, ...h3.logs]);
    expect(h1.logs.length + h2.logs.length + h3.logs.length).toBeGreaterThan(12);
    expect(text).toContain('webhook deliveries are proved by bearer');
    expect(text).not.toContain(SECRET.slice(6, 16));
    expect(text).not.toContain(String(headers['webhook-signature']).slice(3, 15));
    expect(text).not.toContain(shared);
  });

  it('refuses to start with an unusable secret or header name', async () => {
    const onEvent = async () => 'stored' as const;
    for (const method of ['auto', 'standard-webhooks', 'header', 'basic'] as const) {
      await expect(startReceiver({ host: '127.0.0.1', port: 0, method, secret: '', onEvent })).rejects.toThrow(ConfigError);
      await expect(startReceiver({ host: '127.0.0.1', port: 0, method, secret: 'whsec_not base64!', onEvent })).rejects.toThrow(/base64/);
    }
    await expect(startReceiver({ host: '127.0.0.1', port: 0, method: 'header', header: 'x token', secret: 'ok-secret', onEvent })).rejects.toThrow(
      /header name/,
    );
  });

  it('hangs up on a client that sends its headers too slowly (slow loris), with 408', async () => {
    const h = await start({ requestTimeoutMs: 300 });
    const started = Date.now();
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(h.receiver.port, '127.0.0.1', () => socket.write('POST /webhooks HTTP/1.1\r\nHost: x\r\nContent-Type: appl'));
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    // By the 300 ms given, not the 10 s default: generous for a loaded machine, still far below the default.
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(h.receiver.counters()['refused.request_timeout']).toBe(1);
  });

  it('hangs up on a client that sends its body too slowly, without calling onEvent', async () => {
    const h = await start({ requestTimeoutMs: 300 });
    const body = pixEventBody('evt_loris');
    const headers = signed(body);
    const head = [
      'POST /webhooks HTTP/1.1',
      'Host: x',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${String(v)}`),
      `Content-Length: ${Buffer.byteLength(body)}`,
      '',
      '',
    ].join('\r\n');
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(h.receiver.port, '127.0.0.1', () => socket.write(head + body.slice(0, 10)));
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(h.calls).toHaveLength(0);
  });

  it('answers 400 to a request it cannot parse', async () => {
    const h = await start();
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(h.receiver.port, '127.0.0.1', () => socket.write('BLAH\x00 / HTTP/9\r\n\r\n'));
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(h.receiver.counters()['refused.malformed_request']).toBe(1);
  });

  it('closes gracefully: stops accepting, lets the delivery in flight finish, then resolves', async () => {
    const gate = deferred<'stored'>();
    const entered = deferred<void>();
    const h = await start({
      onEvent: () => {
        entered.resolve();
        return gate.promise;
      },
    });
    const body = pixEventBody('evt_inflight');
    const reply = send(h.url, { headers: signed(body), body });
    await entered.promise;
    // Whether close() resolved while the delivery was still in flight, noted when it resolves, not after a pause.
    let inFlight = true;
    let closedInFlight: boolean | null = null;
    const closing = h.receiver.close().then(() => (closedInFlight = inFlight));
    // close() stops accepting at once (the listener closes before close() first waits for anything).
    await expect(send(h.url, { path: '/healthz', method: 'GET' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(closedInFlight).toBeNull();
    inFlight = false;
    gate.resolve('stored');
    const answered = await reply;
    expect(answered.status).toBe(200);
    expect(answered.headers['connection']).toBe('close');
    await closing;
    expect(closedInFlight).toBe(false);
  });

  it('close() is idempotent and needs no timer when idle, even with keep-alive connections open', async () => {
    const h = await start();
    await new Promise<void>((resolve, reject) => {
      const req = request(new URL('/healthz', h.url), { method: 'GET', headers: { connection: 'keep-alive' } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
    // Timers frozen: close() cannot wait for its grace period's cut nor for the keep-alive timeout. It must end by
    // closing the idle connection itself. (node:timers/promises stays real: the test's own deadline.)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const deadline = new AbortController();
    try {
      const closing = Promise.all([h.receiver.close(), h.receiver.close()]).then(() => 'closed');
      const open = sleep(20_000, 'still open after 20 s', { signal: deadline.signal });
      expect(await Promise.race([closing, open])).toBe('closed');
    } finally {
      deadline.abort();
      vi.useRealTimers();
    }
  });
});
