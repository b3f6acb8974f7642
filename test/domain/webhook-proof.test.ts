import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  parseWebhookMethodSetting,
  SECRET_HEADERS,
  signStandardWebhook,
  verifyDelivery,
  WEBHOOK_METHODS,
  webhookKeyCandidates,
  webhookSecretProblem,
} from '../../src/domain/webhook-proof.js';
import type { DeliveryInput, VerifyOptions, WebhookMethod } from '../../src/domain/webhook-proof.js';

const NOW = 1_714_000_000;
const BODY = Buffer.from('{"eventId":"evt_1","type":"pix","category":"paid"}', 'utf8');
const TEXT_SECRET = 'correct-horse-battery-staple';
const WHSEC_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const B64_SECRET = Buffer.from('secret-key-bytes-123456').toString('base64');

type Headers = Record<string, string>;

/** A way a provider proves the secret. `headers` builds a delivery of `body` signed at `ts` with `secret`. */
interface Form {
  name: string;
  method: WebhookMethod;
  secret: string;
  /** The setting webhookSecretHeader, for forms that use a header of the user's choosing. */
  header?: string;
  /** Carries a signed timestamp: stale ones must be refused. */
  timestamped: boolean;
  /** The signature covers the body: a tampered body must be refused. */
  coversBody: boolean;
  headers(secret: string, body: Buffer, ts: number): Headers;
}

const hmac = (algorithm: 'sha256' | 'sha1', key: Buffer | string, ...parts: (string | Buffer)[]): Buffer => {
  const h = createHmac(algorithm, key);
  for (const part of parts) h.update(part);
  return h.digest();
};
const utf8 = (secret: string): Buffer => Buffer.from(secret, 'utf8');
const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const standard = (key: (secret: string) => Buffer) => (secret: string, body: Buffer, ts: number): Headers => ({
  'webhook-id': 'msg_1',
  'webhook-timestamp': String(ts),
  'webhook-signature': `v1,${hmac('sha256', key(secret), `msg_1.${ts}.`, body).toString('base64')}`,
});

