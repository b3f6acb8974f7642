import { createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';
import type { ClientRequest, OutgoingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../../src/daemon/webhook-receiver.js';
import type { RunningReceiver } from '../../src/daemon/webhook-receiver.js';
import { signStandardWebhook } from '../../src/domain/webhook-proof.js';

// Thousands of random requests against one running receiver. A failure prints fast-check's seed and path; set
// FC_SEED (and FC_PATH) to replay it.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const NOW_MS = 1_714_000_000_000;
const NOW_S = NOW_MS / 1000;
const MAX_BODY = 2048;
const HTTP_RUNS = Number(process.env['FC_RUNS'] ?? 4000);
const RAW_RUNS = 1000;
const seed = process.env['FC_SEED'] === undefined ? undefined : Number(process.env['FC_SEED']);
const path = process.env['FC_PATH'];

let receiver: RunningReceiver;
let agent: Agent;
/** Every onEvent call, in order; requests are sent one at a time, so a request's calls are the ones it added. */
const calls: string[] = [];
let thrown = 0;

beforeAll(async () => {
  agent = new Agent({ keepAlive: true, maxSockets: 1 });
  receiver = await startReceiver({
    host: '127.0.0.1',
    port: 0,
    method: 'auto',
    secret: SECRET,
    maxBodyBytes: MAX_BODY,
    requestTimeoutMs: 2_000,
    now: () => NOW_MS,
    onEvent: async (event) => {
      calls.push(event.eventId);
      if (event.eventId.startsWith('boom')) {
        thrown++;
        throw new Error('injected storage failure');
      }
      return calls.indexOf(event.eventId) === calls.length - 1 ? 'stored' : 'duplicate';
    },
  });
});

afterAll(async () => {
  agent.destroy();
  await receiver.close();
});

// --- what a request is made of -------------------------------------------------------------------------------

const eventId = fc.oneof(fc.constantFrom('evt_1', 'evt_2', 'evt_3', 'boom_1'), fc.string({ minLength: 1, maxLength: 20 }));

/** Events that parse: the accepting path must be exercised too. */
const validEvent = fc.oneof(
  fc.record({
    serviceId: fc.integer({ min: 1, max: 9999 }),
    payload: fc.record({
      id: fc.string({ minLength: 1, maxLength: 20 }).map((s) => `pix_${s}`),
      eventId,
      identifier: fc.uuid(),
      amount: fc.integer({ min: 1, max: 10_000_000 }),
      endToEndId: fc.option(fc.string({ minLength: 1, maxLength: 32 })),
      isRefund: fc.boolean(),
      transactionAccepted: fc.boolean(),
      transactionStatus: fc.constantFrom('approved', 'rejected'),
      reason: fc.option(fc.constantFrom('AB03 - Timeout', 'MD06 - Refund requested by the receiver')),
      timestamp: fc.constant(String(NOW_S)),
    }),
  }),
  fc.record({
    serviceId: fc.constant('4821'),
    eventId,
    type: fc.constantFrom('bill_payment', 'pix'),
    category: fc.constantFrom('bill_paid', 'bill_return'),
    timestamp: fc.constant(String(NOW_S)),
    detail: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 })),
  }),
);

/** Events with missing or mistyped fields. */
const pixEvent = fc.record({
  serviceId: fc.oneof(fc.integer(), fc.string()),
  payload: fc.record(
    {
      id: fc.string({ maxLength: 20 }),
      eventId,
      identifier: fc.oneof(fc.uuid(), fc.string({ maxLength: 10 })),
      amount: fc.oneof(fc.integer({ min: -5, max: 1_000_000 }), fc.double(), fc.string({ maxLength: 5 })),
      endToEndId: fc.option(fc.string({ maxLength: 32 })),
      isRefund: fc.oneof(fc.boolean(), fc.constant('true')),
      transactionAccepted: fc.boolean(),
      transactionStatus: fc.constantFrom('approved', 'rejected', 'weird'),
      reason: fc.option(fc.constantFrom('AB03 - Timeout', 'MD06 - Refund requested by the receiver')),
      timestamp: fc.oneof(fc.constant(String(NOW_S)), fc.integer({ min: 0 }), fc.string({ maxLength: 5 })),
    },
    { requiredKeys: [] },
  ),
});

