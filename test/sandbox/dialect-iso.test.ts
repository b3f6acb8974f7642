import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildBankBarcode, buildCollectionBarcode, lineOf as line } from '../helpers/boleto.js';
import { resolveOptions } from '../../src/sandbox/options.js';
import type { SandboxOptions } from '../../src/sandbox/server.js';
import { admin, Client, eventually, itemFor, Receiver, sandbox, type Delivery } from './helpers.js';
import { nthCpf } from './documents.js';

/**
 * The `iso` dialect: upper-case states, ISO 20022 error codes, decimal reais, São Paulo ISO date-times, standard
 * base64 cursors, short tokens, rate limits and HMAC deliveries over timestamp and nonce. Every expected value here
 * is written out from those rules, not taken from src/sandbox/dialect-iso.ts.
 */

/** Monday 2025-03-10, 10:00 in São Paulo (13:00 UTC): the bank window is open. */
const MONDAY_10H = '2025-03-10T10:00:00-03:00';
const MONDAY_10H_UNIX = 1_741_611_600;
/** So slow that nothing happens unless the test moves the clock (1 simulated ms per real second). */
const FROZEN = 0.001;
const SECRET = 'iso-dialect-secret';
/** Every account starts with R$ 10.000.000,00. */
const INITIAL_BALANCE = '10000000.00';
/** Final rejection codes of the SPI (ISO 20022) and the instability family that is refunded. */
const REJECTION_CODES = ['AC03', 'AC06', 'AC07', 'AC14', 'AG03', 'AM02', 'AM04', 'AM09', 'BE01', 'BE17', 'CH11', 'DS27', 'RR04', 'SL02'];
const INSTABILITY_CODES = ['AB03', 'AB09', 'AB11', 'ED05'];
const REAIS = /^\d+\.\d\d$/;
const SAO_PAULO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-03:00$/;
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$/;
const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)$/;

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

/** An iso sandbox with its webhook receiver; faults off and a long token unless the test says otherwise. */
async function setUp(options: SandboxOptions = {}) {
  const s = await sandbox({ dialect: 'iso', faults: '', tokenTtlSeconds: 600, speed: FROZEN, startTime: MONDAY_10H, ...options });
  const client = new Client(s);
  const receiver = await new Receiver(SECRET).start();
  receivers.push(receiver);
  const subscribed = await client.post('/subscribe/event', { url: receiver.url, secret: SECRET });
  expect(subscribed.status).toBe(201);
  const advance = (seconds: number) => admin(s, 'POST', '/clock/advance', { seconds });
  return { s, client, receiver, advance };
}

/** A batch of three items sent as reais three ways: a number, a text, and an integer (which is reais too). */
async function addThree(client: Client) {
  const batch = (await client.post('/pix/batch', { name: 'iso' })).body;
  const amounts = [110.07, '110.00', 1107];
  const items = await Promise.all(amounts.map(async (amount, i) => ({ ...(await itemFor(client, nthCpf(i + 1), 1, `iso-${i + 1}`)), amount })));
  const added = await client.post(`/pix/batch/${batch.id}/items`, items);
  expect(added.status).toBe(200);
  const list = async () => (await client.get(`/pix/batch/${batch.id}/items`)).body.data as any[];
  return { batch, added: added.body.data as any[], list };
}

async function startThree(client: Client) {
  const three = await addThree(client);
  const started = await client.post(`/pix/batch/${three.batch.id}/start-process`);
  expect(started.body).toMatchObject({ id: three.batch.id, status: 'PROCESSING' });
  return three;
}

async function allItems(list: () => Promise<any[]>, status: string): Promise<any[]> {
  return eventually(async () => {
    const items = await list();
    return items.every((i) => i.status === status) ? items : undefined;
  }, 10_000, `items ${status}`);
}

const deliveries = (r: Receiver, n: number): Promise<Delivery[]> => eventually(() => (r.deliveries.length >= n ? r.deliveries.slice(0, n) : undefined), 10_000, `${n} deliveries`);
const payloads = (ds: readonly Delivery[], status: string) => ds.map((d) => d.json.payload).filter((p) => p.transactionStatus === status);
const report = async (s: Parameters<typeof admin>[0]) => (await admin(s, 'GET', '/webhooks')).body;