const FORMS: Form[] = [
  // Standard Webhooks, with each form of key.
  { name: 'standard-webhooks, whsec_ key', method: 'standard-webhooks', secret: WHSEC_SECRET, timestamped: true, coversBody: true, headers: (s, b, ts) => ({ 'webhook-id': 'msg_1', 'webhook-timestamp': String(ts), 'webhook-signature': signStandardWebhook(s, 'msg_1', ts, b) }) },
  { name: 'standard-webhooks, base64-decoded key', method: 'standard-webhooks', secret: B64_SECRET, timestamped: true, coversBody: true, headers: standard((s) => Buffer.from(s, 'base64')) },
  { name: 'standard-webhooks, UTF-8 key', method: 'standard-webhooks', secret: TEXT_SECRET, timestamped: true, coversBody: true, headers: standard(utf8) },
  { name: 'standard-webhooks, UTF-8 key of a base64 secret', method: 'standard-webhooks', secret: B64_SECRET, timestamped: true, coversBody: true, headers: standard(utf8) },
  // An HMAC of the body in a signature header.
  { name: 'hmac-sha256 hex, x-signature', method: 'hmac', secret: TEXT_SECRET, timestamped: false, coversBody: true, headers: (s, b) => ({ 'x-signature': hmac('sha256', s, b).toString('hex') }) },
  { name: 'hmac-sha256 upper-case hex, signature', method: 'hmac', secret: TEXT_SECRET, timestamped: false, coversBody: true, headers: (s, b) => ({ signature: hmac('sha256', s, b).toString('hex').toUpperCase() }) },
  { name: 'hmac-sha256 base64, x-webhook-signature', method: 'hmac', secret: TEXT_SECRET, timestamped: false, coversBody: true, headers: (s, b) => ({ 'x-webhook-signature': hmac('sha256', s, b).toString('base64') }) },
  { name: 'hmac-sha256 base64url, x-payload-signature', method: 'hmac', secret: TEXT_SECRET, timestamped: false, coversBody: true, headers: (s, b) => ({ 'x-payload-signature': hmac('sha256', s, b).toString('base64url') }) },
  { name: 'hmac-sha256 sha256=hex, x-hub-signature-256', method: 'hmac', secret: TEXT_SECRET, timestamped: false, coversBody: true, headers: (s, b) => ({ 'x-hub-signature-256': `sha256=${hmac('sha256', s, b).toString('hex')}` }) },
  { name: 'hmac-sha1 sha1=hex, x-hub-signature', method: 'hmac', secret: TEXT_SECRET, timestamped: false, coversBody: true, headers: (s, b) => ({ 'x-hub-signature': `sha1=${hmac('sha1', s, b).toString('hex')}` }) },
  { name: 'hmac-sha1 base64, x-openpix-signature', method: 'hmac', secret: TEXT_SECRET, timestamped: false, coversBody: true, headers: (s, b) => ({ 'x-openpix-signature': hmac('sha1', s, b).toString('base64') }) },
  { name: 'hmac-sha256 hex, base64-decoded key', method: 'hmac', secret: B64_SECRET, timestamped: false, coversBody: true, headers: (s, b) => ({ 'x-signature': hmac('sha256', Buffer.from(s, 'base64'), b).toString('hex') }) },
  { name: 'hmac-sha256 hex, whsec_ key', method: 'hmac', secret: WHSEC_SECRET, timestamped: false, coversBody: true, headers: (s, b) => ({ 'x-signature': hmac('sha256', Buffer.from(s.slice(6), 'base64'), b).toString('hex') }) },
  { name: 'hmac-sha256 hex, named header', method: 'hmac', secret: TEXT_SECRET, header: 'X-Provider-Sig', timestamped: false, coversBody: true, headers: (s, b) => ({ 'x-provider-sig': hmac('sha256', s, b).toString('hex') }) },
  { name: 'sha256 of <secret>-<body>, x-authenticity-token', method: 'hmac', secret: TEXT_SECRET, timestamped: false, coversBody: true, headers: (s, b) => ({ 'x-authenticity-token': createHash('sha256').update(`${s}-`).update(b).digest('hex') }) },
  // Timestamped HMACs.
  { name: 't=,v1= (Stripe-like), payzu-signature', method: 'hmac', secret: TEXT_SECRET, timestamped: true, coversBody: true, headers: (s, b, ts) => ({ 'payzu-signature': `t=${ts},v1=${hmac('sha256', s, `${ts}.`, b).toString('hex')}` }) },
  { name: 't=,v1= (Stripe-like), named header', method: 'hmac', secret: TEXT_SECRET, header: 'Stripe-Signature', timestamped: true, coversBody: true, headers: (s, b, ts) => ({ 'stripe-signature': `t=${ts},v1=${hmac('sha256', s, `${ts}.`, b).toString('hex')}` }) },
  { name: 'hmac over ts.body, x-webhook-timestamp in seconds', method: 'hmac', secret: TEXT_SECRET, timestamped: true, coversBody: true, headers: (s, b, ts) => ({ 'x-webhook-timestamp': String(ts), 'x-webhook-signature': hmac('sha256', s, `${ts}.`, b).toString('hex') }) },
  { name: 'hmac over ts.nonce.body, timestamp in milliseconds (PayZu)', method: 'hmac', secret: TEXT_SECRET, timestamped: true, coversBody: true, headers: (s, b, ts) => ({ 'x-webhook-timestamp': String(ts * 1000), 'x-webhook-nonce': 'n0nce', 'x-webhook-signature': hmac('sha256', s, `${ts * 1000}.n0nce.`, b).toString('hex') }) },
  // The secret itself.
  ...SECRET_HEADERS.map((name): Form => ({ name: `secret in ${name}`, method: 'header', secret: TEXT_SECRET, timestamped: false, coversBody: false, headers: (s) => ({ [name]: s }) })),
  { name: 'secret in a named header', method: 'header', secret: TEXT_SECRET, header: 'X-Provider-Token', timestamped: false, coversBody: false, headers: (s) => ({ 'x-provider-token': s }) },
  { name: 'secret as the whole authorization value', method: 'header', secret: TEXT_SECRET, timestamped: false, coversBody: false, headers: (s) => ({ authorization: s }) },
  { name: 'whsec_ secret in x-webhook-secret', method: 'header', secret: WHSEC_SECRET, timestamped: false, coversBody: false, headers: (s) => ({ 'x-webhook-secret': s }) },
  { name: 'HTTP Basic password', method: 'basic', secret: TEXT_SECRET, timestamped: false, coversBody: false, headers: (s) => ({ authorization: basic('provider', s) }) },
  { name: 'HTTP Basic password, empty user, lower-case scheme', method: 'basic', secret: TEXT_SECRET, timestamped: false, coversBody: false, headers: (s) => ({ authorization: basic('', s).replace('Basic', 'basic') }) },
  { name: 'Bearer token', method: 'bearer', secret: TEXT_SECRET, timestamped: false, coversBody: false, headers: (s) => ({ authorization: `Bearer ${s}` }) },
];

