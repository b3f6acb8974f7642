import { describe, expect, it } from 'vitest';
import { signStandardWebhook, verifyDelivery } from '../../src/domain/webhook-proof.js';
import type { DeliveryInput as VerifyInput, VerifyResult } from '../../src/domain/webhook-proof.js';

// The receiver's verification pinned to one method at a time; test/domain/webhook-proof.test.ts covers every method
// and `auto` table by table.
const verifyStandardWebhook = (input: VerifyInput, secret: string, toleranceSeconds?: number): VerifyResult =>
  verifyDelivery(input, { secret, method: 'standard-webhooks', toleranceSeconds });
const verifySharedSecret = (input: VerifyInput, secret: string, header: string): VerifyResult =>
  verifyDelivery(input, { secret, method: 'header', header });
const verifyBasic = (input: VerifyInput, secret: string): VerifyResult => verifyDelivery(input, { secret, method: 'basic' });

// The Standard Webhooks reference vector (standard-webhooks/standard-webhooks, libraries/javascript/src/webhook.test.ts,
// "sign function works").
const REF = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

function input(headers: VerifyInput['headers'], body: string = REF.body, nowSeconds = REF.timestamp): VerifyInput {
  return { headers, rawBody: Buffer.from(body, 'utf8'), nowSeconds };
}

function refHeaders(signature = REF.signature): Record<string, string> {
  return { 'webhook-id': REF.id, 'webhook-timestamp': String(REF.timestamp), 'webhook-signature': signature };
}

describe('signStandardWebhook', () => {
  it('reproduces the Standard Webhooks reference vector', () => {
    expect(signStandardWebhook(REF.secret, REF.id, REF.timestamp, REF.body)).toBe(REF.signature);
    expect(signStandardWebhook(REF.secret, REF.id, REF.timestamp, Buffer.from(REF.body))).toBe(REF.signature);
  });

  it('uses the UTF-8 bytes of a secret without the whsec_ prefix', () => {
    const a = signStandardWebhook('plain-secret-123', 'id', 1, 'body');
    expect(a).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(a).not.toBe(signStandardWebhook('plain-secret-124', 'id', 1, 'body'));
  });
});