const bank = () => buildBankBarcode({ bankCode: '237', dueDate: '2025-03-20', amountCents: 15_990, freeField: '1234567890123456789012345' });
const utility = () => buildCollectionBarcode({ segment: 3, valueId: 6, amountCents: 8_745, companyCode: '0048', freeField: '1234567890123456789012345' });

describe('choosing iso', () => {
  it('brings its defaults: 20-second tokens and low rates of 429s and webhook faults, which an explicit --faults replaces', () => {
    const zero = { http5xx: 0, timeout: 0, reset: 0, lostResponse: 0, r429: 0, dupWebhook: 0, reorderWebhook: 0, webhookDown: 0, lostWebhook: 0, stale: 0, instabilityReturn: 0, failed: 0, billReturn: 0 };
    const iso = resolveOptions({ dialect: 'iso' });
    expect(iso).toMatchObject({ ok: true, value: { dialect: 'iso', tokenTtlSeconds: 20, faults: { ...zero, r429: 0.02, dupWebhook: 0.05, reorderWebhook: 0.05, lostWebhook: 0.02 } } });
    expect(resolveOptions({ dialect: 'iso', faults: '' })).toMatchObject({ ok: true, value: { faults: zero } });
    expect(resolveOptions({ dialect: 'iso', faults: 'none' })).toMatchObject({ ok: true, value: { faults: zero } });
    expect(resolveOptions({ dialect: 'iso', faults: 'http5xx=0.1' })).toMatchObject({ ok: true, value: { faults: { ...zero, http5xx: 0.1 } } });
    expect(resolveOptions({ dialect: 'iso', tokenTtlSeconds: 90 })).toMatchObject({ ok: true, value: { tokenTtlSeconds: 90 } });
    // The other dialects keep theirs.
    expect(resolveOptions({})).toMatchObject({ ok: true, value: { tokenTtlSeconds: 3600, faults: zero } });
    expect(resolveOptions({ dialect: 'spec' })).toMatchObject({ ok: true, value: { tokenTtlSeconds: 3600, faults: zero } });
    expect(resolveOptions({ dialect: 'nope' as never })).toEqual({ ok: false, error: '--dialect must be paybatch, spec or iso' });
  });
});

describe('iso: OAuth', () => {
  it('issues tokens that expire after 20 seconds, with expires_in as text', async () => {
    // Token lifetimes run on the real clock (Date.now): the test moves that clock instead of waiting.
    const realNow = Date.now.bind(Date);
    let ahead = 0;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + ahead);
    try {
      const s = await sandbox({ dialect: 'iso', faults: '' });
      const res = await fetch(s.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: s.clientId, client_secret: s.clientSecret }).toString(),
      });
      expect(await res.json()).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: '20' });
      const client = new Client(s);
      expect((await client.get('/pix/batch')).status).toBe(200);
      ahead = 19_000;
      expect((await client.get('/pix/batch')).status).toBe(200);
      ahead = 21_000;
      const expired = await client.get('/pix/batch');
      expect(expired.status).toBe(401);
      expect(expired.body.error.code).toBe('token_expired');
    } finally {
      clock.mockRestore();
    }
  });
});