const callbackEvent = fc.record(
  {
    serviceId: fc.string({ maxLength: 5 }),
    eventId,
    type: fc.constantFrom('bill_payment', 'pix', 'ted'),
    category: fc.constantFrom('bill_paid', 'bill_return', 'other'),
    timestamp: fc.oneof(fc.string({ maxLength: 12 }), fc.integer()),
    title: fc.option(fc.string({ maxLength: 20 })),
    detail: fc.oneof(fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 })), fc.jsonValue({ maxDepth: 1 })),
  },
  { requiredKeys: ['eventId'] },
);

const body = fc.oneof(
  { weight: 3, arbitrary: validEvent.map((v) => Buffer.from(JSON.stringify(v))) },
  { weight: 2, arbitrary: fc.oneof(pixEvent, callbackEvent).map((v) => Buffer.from(JSON.stringify(v))) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 600 }).map((b) => Buffer.from(b)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }).map((s) => Buffer.from(s)) },
  // Over the size limit.
  { weight: 1, arbitrary: fc.integer({ min: MAX_BODY + 1, max: MAX_BODY * 2 }).map((n) => Buffer.alloc(n, 0x7b)) },
);

// `auto` is the receiver's default: besides Standard Webhooks, deliveries prove the secret in a header, as a Bearer
// token or by an HMAC of the body (right and wrong).
type Signing =
  | 'correct'
  | 'none'
  | 'wrong-secret'
  | 'stale'
  | 'tampered'
  | 'other-id'
  | 'random'
  | 'secret-header'
  | 'bearer'
  | 'hmac'
  | 'wrong-secret-header'
  | 'hmac-tampered';
const signing = fc.constantFrom<Signing>(
  'correct',
  'correct',
  'correct',
  'none',
  'wrong-secret',
  'stale',
  'tampered',
  'other-id',
  'random',
  'secret-header',
  'bearer',
  'hmac',
  'wrong-secret-header',
  'hmac-tampered',
);
const VERIFIABLE: ReadonlySet<Signing> = new Set(['correct', 'secret-header', 'bearer', 'hmac']);

const request_ = fc.record({
  method: fc.oneof(
    { weight: 8, arbitrary: fc.constant('POST') },
    { weight: 2, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD') },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,8}$/) },
  ),
  path: fc.oneof(
    { weight: 8, arbitrary: fc.constant('/webhooks') },
    { weight: 1, arbitrary: fc.constantFrom('/healthz', '/', '/webhooks/', '/webhooks?x=1', '//webhooks', '/WEBHOOKS') },
    { weight: 1, arbitrary: fc.webPath() },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((s) => `/${s}`) },
  ),
  contentType: fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'application/json; charset=latin1', 'text/plain', '', 'application/jsonx') },
    { weight: 1, arbitrary: fc.option(fc.string({ maxLength: 40 })) },
  ) as fc.Arbitrary<string | null>,
  body,
  signing,
  timestampSkew: fc.integer({ min: -300, max: 300 }),
  deliveryId: fc.option(fc.string({ minLength: 1, maxLength: 30 })),
  randomSignatureHeaders: fc.dictionary(
    fc.constantFrom('webhook-id', 'webhook-timestamp', 'webhook-signature'),
    fc.oneof(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }).map((s) => `v1,${s}`), fc.string({ unit: 'binary', maxLength: 20 })),
  ),
  extraHeaders: fc.dictionary(fc.stringMatching(/^x-[a-z0-9-]{1,12}$/), fc.string({ maxLength: 40 }), { maxKeys: 3 }),
  // A Content-Length over the limit is refused before the body is read. (Shorter lies only make the server wait
  // for the request timeout; the raw-socket property below sends half-written requests.)
  declaredLength: fc.oneof({ weight: 19, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.integer({ min: MAX_BODY + 1, max: MAX_BODY * 4 }) }),
});