describe('verifyStandardWebhook', () => {
  it('accepts the reference delivery and gives the webhook-id as event id', () => {
    expect(verifyStandardWebhook(input(refHeaders()), REF.secret)).toEqual({ ok: true, method: 'standard-webhooks', eventId: REF.id });
  });

  it('accepts header arrays as node:http headersDistinct gives them', () => {
    const headers = Object.fromEntries(Object.entries(refHeaders()).map(([k, v]) => [k, [v]]));
    expect(verifyStandardWebhook(input(headers), REF.secret).ok).toBe(true);
  });

  it('accepts when one of several signatures matches, ignoring other versions and garbage', () => {
    const sigs = [
      'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=',
      'v2,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=',
      'v1,bm9wZQ==',
      'v1,not*base64',
      REF.signature,
      'v1a,whatever',
    ].join(' ');
    expect(verifyStandardWebhook(input(refHeaders(sigs)), REF.secret)).toEqual({ ok: true, method: 'standard-webhooks', eventId: REF.id });
  });

  it('accepts a delivery signed with a rotated-in key next to the old one', () => {
    const oldSig = signStandardWebhook('whsec_b2xkLW9sZC1vbGQtb2xk', REF.id, REF.timestamp, REF.body);
    expect(verifyStandardWebhook(input(refHeaders(`${oldSig} ${REF.signature}`)), REF.secret).ok).toBe(true);
  });

  it.each([
    ['wrong secret', 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', REF.body, refHeaders()],
    ['tampered body', REF.secret, '{"test": 2432232315}', refHeaders()],
    ['body with a trailing newline', REF.secret, `${REF.body}\n`, refHeaders()],
    ['another id', REF.secret, REF.body, { ...refHeaders(), 'webhook-id': 'msg_other' }],
    ['only other versions', REF.secret, REF.body, refHeaders(REF.signature.replace('v1,', 'v2,'))],
    ['a truncated signature', REF.secret, REF.body, refHeaders(REF.signature.slice(0, 20))],
    ['an empty v1', REF.secret, REF.body, refHeaders('v1,')],
  ])('refuses %s with 401', (_name, secret, body, headers) => {
    expect(verifyStandardWebhook(input(headers, body), secret)).toEqual({ ok: false, status: 401, reason: 'no signature matches' });
  });

  it('refuses a timestamp the signature was made for when the header carries another', () => {
    const headers = { ...refHeaders(), 'webhook-timestamp': String(REF.timestamp + 1) };
    expect(verifyStandardWebhook(input(headers), REF.secret)).toMatchObject({ ok: false, status: 401 });
  });

  it.each([
    ['stale', REF.timestamp + 301],
    ['future', REF.timestamp - 301],
  ])('refuses a %s timestamp beyond the tolerance', (_name, now) => {
    expect(verifyStandardWebhook(input(refHeaders(), REF.body, now), REF.secret)).toEqual({
      ok: false,
      status: 401,
      reason: 'timestamp outside tolerance',
    });
  });

  it('accepts timestamps at the edge of the tolerance, and honours a custom tolerance', () => {
    expect(verifyStandardWebhook(input(refHeaders(), REF.body, REF.timestamp + 300), REF.secret).ok).toBe(true);
    expect(verifyStandardWebhook(input(refHeaders(), REF.body, REF.timestamp - 300), REF.secret).ok).toBe(true);
    expect(verifyStandardWebhook(input(refHeaders(), REF.body, REF.timestamp + 11), REF.secret, 10).ok).toBe(false);
  });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])('refuses a delivery without %s with 401', (name) => {
    const headers: Record<string, string | undefined> = refHeaders();
    delete headers[name];
    expect(verifyStandardWebhook(input(headers), REF.secret)).toEqual({ ok: false, status: 401, reason: 'missing signature headers' });
    expect(verifyStandardWebhook(input({ ...refHeaders(), [name]: '' }), REF.secret)).toMatchObject({ status: 401 });
  });

  it.each([
    ['a non-numeric timestamp', { 'webhook-timestamp': 'hello' }, 'malformed webhook-timestamp'],
    ['a negative timestamp', { 'webhook-timestamp': '-1614265330' }, 'malformed webhook-timestamp'],
    ['a fractional timestamp', { 'webhook-timestamp': '1614265330.5' }, 'malformed webhook-timestamp'],
    ['a signature without a version', { 'webhook-signature': 'g0hM9SsE+OTPJTGt' }, 'malformed webhook-signature'],
    ['an overlong id', { 'webhook-id': 'x'.repeat(300) }, 'malformed webhook-id'],
    ['a repeated id', { 'webhook-id': ['a', 'b'] }, 'repeated signature headers'],
  ])('refuses %s with 400', (_name, override, reason) => {
    expect(verifyStandardWebhook(input({ ...refHeaders(), ...override }), REF.secret)).toEqual({ ok: false, status: 400, reason });
  });

  it('joins repeated signature headers into one list', () => {
    const headers = { ...refHeaders(), 'webhook-signature': ['v1,bm9wZQ==', REF.signature] };
    expect(verifyStandardWebhook(input(headers), REF.secret).ok).toBe(true);
  });

  it('never accepts anything with an empty secret', () => {
    const sig = signStandardWebhook('', REF.id, REF.timestamp, REF.body);
    expect(verifyStandardWebhook(input(refHeaders(sig)), '')).toMatchObject({ ok: false, status: 401 });
  });

  it('puts no secret or signature material in its reasons', () => {
    const results = [
      verifyStandardWebhook(input(refHeaders()), 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
      verifyStandardWebhook(input(refHeaders(), REF.body, 0), REF.secret),
    ];
    for (const r of results) {
      const text = JSON.stringify(r);
      expect(text).not.toContain('MfKQ9r8G');
      expect(text).not.toContain('g0hM9SsE');
    }
  });
});