describe('iso: amounts in requests are reais', () => {
  it('reads an item amount as a number or decimal text in reais (1107 is R$ 1.107,00) and answers decimal text', async () => {
    const { client } = await setUp();
    const { added, list } = await addThree(client);
    expect(added.map((i) => i.amount)).toEqual(['110.07', '110.00', '1107.00']);
    expect((await list()).map((i) => i.amount)).toEqual(['110.07', '110.00', '1107.00']);
  });

  it('refuses amounts that are not reais above zero with two decimals at most, naming each field', async () => {
    const { client } = await setUp();
    const batch = (await client.post('/pix/batch', { name: 'bad' })).body;
    const good = await itemFor(client, nthCpf(1), 1, 'good-1');
    const res = await client.post(`/pix/batch/${batch.id}/items`, [
      { ...good, identifier: 'a-1', amount: 10.555 },
      { ...good, identifier: 'a-2', amount: '11,07' },
      { ...good, identifier: 'a-3', amount: 0 },
      { ...good, identifier: 'a-4', amount: -5 },
      { ...good, identifier: 'a-5', amount: true },
      { ...good, identifier: 'a-6', amount: undefined },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { field: '[0].amount', problem: expect.stringContaining('more than two decimal places') },
      { field: '[1].amount', problem: expect.stringContaining('not a decimal number of reais') },
      { field: '[2].amount', problem: 'must be greater than zero' },
      { field: '[3].amount', problem: expect.stringContaining('negative') },
      { field: '[4].amount', problem: 'must be a number of reais, like 123.45 or "123.45"' },
      { field: '[5].amount', problem: 'is required' },
    ]);
  });
});