type FuzzRequest = typeof request_ extends fc.Arbitrary<infer T> ? T : never;

function headersFor(r: FuzzRequest): { headers: OutgoingHttpHeaders; body: Buffer; verifiable: boolean; honestLength: boolean } {
  const headers: OutgoingHttpHeaders = { ...r.extraHeaders };
  if (r.contentType !== null) headers['content-type'] = r.contentType;
  const id = r.deliveryId ?? 'msg_fuzz';
  const timestamp = NOW_S + r.timestampSkew;
  const sign = (secret: string, ts: number, b: Buffer): void => {
    headers['webhook-id'] = id;
    headers['webhook-timestamp'] = String(ts);
    headers['webhook-signature'] = signStandardWebhook(secret, id, ts, b);
  };
  let sent = r.body;
  switch (r.signing) {
    case 'correct':
      sign(SECRET, timestamp, r.body);
      break;
    case 'none':
      break;
    case 'wrong-secret':
      sign('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', timestamp, r.body);
      break;
    case 'stale':
      sign(SECRET, NOW_S + (r.timestampSkew < 0 ? -301 : 301) + r.timestampSkew, r.body);
      break;
    case 'tampered':
      sign(SECRET, timestamp, r.body);
      sent = Buffer.concat([r.body, Buffer.from(' ')]);
      break;
    case 'other-id':
      sign(SECRET, timestamp, r.body);
      headers['webhook-id'] = `${id}x`;
      break;
    case 'random':
      Object.assign(headers, r.randomSignatureHeaders);
      break;
    case 'secret-header':
      headers['x-webhook-secret'] = SECRET;
      break;
    case 'bearer':
      headers['authorization'] = `Bearer ${SECRET}`;
      break;
    case 'hmac':
      headers['x-signature'] = createHmac('sha256', SECRET).update(r.body).digest('hex');
      break;
    case 'wrong-secret-header':
      headers['x-webhook-secret'] = `${SECRET}x`;
      break;
    case 'hmac-tampered':
      headers['x-signature'] = createHmac('sha256', SECRET).update(r.body).digest('hex');
      sent = Buffer.concat([r.body, Buffer.from(' ')]);
      break;
  }
  // Node's client frames no body for OPTIONS and the like unless told its length: the bytes would reach the server
  // as the next request on the connection.
  headers['content-length'] = String(r.declaredLength ?? sent.length);
  return { headers, body: sent, verifiable: VERIFIABLE.has(r.signing), honestLength: r.declaredLength === null };
}

interface Outcome {
  status: number | null;
  /** Set when the client library refused to build the request (invalid header or path): nothing was sent. */
  clientRefused?: string;
  transportError?: string;
}

function sendRaw(method: string, pathname: string, headers: OutgoingHttpHeaders, body: Buffer, ownConnection = false): Promise<Outcome> {
  return new Promise((resolve) => {
    let req: ClientRequest;
    try {
      req = request({ host: '127.0.0.1', port: receiver.port, method, path: pathname, headers, agent: ownConnection ? false : agent, timeout: 5_000 });
    } catch (error) {
      resolve({ status: null, clientRefused: (error as NodeJS.ErrnoException).code ?? String(error) });
      return;
    }
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      res.on('error', (error) => resolve({ status: res.statusCode ?? 0, transportError: error.message }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: null, transportError: `${error.code ?? ''} ${error.message}` }));
    // A body longer than its declared length makes Node's client throw.
    try {
      req.end(body);
    } catch (error) {
      req.destroy();
      resolve({ status: null, clientRefused: (error as NodeJS.ErrnoException).code ?? String(error) });
    }
  });
}

async function healthy(): Promise<boolean> {
  const outcome = await sendRaw('GET', '/healthz', {}, Buffer.alloc(0));
  return outcome.status === 200;
}