describe('the secret in a header, or as HTTP Basic password (pinned)', () => {
  const secret = 's3cret-shared-value';
  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const check = (headers: VerifyInput['headers']) => verifySharedSecret(input(headers), secret, 'X-Webhook-Secret');
  const checkBasic = (headers: VerifyInput['headers']) => verifyBasic(input(headers), secret);

  it('accepts the secret in the named header (name matched case-insensitively); the event id comes from the body', () => {
    expect(check({ 'x-webhook-secret': secret })).toEqual({ ok: true, method: 'header', eventId: null });
  });

  it('accepts the secret as the password of HTTP Basic auth, whatever the user', () => {
    expect(checkBasic({ authorization: basic('provider', secret) })).toEqual({ ok: true, method: 'basic', eventId: null });
    expect(checkBasic({ authorization: basic('', secret) }).ok).toBe(true);
    expect(checkBasic({ authorization: `basic ${Buffer.from(`u:${secret}`).toString('base64')}` }).ok).toBe(true);
  });

  it.each([
    ['a wrong header secret', check, { 'x-webhook-secret': 's3cret-shared-valuE' }],
    ['a prefix of the secret', check, { 'x-webhook-secret': secret.slice(0, -1) }],
    ['the secret with more after it', check, { 'x-webhook-secret': `${secret}x` }],
    ['a wrong Basic password', checkBasic, { authorization: basic('provider', 'nope') }],
    ['the secret as the Basic user', checkBasic, { authorization: basic(secret, '') }],
    ['a wrong header even with a right Basic password', check, { 'x-webhook-secret': 'nope', authorization: basic('u', secret) }],
    ['a wrong Basic password even with a right header', checkBasic, { 'x-webhook-secret': secret, authorization: basic('u', 'nope') }],
  ])('refuses %s with 401', (_name, verify, headers) => {
    expect(verify(headers)).toEqual({ ok: false, status: 401, reason: 'wrong secret' });
  });

  it.each([
    ['no credentials', check, {}],
    ['no credentials', checkBasic, {}],
    ['the secret in another header than the named one', check, { 'x-secret': secret }],
    ['a Bearer token', checkBasic, { authorization: `Bearer ${secret}` }],
    ['HTTP Basic', check, { authorization: basic('u', secret) }],
  ])('refuses %s with 401', (_name, verify, headers) => {
    expect(verify(headers)).toEqual({ ok: false, status: 401, reason: 'missing credentials' });
  });

  it('refuses Basic credentials without a colon, and repeated headers, with 400', () => {
    expect(checkBasic({ authorization: `Basic ${Buffer.from(secret).toString('base64')}` })).toMatchObject({ ok: false, status: 400 });
    expect(check({ 'x-webhook-secret': [secret, secret] })).toMatchObject({ ok: false, status: 400 });
    expect(checkBasic({ authorization: [basic('u', secret), basic('u', secret)] })).toMatchObject({ ok: false, status: 400 });
  });

  it('never accepts anything with an empty secret', () => {
    expect(verifySharedSecret(input({ 'x-webhook-secret': '' }), '', 'x-webhook-secret').ok).toBe(false);
    expect(verifyBasic(input({ authorization: basic('u', '') }), '').ok).toBe(false);
  });
});

describe('auto', () => {
  it('accepts the reference delivery as standard-webhooks, and a header secret with Standard Webhooks headers absent', () => {
    expect(verifyDelivery(input(refHeaders()), { secret: REF.secret, method: 'auto' })).toEqual({ ok: true, method: 'standard-webhooks', eventId: REF.id });
    expect(verifyDelivery(input({ 'x-webhook-secret': REF.secret }), { secret: REF.secret, method: 'auto' })).toEqual({ ok: true, method: 'header', eventId: null });
  });

  it('accepts the right Basic password next to a wrong header: any method that proves the secret will do', () => {
    const headers = { 'x-webhook-secret': 'nope', authorization: `Basic ${Buffer.from(`u:${REF.secret}`).toString('base64')}` };
    expect(verifyDelivery(input(headers), { secret: REF.secret, method: 'auto' })).toEqual({ ok: true, method: 'basic', eventId: null });
  });

  it('refuses what standard-webhooks refuses when nothing else proves the secret', () => {
    const auto = (headers: VerifyInput['headers'], now = REF.timestamp) => verifyDelivery(input(headers, REF.body, now), { secret: REF.secret, method: 'auto' });
    expect(auto(refHeaders(), REF.timestamp + 301)).toEqual({ ok: false, status: 401, reason: 'timestamp outside tolerance' });
    expect(auto({ ...refHeaders(), 'webhook-id': 'msg_other' })).toEqual({ ok: false, status: 401, reason: 'no signature matches' });
    expect(auto({ ...refHeaders(), 'webhook-signature': 'garbage' })).toEqual({ ok: false, status: 400, reason: 'malformed webhook-signature' });
    expect(auto({})).toEqual({ ok: false, status: 401, reason: 'missing credentials' });
  });
});