describe('iso: Pix batches', () => {
  it('words items PROCESSING → LIQUIDATED and batches PENDING → PROCESSING → COMPLETED, with the Pix ids apart from the item id', async () => {
    const { s, client, advance } = await setUp();
    const { batch, added, list } = await addThree(client);
    expect(batch).toEqual({ id: expect.any(String), name: 'iso', status: 'PENDING', quantityItems: 0, timestamp: MONDAY_10H_UNIX, type: 'pix' });
    for (const item of added) {
      expect(item).toEqual({
        id: item.itemId, itemId: expect.any(String), status: 'PROCESSING', description: expect.any(String), to: expect.any(Object),
        amount: expect.stringMatching(REAIS), identifier: expect.any(String), pixId: null, transactionId: null, endToEndId: null,
        errorCode: null, errorMessage: null, updatedAt: expect.stringMatching(/^2025-03-10T10:00:00\.\d{3}-03:00$/),
      });
    }

    await client.post(`/pix/batch/${batch.id}/start-process`);
    expect((await client.get('/pix/batch')).body.data[0]).toMatchObject({ id: batch.id, status: 'PROCESSING', quantityItems: 3 });
    const started = await list();
    for (const item of started) {
      expect(item.status).toBe('PROCESSING');
      // The Pix has its ids from the moment it is accepted: an end-to-end id of the payer's ISPB, 13:00 UTC.
      expect(item.pixId).toEqual(expect.any(String));
      expect(item.transactionId).toEqual(expect.any(String));
      expect(item.endToEndId).toMatch(/^E99999999202503101300[0-9a-z]{11}$/i);
      expect(new Set([item.id, item.pixId, item.transactionId]).size).toBe(3);
    }

    await advance(10);
    const paid = await allItems(list, 'LIQUIDATED');
    expect(paid.map((i) => [i.pixId, i.transactionId, i.endToEndId])).toEqual(started.map((i) => [i.pixId, i.transactionId, i.endToEndId]));
    expect(paid.map((i) => i.updatedAt)).toEqual(paid.map(() => expect.stringMatching(/^2025-03-10T10:00:0\d\.\d{3}-03:00$/)));
    expect((await client.get('/pix/batch')).body.data[0].status).toBe('COMPLETED');
    expect((await client.post(`/pix/batch/${batch.id}/start-process`)).body.status).toBe('COMPLETED');
    for (const item of paid) expect((await client.get(`/pix/${item.pixId}/receipt`)).status).toBe(200);
    expect((await client.get(`/pix/${paid[0].id}/receipt`)).status).toBe(404);
    expect(s.dialect).toBe('iso');
  });

  it('tells acceptance first (PROCESSING, transactionAccepted, not paid), then LIQUIDATED, with the same Pix ids and amounts in reais', async () => {
    const { client, receiver, advance } = await setUp();
    const { list } = await startThree(client);
    const items = await list();
    const accepted = (await deliveries(receiver, 3)).map((d) => d.json);
    expect(payloads(receiver.deliveries, 'LIQUIDATED')).toEqual([]);
    for (const event of accepted) {
      const item = items.find((i) => i.identifier === event.payload.identifier);
      expect(event).toEqual({ serviceId: expect.any(Number), payload: expect.any(Object) });
      expect(event.payload).toMatchObject({
        id: item.pixId, transactionId: item.transactionId, endToEndId: item.endToEndId, identifier: item.identifier,
        amount: item.amount, fee: '0.00', balanceAfter: INITIAL_BALANCE, timestamp: String(MONDAY_10H_UNIX), eventTimestamp: String(MONDAY_10H_UNIX),
        type: 'output', category: 'pix_out', transactionStatus: 'PROCESSING', transactionType: 'debit', transactionAccepted: true, isRefund: false,
        to: item.to, reason: null, errorCode: null, errorMessage: null,
      });
      expect(Object.keys(event.payload)).toEqual(expect.arrayContaining(['eventId', 'serviceId', 'title', 'subtitle', 'description', 'from', 'delayNotify', 'deviceType', 'txId', 'extraInfo']));
      expect(event.payload).not.toHaveProperty('itemId');
      expect(event.payload).not.toHaveProperty('batchId');
    }

    await advance(10);
    const all = await deliveries(receiver, 6);
    const liquidated = payloads(all.slice(3), 'LIQUIDATED');
    expect(liquidated).toHaveLength(3);
    for (const payload of liquidated) {
      const item = items.find((i) => i.identifier === payload.identifier);
      expect(payload).toMatchObject({
        id: item.pixId, transactionId: item.transactionId, endToEndId: item.endToEndId, amount: item.amount, fee: '0.00',
        balanceAfter: expect.stringMatching(REAIS), transactionAccepted: true, isRefund: false, reason: null, errorCode: null, errorMessage: null,
      });
      expect(payload.eventId).not.toBe(accepted.find((e) => e.payload.identifier === payload.identifier).payload.eventId);
    }
  });

  it('words failed items CANCELED with the ISO 20022 code in errorCode and the text in errorMessage, on pages and events', async () => {
    const { client, receiver, advance } = await setUp({ faults: 'failed=1' });
    const { list } = await startThree(client);
    await advance(10);
    const canceled = await allItems(list, 'CANCELED');
    for (const item of canceled) {
      expect(REJECTION_CODES).toContain(item.errorCode);
      expect(item.errorMessage).toEqual(expect.any(String));
      expect(item.errorMessage).not.toContain(item.errorCode);
      expect(item).not.toHaveProperty('reason');
      expect(item.pixId).toEqual(expect.any(String));
    }
    const events = await deliveries(receiver, 6);
    expect(payloads(events, 'PROCESSING')).toHaveLength(3);
    for (const payload of payloads(events, 'CANCELED')) {
      const item = canceled.find((i) => i.identifier === payload.identifier);
      expect(payload).toMatchObject({
        id: item.pixId, transactionId: item.transactionId, transactionAccepted: false, isRefund: false,
        errorCode: item.errorCode, errorMessage: item.errorMessage, reason: null, amount: item.amount,
      });
    }
  });

  it('words instability returns REFUNDED, with a refund event of its own Pix id carrying the code apart', async () => {
    const { client, receiver, advance } = await setUp({ faults: 'instabilityReturn=1' });
    const { list } = await startThree(client);
    // Each step's events are delivered before the clock moves on, so they arrive in order.
    await deliveries(receiver, 3);
    await advance(10);
    await allItems(list, 'LIQUIDATED');
    await deliveries(receiver, 6);
    await advance(70);
    const refunded = await allItems(list, 'REFUNDED');
    const events = await deliveries(receiver, 9);
    for (const item of refunded) {
      expect(INSTABILITY_CODES).toContain(item.errorCode);
      expect(item.errorMessage).not.toMatch(/^[A-Z]{2}\d\d/);
      const mine = events.map((d) => d.json.payload).filter((p) => p.identifier === item.identifier);
      expect(mine.map((p) => p.transactionStatus)).toEqual(['PROCESSING', 'LIQUIDATED', 'REFUNDED']);
      const [, payment, refund] = mine;
      expect(payment).toMatchObject({ id: item.pixId, errorCode: null });
      expect(refund).toMatchObject({
        isRefund: true, type: 'input', category: 'pix_in', transactionType: 'credit', amount: item.amount,
        errorCode: item.errorCode, errorMessage: item.errorMessage, reason: null,
      });
      expect(refund.id).not.toBe(item.pixId);
      expect((await client.get(`/pix/${refund.id}/receipt`)).status).toBe(200);
    }
  });
});

