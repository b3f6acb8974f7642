import { describe, expect, it } from 'vitest';
import {
  acceptDelivery,
  checkDeliveryHead,
  routeDelivery,
  type DeliveryHeaders,
  type DeliveryPolicy,
  type DeliveryRequest,
} from '../../src/daemon/accept-delivery.js';
import { signStandardWebhook, type WebhookMethodSetting } from '../../src/domain/webhook-proof.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const NOW_MS = 1_714_000_000_000;
const NOW_S = NOW_MS / 1000;
const POLICY: DeliveryPolicy = { method: 'auto', secret: SECRET, maxBodyBytes: 1024 };

const pixBody = (eventId = 'evt_1'): string =>
  JSON.stringify({
    serviceId: 4821,
    payload: {
      id: `pix_${eventId}`,
      eventId,
      identifier: 'item-0001',
      amount: 1050,
      endToEndId: 'E12345678202404250000abcdefghijk',
      isRefund: false,
      transactionAccepted: true,
      transactionStatus: 'approved',
      reason: null,
      timestamp: String(NOW_S),
    },
  });

function signed(body: string | Buffer, o: { id?: string; timestamp?: number; secret?: string } = {}): Record<string, string> {
  const id = o.id ?? 'evt_1';
  const timestamp = o.timestamp ?? NOW_S;
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signStandardWebhook(o.secret ?? SECRET, id, timestamp, body),
  };
}

function delivery(o: { method?: string; path?: string; headers?: DeliveryHeaders; body?: string | Buffer } = {}): DeliveryRequest {
  const body = o.body === undefined ? pixBody() : o.body;
  return {
    method: o.method ?? 'POST',
    path: o.path ?? '/webhooks',
    headers: o.headers ?? signed(body),
    body: Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8'),
    now: NOW_MS,
  };
}