function input(headers: DeliveryInput['headers'], body: Buffer = BODY, nowSeconds = NOW): DeliveryInput {
  return { headers, rawBody: body, nowSeconds };
}

function options(form: Form, method: VerifyOptions['method'] = 'auto'): VerifyOptions {
  return { secret: form.secret, method, header: form.header };
}

/** The secret with one character changed (a near miss, same length and form). */
function nearMiss(secret: string): string {
  const i = secret.length - 5;
  return secret.slice(0, i) + (secret[i] === 'A' ? 'B' : 'A') + secret.slice(i + 1);
}

const withTimestamp = FORMS.filter((f) => f.timestamped);
const coveringBody = FORMS.filter((f) => f.coversBody);

describe('verifyDelivery: each method and form', () => {
  it.each(FORMS)('accepts $name with auto, naming the method', (form) => {
    const result = verifyDelivery(input(form.headers(form.secret, BODY, NOW)), options(form));
    expect(result).toEqual({ ok: true, method: form.method, eventId: form.method === 'standard-webhooks' ? 'msg_1' : null });
  });

  it.each(FORMS)('accepts $name with its method pinned', (form) => {
    expect(verifyDelivery(input(form.headers(form.secret, BODY, NOW)), options(form, form.method))).toMatchObject({ ok: true, method: form.method });
  });

  it.each(FORMS)('refuses $name made with a wrong secret, with 401', (form) => {
    // (Prefixes and extensions of a base64 secret can decode to the same key; they are tried on text secrets below.)
    for (const wrong of ['wrong-secret-entirely', nearMiss(form.secret)]) {
      const headers = form.headers(wrong, BODY, NOW);
      for (const method of ['auto', form.method] as const) {
        expect(verifyDelivery(input(headers), options(form, method)), `${wrong} ${method}`).toMatchObject({ ok: false, status: 401 });
      }
    }
  });

  it.each(coveringBody)('refuses $name over a tampered body, with 401', (form) => {
    const headers = form.headers(form.secret, BODY, NOW);
    for (const body of [Buffer.from(BODY.toString().replace('paid', 'PAID')), Buffer.concat([BODY, Buffer.from('\n')]), BODY.subarray(1)]) {
      for (const method of ['auto', form.method] as const) {
        expect(verifyDelivery(input(headers, body), options(form, method))).toMatchObject({ ok: false, status: 401 });
      }
    }
  });

  it.each(withTimestamp)('refuses $name replayed with a stale or future timestamp, with 401', (form) => {
    for (const ts of [NOW - 301, NOW + 301, NOW - 86_400]) {
      const headers = form.headers(form.secret, BODY, ts);
      for (const method of ['auto', form.method] as const) {
        expect(verifyDelivery(input(headers), options(form, method))).toEqual({ ok: false, status: 401, reason: 'timestamp outside tolerance' });
      }
    }
  });

  it.each(withTimestamp)('accepts $name at the edge of the tolerance, and honours a custom tolerance', (form) => {
    for (const ts of [NOW - 300, NOW + 300]) expect(verifyDelivery(input(form.headers(form.secret, BODY, ts)), options(form)).ok).toBe(true);
    const late = form.headers(form.secret, BODY, NOW - 11);
    expect(verifyDelivery(input(late), { ...options(form), toleranceSeconds: 10 })).toMatchObject({ ok: false, status: 401 });
  });

  it.each(FORMS)('refuses $name when another method is pinned, with 401', (form) => {
    const headers = form.headers(form.secret, BODY, NOW);
    for (const method of WEBHOOK_METHODS.filter((m) => m !== form.method)) {
      expect(verifyDelivery(input(headers), options(form, method)), method).toMatchObject({ ok: false, status: 401 });
    }
  });

  it.each(FORMS)('accepts $name with headers as arrays (node:http headersDistinct)', (form) => {
    const headers = Object.fromEntries(Object.entries(form.headers(form.secret, BODY, NOW)).map(([k, v]) => [k, [v]]));
    expect(verifyDelivery(input(headers), options(form))).toMatchObject({ ok: true, method: form.method });
  });

  it.each(FORMS)('puts nothing of the secret or the request in the reasons of $name refusals', (form) => {
    const forged = form.headers(nearMiss(form.secret), BODY, NOW);
    const stale = form.headers(form.secret, BODY, NOW - 1000);
    for (const headers of [forged, stale]) {
      for (const method of ['auto', ...WEBHOOK_METHODS] as const) {
        const result = verifyDelivery(input(headers), options(form, method));
        if (result.ok) continue;
        expect(result.reason).toMatch(/^[a-z0-9 _-]+$/i);
        expect(result.reason.length).toBeLessThan(40);
        for (const value of [form.secret, ...Object.values(headers)]) expect(result.reason).not.toContain(value.slice(0, 12));
      }
    }
  });
});