describe('iso: pagination', () => {
  it('answers at most 20 per page whatever is configured or asked, with standard base64 cursors that must be percent-encoded', async () => {
    const { client } = await setUp({ pageSize: 50 });
    for (let i = 0; i < 23; i++) await client.post('/pix/batch', { name: `b${i}` });
    const first = await client.get('/pix/batch?limit=100&pageSize=100&size=100');
    expect(first.body.data).toHaveLength(20);
    const cursor: string = first.body.cursor;
    expect(cursor).toMatch(STANDARD_BASE64);
    expect(cursor).toContain('+');
    expect(cursor).toContain('/');
    expect(Buffer.from(cursor, 'base64').toString('base64')).toBe(cursor);

    const second = await client.get(`/pix/batch/${encodeURIComponent(cursor)}`);
    expect(second.status).toBe(200);
    expect(second.body.data.map((b: { name: string }) => b.name)).toEqual(['b20', 'b21', 'b22']);
    expect(second.body.cursor).toBeNull();
    // Sent raw, the "/" splits the path: no such route.
    expect((await client.get(`/pix/batch/${cursor}`)).status).toBe(404);
    // Read as base64url, it is not this provider's cursor.
    const urlSafe = cursor.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect((await client.get(`/pix/batch/${urlSafe}`)).status).toBe(400);
  });

  it('pages items 20 at a time and refuses a cursor of another batch', async () => {
    const { client } = await setUp({ pageSize: 500 });
    const [one, two] = [(await client.post('/pix/batch', { name: 'one' })).body, (await client.post('/pix/batch', { name: 'two' })).body];
    const template = await itemFor(client, nthCpf(1), 1, 'p-0');
    await client.post(`/pix/batch/${one.id}/items`, Array.from({ length: 25 }, (_, i) => ({ ...template, identifier: `p-${i}` })));
    const first = await client.get(`/pix/batch/${one.id}/items`);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.cursor).toMatch(STANDARD_BASE64);
    const next = await client.get(`/pix/batch/${one.id}/items/${encodeURIComponent(first.body.cursor)}`);
    expect(next.body.data.map((i: { identifier: string }) => i.identifier)).toEqual(['p-20', 'p-21', 'p-22', 'p-23', 'p-24']);
    expect(next.body.cursor).toBeNull();
    expect((await client.get(`/pix/batch/${two.id}/items/${encodeURIComponent(first.body.cursor)}`)).status).toBe(400);
  });
});

describe('iso: rate limiting', () => {
  /** The Retry-After of `n` calls to a sandbox that answers 429 to all. */
  async function retryAfters(seed: number, n: number): Promise<string[]> {
    const s = await sandbox({ dialect: 'iso', seed, faults: 'r429=1', tokenTtlSeconds: 600 });
    const client = new Client(s);
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await client.get('/pix/batch');
      expect(res.status).toBe(429);
      expect(res.body.error.code).toBe('rate_limited');
      out.push(res.headers.get('retry-after') ?? '');
    }
    return out;
  }

  it('answers 429 with Retry-After in seconds or as an HTTP date, drawn from the seed', async () => {
    const before = Date.now();
    const values = await retryAfters(7, 12);
    const after = Date.now();
    const seconds = values.filter((v) => /^\d+$/.test(v));
    const dates = values.filter((v) => HTTP_DATE.test(v));
    expect(seconds.length + dates.length).toBe(12);
    expect(seconds.length).toBeGreaterThan(0);
    expect(dates.length).toBeGreaterThan(0);
    for (const v of seconds) expect(Number(v)).toBeGreaterThanOrEqual(1);
    for (const v of seconds) expect(Number(v)).toBeLessThanOrEqual(3);
    for (const v of dates) {
      // 1 to 3 whole seconds after the next full second: in the future, never more than 4 s ahead.
      expect(Date.parse(v)).toBeGreaterThan(before);
      expect(Date.parse(v)).toBeLessThanOrEqual(after + 4_000);
    }
    const again = await retryAfters(7, 12);
    expect(again.map((v) => (HTTP_DATE.test(v) ? 'date' : v))).toEqual(values.map((v) => (HTTP_DATE.test(v) ? 'date' : v)));
  });

  it('limits now and then by default, and never when faults are off', async () => {
    const count429 = async (options: SandboxOptions) => {
      const client = new Client(await sandbox({ dialect: 'iso', tokenTtlSeconds: 600, seed: 7, ...options }));
      let limited = 0;
      for (let i = 0; i < 100; i++) if ((await client.get('/pix/batch')).status === 429) limited++;
      return limited;
    };
    const byDefault = await count429({});
    expect(byDefault).toBeGreaterThan(0);
    expect(byDefault).toBeLessThan(10);
    expect(await count429({ faults: 'none' })).toBe(0);
  });
});