describe('webhook receiver under random input', () => {
  it(`answers ${HTTP_RUNS} random requests, applying only correctly signed events and never failing on its own`, async () => {
    const tally = { sent: 0, clientRefused: 0, transport: 0, accepted: 0, byStatus: {} as Record<number, number> };
    await fc.assert(
      fc.asyncProperty(request_, async (r) => {
        const { headers, body, verifiable, honestLength } = headersFor(r);
        const callsBefore = calls.length;
        const thrownBefore = thrown;
        // A request that declares more bytes than it sends would have the connection's next request read as its
        // body: it gets a connection of its own.
        const outcome = await sendRaw(r.method, r.path, headers, body, !honestLength);
        if (outcome.clientRefused !== undefined) {
          tally.clientRefused++;
          expect(outcome.clientRefused).toMatch(/^ERR_/);
          expect(calls.length).toBe(callsBefore);
          return;
        }
        tally.sent++;
        const newCalls = calls.length - callsBefore;
        const threw = thrown > thrownBefore;
        if (outcome.status !== null) tally.byStatus[outcome.status] = (tally.byStatus[outcome.status] ?? 0) + 1;
        if (newCalls > 0) tally.accepted++;

        // Nothing unverifiable reaches onEvent, and at most one call per delivery.
        if (!verifiable) expect(newCalls).toBe(0);
        expect(newCalls).toBeLessThanOrEqual(1);
        // A request that lies about its length may be cut off by either side; anything else gets an answer.
        if (outcome.status === null) {
          tally.transport++;
          expect(honestLength, outcome.transportError).toBe(false);
          return;
        }
        // 5xx only when onEvent threw (the provider should retry); otherwise 2xx only after onEvent ran.
        if (threw) expect(outcome.status).toBe(500);
        else expect(outcome.status).toBeLessThan(500);
        const health = r.path.split('?')[0] === '/healthz' && ['GET', 'HEAD'].includes(r.method);
        if (outcome.status >= 200 && outcome.status < 300 && !health) {
          expect(newCalls).toBe(1);
        }
      }),
      { numRuns: HTTP_RUNS, seed, path, endOnFailure: true },
    );
    expect(await healthy()).toBe(true);
    // The run did exercise the accepting path and each kind of refusal, not just one of them.
    const seen = JSON.stringify(tally);
    expect(tally.accepted, seen).toBeGreaterThan(HTTP_RUNS / 50);
    for (const status of [400, 401, 404, 405, 413, 415, 422]) expect(tally.byStatus[status] ?? 0, seen).toBeGreaterThan(HTTP_RUNS / 200);
    const counters = receiver.counters();
    expect(counters['stored']! + counters['duplicate']!).toBe(tally.accepted - (counters['failed'] ?? 0));
  });

  it(`survives ${RAW_RUNS} connections of raw random bytes and half-written requests`, async () => {
    const prefix = fc.constantFrom('', 'POST /webhooks HTTP/1.1\r\n', 'GET /healthz HTTP/1.1\r\nHost: x\r\n', 'POST /webhooks HTTP/1.1\r\nContent-Length: 5\r\n\r\n');
    await fc.assert(
      fc.asyncProperty(prefix, fc.uint8Array({ maxLength: 400 }), fc.boolean(), async (head, bytes, endEarly) => {
        const callsBefore = calls.length;
        await new Promise<void>((resolve) => {
          const socket = connect(receiver.port, '127.0.0.1', () => {
            socket.write(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(bytes)]));
            if (endEarly) socket.end();
            else setTimeout(() => socket.end(), 5);
          });
          socket.setTimeout(5_000, () => socket.destroy());
          socket.on('data', () => {});
          socket.on('error', () => {});
          socket.on('close', () => resolve());
        });
        expect(calls.length).toBe(callsBefore);
      }),
      { numRuns: RAW_RUNS, seed, path, endOnFailure: true },
    );
    expect(await healthy()).toBe(true);
  });
});