describe('verifyDelivery: unsigned, unreadable and mixed deliveries', () => {
  const secret = TEXT_SECRET;
  const check = (headers: DeliveryInput['headers'], method: VerifyOptions['method'] = 'auto', header?: string) =>
    verifyDelivery(input(headers), { secret, method, header });

  it.each([
    ['auto', 'missing credentials'],
    ['standard-webhooks', 'missing signature headers'],
    ['hmac', 'missing signature headers'],
    ['header', 'missing credentials'],
    ['basic', 'missing credentials'],
    ['bearer', 'missing credentials'],
  ] as const)('refuses an unsigned delivery with %s, with 401', (method, reason) => {
    expect(check({ 'content-type': 'application/json', 'x-request-id': 'abc' }, method)).toEqual({ ok: false, status: 401, reason });
  });

  it.each([
    ['a Standard Webhooks signature without a version', { 'webhook-id': 'a', 'webhook-timestamp': String(NOW), 'webhook-signature': 'abc' }, 'malformed webhook-signature'],
    ['a non-numeric webhook-timestamp', { 'webhook-id': 'a', 'webhook-timestamp': 'now', 'webhook-signature': 'v1,AAAA' }, 'malformed webhook-timestamp'],
    ['a repeated webhook-id', { 'webhook-id': ['a', 'b'], 'webhook-timestamp': String(NOW), 'webhook-signature': 'v1,AAAA' }, 'repeated signature headers'],
    ['an x-signature that is neither hex nor base64', { 'x-signature': 'not a signature!' }, 'malformed signature header'],
    ['an x-hub-signature-256 with an unknown algorithm', { 'x-hub-signature-256': 'md5=abcdef' }, 'malformed signature header'],
    ['a t=,v1= signature without a readable timestamp', { 'payzu-signature': 't=yesterday,v1=abcdef' }, 'malformed signature header'],
    ['a t=,v1= signature without v1', { 'payzu-signature': `t=${NOW},v0=abcdef` }, 'malformed signature header'],
    ['repeated signature headers', { 'x-signature': ['abcd', 'abcd'] }, 'repeated signature headers'],
    ['Basic credentials without a colon', { authorization: `Basic ${Buffer.from(secret).toString('base64')}` }, 'malformed authorization header'],
    ['Basic credentials that are not base64', { authorization: 'Basic ***' }, 'malformed authorization header'],
    ['a repeated authorization header', { authorization: [`Bearer ${secret}`, `Bearer ${secret}`] }, 'repeated authorization header'],
    ['a repeated secret header', { 'x-webhook-secret': [secret, secret] }, 'repeated secret header'],
  ])('refuses %s with 400', (_name, headers, reason) => {
    expect(check(headers)).toEqual({ ok: false, status: 400, reason });
  });

  it('prefers a failed comparison to an unreadable header when nothing proves the secret', () => {
    expect(check({ 'x-signature': 'garbage!', 'x-webhook-secret': 'nope' })).toEqual({ ok: false, status: 401, reason: 'wrong secret' });
  });

  it('accepts when one method proves the secret, whatever the others carry', () => {
    const sig = hmac('sha256', secret, BODY).toString('hex');
    expect(check({ 'x-webhook-secret': 'nope', authorization: basic('u', secret) })).toMatchObject({ ok: true, method: 'basic' });
    expect(check({ 'x-signature': 'garbage!', 'x-webhook-secret': secret })).toMatchObject({ ok: true, method: 'header' });
    expect(check({ 'webhook-id': 'a', 'webhook-timestamp': String(NOW), 'webhook-signature': 'v1,AAAA', 'x-webhook-signature': sig })).toMatchObject({
      ok: true,
      method: 'hmac',
    });
    // A signature the receiver cannot check (an RSA one, say) next to one it can.
    expect(check({ 'x-webhook-signature': Buffer.alloc(256, 7).toString('base64'), 'x-signature': sig })).toMatchObject({ ok: true, method: 'hmac' });
  });

  it('pinned to header or basic, refuses a wrong header even with a right Basic password, and the reverse', () => {
    const headers = { 'x-webhook-secret': 'nope', authorization: basic('u', secret) };
    expect(check(headers, 'header')).toEqual({ ok: false, status: 401, reason: 'wrong secret' });
    expect(check({ 'x-webhook-secret': secret, authorization: basic('u', 'nope') }, 'basic')).toEqual({ ok: false, status: 401, reason: 'wrong secret' });
  });

  it('with a named header pinned, reads only that header', () => {
    expect(check({ 'x-provider-token': secret }, 'header', 'X-Provider-Token')).toMatchObject({ ok: true, method: 'header' });
    expect(check({ 'x-webhook-secret': secret }, 'header', 'X-Provider-Token')).toEqual({ ok: false, status: 401, reason: 'missing credentials' });
    expect(check({ 'x-signature': hmac('sha256', secret, BODY).toString('hex') }, 'hmac', 'X-Provider-Sig')).toEqual({
      ok: false,
      status: 401,
      reason: 'missing signature headers',
    });
  });

  it('with a named header and auto, still reads the well-known headers', () => {
    expect(check({ 'x-webhook-secret': secret }, 'auto', 'X-Provider-Token')).toMatchObject({ ok: true, method: 'header' });
  });

  it('trusts a timestamp header only when the signature covers it', () => {
    // Signed over the body alone: the (unsigned) timestamp header says nothing, so it is not checked.
    const sig = hmac('sha256', secret, BODY).toString('hex');
    expect(check({ 'x-webhook-timestamp': String(NOW - 10_000), 'x-webhook-signature': sig })).toMatchObject({ ok: true, method: 'hmac' });
    // Signed over ts.body with ts stale, then presented with a fresh timestamp header: the signature no longer matches.
    const old = hmac('sha256', secret, `${NOW - 10_000}.`, BODY).toString('hex');
    expect(check({ 'x-webhook-timestamp': String(NOW), 'x-webhook-signature': old })).toEqual({ ok: false, status: 401, reason: 'no signature matches' });
  });

  it('refuses a Stripe-like signature whose t was changed to look fresh', () => {
    const old = hmac('sha256', secret, `${NOW - 10_000}.`, BODY).toString('hex');
    expect(check({ 'payzu-signature': `t=${NOW},v1=${old}` })).toEqual({ ok: false, status: 401, reason: 'no signature matches' });
  });

  it('compares presented values of any length without failing or answering differently (constant-time path)', () => {
    const sig = hmac('sha256', secret, BODY);
    const signatureValues = [sig.subarray(0, 31), sig.subarray(0, 1), Buffer.concat([sig, Buffer.from([0])]), Buffer.alloc(32), Buffer.alloc(64, 1)];
    for (const value of signatureValues) {
      for (const encoding of ['hex', 'base64'] as const) {
        expect(check({ 'x-signature': value.toString(encoding) })).toEqual({ ok: false, status: 401, reason: 'no signature matches' });
      }
    }
    const secretValues = ['x', secret.slice(0, -1), `${secret}x`, `${secret}${'x'.repeat(500)}`, nearMiss(secret), secret.toUpperCase()];
    for (const value of secretValues) {
      expect(check({ 'x-webhook-secret': value })).toEqual({ ok: false, status: 401, reason: 'wrong secret' });
      expect(check({ authorization: `Bearer ${value}` })).toEqual({ ok: false, status: 401, reason: 'wrong secret' });
      expect(check({ authorization: basic('u', value) })).toEqual({ ok: false, status: 401, reason: 'wrong secret' });
    }
    const sw = (signature: string) => ({ 'webhook-id': 'a', 'webhook-timestamp': String(NOW), 'webhook-signature': signature });
    for (const value of signatureValues) {
      expect(check(sw(`v1,${value.toString('base64')}`))).toEqual({ ok: false, status: 401, reason: 'no signature matches' });
    }
  });

  it('never accepts anything with an empty secret, and refuses a whsec_ secret that is not base64', () => {
    const empty = { secret: '', method: 'auto' } as const;
    expect(verifyDelivery(input({ 'x-webhook-secret': '' }), empty)).toMatchObject({ ok: false, status: 401 });
    expect(verifyDelivery(input({ authorization: basic('u', '') }), empty)).toMatchObject({ ok: false, status: 401 });
    expect(verifyDelivery(input({ authorization: 'Bearer ' }), empty)).toMatchObject({ ok: false, status: 401 });
    const sig = signStandardWebhook('', 'a', NOW, BODY);
    expect(verifyDelivery(input({ 'webhook-id': 'a', 'webhook-timestamp': String(NOW), 'webhook-signature': sig }), empty)).toMatchObject({ ok: false, status: 401 });
    expect(verifyDelivery(input({ 'x-webhook-secret': 'whsec_not base64!' }), { secret: 'whsec_not base64!', method: 'auto' })).toEqual({
      ok: false,
      status: 401,
      reason: 'no usable secret configured',
    });
  });
});