describe('iso: webhook deliveries', () => {
  const hmac = (d: Delivery, secret = SECRET) =>
    createHmac('sha256', secret).update(`${String(d.headers['x-webhook-timestamp'])}.${String(d.headers['x-webhook-nonce'])}.${d.body}`).digest('hex');

  it('signs timestamp.nonce.body with hex HMAC-SHA256, the timestamp in milliseconds and a nonce per attempt', async () => {
    const before = Date.now();
    const { client, receiver } = await setUp();
    await startThree(client);
    const sent = await deliveries(receiver, 3);
    const after = Date.now();
    for (const d of sent) {
      const timestamp = Number(d.headers['x-webhook-timestamp']);
      expect(d.headers['x-webhook-timestamp']).toMatch(/^\d{13}$/);
      expect(timestamp).toBeGreaterThanOrEqual(before);
      expect(timestamp).toBeLessThanOrEqual(after);
      expect(d.headers['x-webhook-signature']).toMatch(/^[0-9a-f]{64}$/);
      expect(d.headers['x-webhook-signature']).toBe(hmac(d));
      expect(d.headers['x-webhook-signature']).not.toBe(hmac(d, 'another-secret'));
      expect(d.headers['webhook-signature']).toBeUndefined();
      expect(d.headers['x-service-secret']).toBeUndefined();
    }
    expect(new Set(sent.map((d) => d.headers['x-webhook-nonce'])).size).toBe(3);
  });

  it('takes any secret of 8 characters or more as the HMAC key, as given', async () => {
    const { client } = await setUp();
    const short = await client.post('/subscribe/event', { url: 'http://127.0.0.1:9/hooks', secret: 'short' });
    expect(short.status).toBe(400);
    const odd = await client.post('/subscribe/event', { url: 'http://127.0.0.1:9/hooks', secret: 'whsec_not base64!' });
    expect(odd.status).toBe(201);
    expect(odd.body).toEqual({ id: expect.any(String), url: 'http://127.0.0.1:9/hooks', createdAt: expect.stringMatching(/^2025-03-10T10:00:00\.\d{3}-03:00$/) });
  });

  it('duplicates events when dupWebhook draws them: the same event, a new nonce and signature', async () => {
    const { client, receiver, advance } = await setUp({ faults: 'dupWebhook=1' });
    await startThree(client);
    // Copies follow 0.5–5 s after the first delivery: move past the settling (1–5 s) and past the last copy.
    await advance(10);
    await advance(10);
    const sent = await deliveries(receiver, 12);
    const copies = new Map<string, number>();
    for (const d of sent) copies.set(d.json.payload.eventId, (copies.get(d.json.payload.eventId) ?? 0) + 1);
    expect([...copies.values()]).toEqual([2, 2, 2, 2, 2, 2]);
    expect(new Set(sent.map((d) => d.headers['x-webhook-nonce'])).size).toBe(12);
    for (const d of sent) expect(d.headers['x-webhook-signature']).toBe(hmac(d));
  });

  it('holds events back 5–30 s when reorderWebhook draws them, so that later ones can overtake', async () => {
    const { s, client, receiver, advance } = await setUp({ faults: 'reorderWebhook=1' });
    await startThree(client);
    const held = (await report(s)).deliveries;
    expect(held).toHaveLength(3);
    for (const d of held) {
      expect(d.status).toBe('pending');
      const wait = Date.parse(d.nextAttemptAt) - Date.parse(MONDAY_10H);
      expect(wait).toBeGreaterThanOrEqual(5_000);
      expect(wait).toBeLessThanOrEqual(30_100);
    }
    await advance(31);
    expect((await deliveries(receiver, 3)).map((d) => d.json.payload.transactionStatus)).toEqual(['PROCESSING', 'PROCESSING', 'PROCESSING']);
  });

  it('loses events when lostWebhook draws them: never delivered, while the pages still tell the outcome', async () => {
    const { s, client, receiver, advance } = await setUp({ faults: 'lostWebhook=1' });
    const { list } = await startThree(client);
    await advance(10);
    await allItems(list, 'LIQUIDATED');
    const rep = await report(s);
    expect(rep.deliveries).toHaveLength(6);
    expect(rep.deliveries.every((d: { status: string; attempts: number }) => d.status === 'lost' && d.attempts === 0)).toBe(true);
    expect(rep.summary.lost).toBe(6);
    expect(receiver.deliveries).toEqual([]);
  });
});