describe('acceptDelivery', () => {
  const body = pixBody();
  const big = JSON.stringify({ pad: 'x'.repeat(2000) });
  const noId = JSON.stringify({ serviceId: 1, payload: { ...(JSON.parse(body) as { payload: object }).payload, identifier: undefined } });
  const refusals: [string, DeliveryRequest, number, string][] = [
    ['an unknown path', delivery({ path: '/hooks' }), 404, 'not found'],
    ['a sub-path', delivery({ path: '/webhooks/1' }), 404, 'not found'],
    ['GET /webhooks', delivery({ method: 'GET' }), 405, 'method not allowed'],
    ['PUT /webhooks', delivery({ method: 'PUT' }), 405, 'method not allowed'],
    ['POST /healthz', delivery({ path: '/healthz' }), 405, 'method not allowed'],
    ['text/plain', delivery({ headers: { ...signed(body), 'content-type': 'text/plain' } }), 415, 'content type must be application/json'],
    ['no content type', delivery({ headers: { ...signed(body), 'content-type': undefined } }), 415, 'content type must be application/json'],
    ['a Latin-1 charset', delivery({ headers: { ...signed(body), 'content-type': 'application/json; charset=latin1' } }), 415, 'content type must be application/json'],
    ['a declared size above the limit', delivery({ headers: { ...signed(body), 'content-length': '1025' } }), 413, 'body too large'],
    ['a body above the limit', delivery({ body: big, headers: signed(big) }), 413, 'body too large'],
    ['an unsigned delivery', delivery({ headers: { 'content-type': 'application/json' } }), 401, 'missing credentials'],
    ['a forged delivery', delivery({ headers: signed(body, { secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }) }), 401, 'no signature matches'],
    ['a tampered body', delivery({ headers: signed(body), body: body.replace('1050', '105000') }), 401, 'no signature matches'],
    ['an expired delivery', delivery({ headers: signed(body, { timestamp: NOW_S - 301 }) }), 401, 'timestamp outside tolerance'],
    ['a malformed signature', delivery({ headers: { ...signed(body), 'webhook-signature': 'garbage' } }), 400, 'malformed webhook-signature'],
    ['bytes that are not UTF-8', delivery({ body: Buffer.from([0x7b, 0xff, 0x7d]), headers: signed(Buffer.from([0x7b, 0xff, 0x7d])) }), 400, 'invalid UTF-8'],
    ['bad JSON', delivery({ body: '{"payload":', headers: signed('{"payload":') }), 400, 'invalid JSON'],
    ['an empty body', delivery({ body: '', headers: signed('') }), 400, 'invalid JSON'],
    ['a wrong shape', delivery({ body: '[1,2]', headers: signed('[1,2]') }), 422, 'invalid event'],
    ['an event without identifier', delivery({ body: noId, headers: signed(noId) }), 422, 'invalid event'],
  ];

  it.each(refusals)('refuses %s', (_name, req, status, reason) => {
    const verdict = acceptDelivery(req, POLICY);
    expect(verdict).toMatchObject({ ok: false, status, reason });
  });

  it.each([
    ['GET /webhooks', delivery({ method: 'GET' }), 'POST'],
    ['POST /healthz', delivery({ path: '/healthz' }), 'GET, HEAD'],
  ])('says which methods %s allows', (_name, req, allow) => {
    expect(acceptDelivery(req, POLICY)).toMatchObject({ status: 405, headers: { allow } });
  });

  it('accepts a signed event, with the method that proved it and the sender delivery id', () => {
    expect(acceptDelivery(delivery(), POLICY)).toMatchObject({
      ok: true,
      event: { kind: 'pix', eventId: 'evt_1' },
      deliveryId: 'evt_1',
      proof: 'standard-webhooks',
      idMismatch: false,
    });
  });

  it('hands on the body as received, spacing and accents included', () => {
    const text = '{"eventId": "cb_7",  "type": "bill_payment", "category": "bill_paid", "detail": {"payer": "João"}}';
    expect(acceptDelivery(delivery({ body: Buffer.from(text, 'utf8'), headers: signed(text, { id: 'cb_7' }) }), POLICY)).toMatchObject({ ok: true, body: text });
  });

  it.each<[string, WebhookMethodSetting, Record<string, string>, 'ok' | number]>([
    ['auto, shared secret header', 'auto', { 'content-type': 'application/json', 'x-webhook-secret': SECRET }, 'ok'],
    ['header pinned, shared secret header', 'header', { 'content-type': 'application/json', 'x-webhook-secret': SECRET }, 'ok'],
    ['standard-webhooks pinned, shared secret header', 'standard-webhooks', { 'content-type': 'application/json', 'x-webhook-secret': SECRET }, 401],
    ['bearer pinned, bearer token', 'bearer', { 'content-type': 'application/json', authorization: `Bearer ${SECRET}` }, 'ok'],
  ])('%s', (_name, method, headers, expected) => {
    const verdict = acceptDelivery(delivery({ headers }), { ...POLICY, method });
    if (expected === 'ok') expect(verdict).toMatchObject({ ok: true });
    else expect(verdict).toMatchObject({ ok: false, status: expected });
  });

  it('notes a delivery id that differs from the eventId (the eventId is the dedupe key)', () => {
    expect(acceptDelivery(delivery({ headers: signed(body, { id: 'msg_other' }) }), POLICY)).toMatchObject({
      ok: true,
      deliveryId: 'msg_other',
      idMismatch: true,
    });
  });

  it('refusals after the proof carry the delivery id and the method; those before it carry neither', () => {
    expect(acceptDelivery(delivery({ body: '[1]', headers: signed('[1]', { id: 'evt_9' }) }), POLICY)).toMatchObject({
      deliveryId: 'evt_9',
      proof: 'standard-webhooks',
      detail: expect.any(String),
    });
    const before = acceptDelivery(delivery({ headers: { 'content-type': 'application/json' } }), POLICY);
    expect(before).toMatchObject({ deliveryId: null });
    expect(before).not.toHaveProperty('proof');
  });

  it('accepts a body of exactly the limit', () => {
    const exact = JSON.stringify({ eventId: 'e', type: 'pix', category: 'c', pad: '' });
    const padded = exact.replace('"pad":""', `"pad":"${'x'.repeat(1024 - exact.length)}"`);
    expect(Buffer.byteLength(padded)).toBe(1024);
    expect(acceptDelivery(delivery({ body: padded, headers: signed(padded, { id: 'e' }) }), POLICY)).toMatchObject({ ok: true });
  });
});

describe('the checks the receiver makes before reading a body', () => {
  it.each([
    ['POST', '/webhooks', null],
    ['GET', '/webhooks', 405],
    ['POST', '/', 404],
    ['DELETE', '/healthz', 405],
  ] as const)('routeDelivery(%s %s) → %s', (method, path, status) => {
    const r = routeDelivery(method, path);
    if (status === null) expect(r).toBeNull();
    else expect(r).toMatchObject({ status });
  });

  it.each([
    [{ 'content-type': 'application/json' }, null],
    [{ 'content-type': 'application/json; charset=UTF-8' }, null],
    [{ 'content-type': ['application/json'] }, null],
    [{ 'content-type': 'application/json', 'content-length': '1024' }, null],
    [{ 'content-type': 'application/json', 'content-length': '1025' }, 413],
    [{ 'content-type': 'application/x-www-form-urlencoded' }, 415],
    [{}, 415],
  ] as [DeliveryHeaders, number | null][])('checkDeliveryHead(%j) → %s', (headers, status) => {
    const r = checkDeliveryHead(headers, 1024);
    if (status === null) expect(r).toBeNull();
    else expect(r).toMatchObject({ status });
  });
});