describe('webhook keys and settings', () => {
  it('tries the whsec_ rest, the base64-decoded secret and the UTF-8 bytes, without duplicates', () => {
    expect(webhookKeyCandidates(WHSEC_SECRET)).toEqual([Buffer.from(WHSEC_SECRET.slice(6), 'base64'), utf8(WHSEC_SECRET)]);
    expect(webhookKeyCandidates(B64_SECRET)).toEqual([Buffer.from('secret-key-bytes-123456'), utf8(B64_SECRET)]);
    expect(webhookKeyCandidates(TEXT_SECRET)).toEqual([utf8(TEXT_SECRET)]);
    expect(webhookKeyCandidates('abcd')).toHaveLength(2);
    // Not canonical base64 (the decoder drops bits of the last character): text only.
    expect(webhookKeyCandidates('ab==')).toEqual([utf8('ab==')]);
  });

  it('verifies with the secret it is given each time, also after another secret was used', () => {
    const signed = (secret: string) => ({ headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': String(NOW), 'webhook-signature': signStandardWebhook(secret, 'msg_1', NOW, BODY) }, rawBody: BODY, nowSeconds: NOW });
    const other = 'whsec_' + Buffer.from('another-key-of-24-bytes!').toString('base64');
    const pinned = (secret: string) => ({ secret, method: 'standard-webhooks' }) as const;
    expect(verifyDelivery(signed(WHSEC_SECRET), pinned(WHSEC_SECRET))).toEqual({ ok: true, method: 'standard-webhooks', eventId: 'msg_1' });
    expect(verifyDelivery(signed(WHSEC_SECRET), pinned(other))).toEqual({ ok: false, status: 401, reason: 'no signature matches' });
    expect(verifyDelivery(signed(other), pinned(other))).toEqual({ ok: true, method: 'standard-webhooks', eventId: 'msg_1' });
    expect(verifyDelivery(signed(other), pinned(WHSEC_SECRET))).toEqual({ ok: false, status: 401, reason: 'no signature matches' });
    expect(verifyDelivery(signed(WHSEC_SECRET), pinned('whsec_not base64!'))).toEqual({ ok: false, status: 401, reason: 'no usable secret configured' });
    expect(verifyDelivery(signed(WHSEC_SECRET), pinned(WHSEC_SECRET))).toMatchObject({ ok: true });
  });

  it('says why a secret cannot be used', () => {
    expect(webhookSecretProblem('')).toBe('the webhook secret is empty');
    expect(webhookSecretProblem('whsec_not base64!')).toBe('a whsec_ secret must be followed by base64');
    expect(webhookSecretProblem(WHSEC_SECRET)).toBeNull();
    expect(webhookSecretProblem('x')).toBeNull();
  });

  it.each([
    ['auto', 'auto'],
    ['standard-webhooks', 'standard-webhooks'],
    ['hmac', 'hmac'],
    [' header ', 'header'],
    ['basic', 'basic'],
    ['bearer', 'bearer'],
    ['shared-secret', 'header'],
  ])('reads the setting %j as %s', (text, value) => {
    expect(parseWebhookMethodSetting(text)).toEqual({ ok: true, value });
  });

  it('refuses an unknown setting, listing the choices', () => {
    expect(parseWebhookMethodSetting('rsa')).toEqual({ ok: false, error: 'must be one of auto, standard-webhooks, hmac, header, basic, bearer' });
  });
});