describe('iso: bills and other answers', () => {
  it('answers bill details by GET or POST with amounts as decimal text and plain dates', async () => {
    const { client } = await setUp({ speed: 1 });
    const code = line(bank());
    for (const answer of [await client.get(`/cashout/boleto/details/${code}`), await client.post(`/cashout/boleto/details/${code}`)]) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        assignor: 'Banco Bradesco S.A.', settledate: '2025-03-10', discount: expect.stringMatching(REAIS), maxValue: answer.body.amount,
        minValue: answer.body.amount, beneficiary: expect.any(String), canChangeAmount: false, amount: expect.stringMatching(REAIS),
        interest: '0.00', originalAmount: '159.90', typefulLine: code, beneficiaryDocument: expect.any(String), dueDate: '2025-03-20',
      });
    }
  });

  it('pays with the amount as text or number in reais, answers amounts as text and a São Paulo ISO timestamp, and tells it so', async () => {
    const { client, receiver } = await setUp({ speed: 1 });
    const code = bank();
    const { amount } = (await client.get(`/cashout/boleto/details/${code}`)).body;
    const paid = await client.post('/cashout/boleto', { amount, code });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      status: 'paid', settleDate: '2025-03-10', timestamp: expect.stringMatching(/^2025-03-10T10:0\d:\d\d\.\d{3}-03:00$/),
      amountPaid: amount, amount, dueDate: '2025-03-20', transactionId: expect.any(String),
    });
    const event = await eventually(() => receiver.deliveries[0]?.json);
    expect(event).toMatchObject({
      category: 'bill_paid', timestamp: expect.stringMatching(SAO_PAULO_TIME),
      detail: { transactionId: paid.body.transactionId, typefulLine: line(code), amount, settleDate: '2025-03-10' },
    });

    const other = utility();
    const due = (await client.get(`/cashout/boleto/details/${other}`)).body.amount;
    const byNumber = await client.post('/cashout/boleto', { amount: Number(due), code: other });
    expect(byNumber.status).toBe(200);
    expect(byNumber.body.amountPaid).toBe(due);
  });

  it('creates with 201 and deletes with a bare 202', async () => {
    const { client } = await setUp();
    const created = await client.post('/pix/batch', { name: 'gone' });
    expect(created.status).toBe(201);
    const item = (await client.post(`/pix/batch/${created.body.id}/items`, [{ ...(await itemFor(client, nthCpf(1), 1, 'd-1')), amount: '1.50' }])).body.data[0];
    expect(item.amount).toBe('1.50');
    expect(await client.del(`/pix/batch/${created.body.id}/items/${item.itemId}`)).toMatchObject({ status: 202, body: null });
    expect(await client.del(`/pix/batch/${created.body.id}`)).toMatchObject({ status: 202, body: null });
  });
});
