import { createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { fail, ok, type Result } from './result.js';

/**
 * How a webhook delivery proves that its sender knows the secret given with the subscription URL. The provider's API
 * says only that a secret is sent, and real providers use each of these (DESIGN.md "Webhooks").
 */
export type WebhookMethod = 'standard-webhooks' | 'hmac' | 'header' | 'basic' | 'bearer';
/** `auto` accepts a delivery proved by any method; a method pins verification to that one. */
export type WebhookMethodSetting = 'auto' | WebhookMethod;

/** In the order `auto` tries them (the first that proves the secret is the one reported). */
export const WEBHOOK_METHODS: readonly WebhookMethod[] = ['standard-webhooks', 'hmac', 'header', 'basic', 'bearer'];
export const WEBHOOK_METHOD_SETTINGS: readonly WebhookMethodSetting[] = ['auto', ...WEBHOOK_METHODS];

/** Headers `hmac` reads a signature from (besides a named header). `x-authenticity-token` carries SHA-256 of `<secret>-<body>`. */
export const SIGNATURE_HEADERS: readonly string[] = [
  'x-signature',
  'x-webhook-signature',
  'x-hub-signature-256',
  'x-hub-signature',
  'x-payload-signature',
  'x-openpix-signature',
  'payzu-signature',
  'signature',
  'x-authenticity-token',
];
/** Headers `header` reads the secret itself from (besides a named header and an `authorization` without Basic/Bearer). */
export const SECRET_HEADERS: readonly string[] = [
  'x-webhook-secret',
  'x-service-secret',
  'x-secret',
  'x-api-secret',
  'x-webhook-token',
  'asaas-access-token',
];
const TIMESTAMP_HEADERS = ['x-webhook-timestamp', 'x-timestamp'];
const NONCE_HEADERS = ['x-webhook-nonce', 'x-nonce'];

export interface DeliveryInput {
  /** Request headers with lower-case names, as node:http gives them (`headersDistinct` or `headers`). */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body exactly as received: signatures cover these bytes, never a re-serialisation. */
  rawBody: Buffer;
  nowSeconds: number;
}

export interface VerifyOptions {
  secret: string;
  method: WebhookMethodSetting;
  /**
   * A header to read besides the well-known ones: the secret (`header`) or a signature (`hmac`). With `header` or
   * `hmac` pinned, the only header read.
   */
  header?: string | undefined;
  /** Largest distance, in seconds, between a signed timestamp and nowSeconds; default 300. */
  toleranceSeconds?: number | undefined;
}

/**
 * `reason` is one of a fixed set of short phrases (the receiver counts refusals by it), never anything taken from the
 * request or the secret.
 */
export type VerifyResult = { ok: true; method: WebhookMethod; eventId: string | null } | { ok: false; status: 400 | 401; reason: string };

type Attempt = { kind: 'ok'; eventId: string | null } | { kind: 'absent' } | { kind: 'refused'; status: 400 | 401; reason: string };

const ABSENT: Attempt = { kind: 'absent' };
const MAX_ID_LENGTH = 256;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const HEX = /^[0-9a-fA-F]+$/;

/** A setting's text as a method setting; `shared-secret` (the old name) means `header`. */
export function parseWebhookMethodSetting(text: string): Result<WebhookMethodSetting> {
  const value = text.trim();
  if (value === 'shared-secret') return ok('header');
  return (WEBHOOK_METHOD_SETTINGS as readonly string[]).includes(value)
    ? ok(value as WebhookMethodSetting)
    : fail(`must be one of ${WEBHOOK_METHOD_SETTINGS.join(', ')}`);
}

/** Why a secret cannot be used for verification, or null when it can. A `whsec_` prefix promises base64 after it. */
export function webhookSecretProblem(secret: string): string | null {
  if (secret.length === 0) return 'the webhook secret is empty';
  if (!secret.startsWith('whsec_')) return null;
  return isCanonicalBase64(secret.slice('whsec_'.length)) ? null : 'a whsec_ secret must be followed by base64';
}

/** The key the sandbox signs with: for a `whsec_` secret the base64-decoded rest, otherwise the secret's UTF-8 bytes. */
export function webhookSigningKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
}

/**
 * Every HMAC key a provider may have derived from the secret, tried in turn by verification: the base64-decoded rest
 * of a `whsec_` secret; the secret base64-decoded when it is canonical base64 (Standard Webhooks libraries decode
 * secrets that way); its UTF-8 bytes.
 */
export function webhookKeyCandidates(secret: string): Buffer[] {
  const keys: Buffer[] = [];
  if (secret.startsWith('whsec_')) {
    const rest = secret.slice('whsec_'.length);
    if (isCanonicalBase64(rest)) keys.push(Buffer.from(rest, 'base64'));
  } else if (isCanonicalBase64(secret)) {
    keys.push(Buffer.from(secret, 'base64'));
  }
  keys.push(Buffer.from(secret, 'utf8'));
  return keys.filter((key, i) => key.length > 0 && keys.findIndex((k) => k.equals(key)) === i);
}

/**
 * The `webhook-signature` value of a Standard Webhooks delivery: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`,
 * timestamp in Unix seconds, keyed by webhookSigningKey.
 */
export function signStandardWebhook(secret: string, id: string, timestampSeconds: number, body: string | Buffer): string {
  return `v1,${mac('sha256', webhookSigningKey(secret), `${id}.${timestampSeconds}.`, body).toString('base64')}`;
}

/**
 * Verifies that a delivery proves the secret, by the pinned method or (`auto`) by any of them:
 * - `standard-webhooks`: `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature` (space-separated
 *   `v<n>,<base64>`; any matching v1 passes); eventId is the `webhook-id`.
 * - `hmac`: a signature header (SIGNATURE_HEADERS or the named one) holding HMAC-SHA256 or HMAC-SHA1 of the body, hex
 *   or base64, optionally `sha256=`/`sha1=`-prefixed; or over `<ts>.body` / `<ts>.<nonce>.body` with
 *   `x-webhook-timestamp` (and `x-webhook-nonce`); or `t=<unix>,v1=<hex>` over `t.body`; or SHA-256 hex of
 *   `<secret>-<body>`.
 * - `header`: the secret itself in SECRET_HEADERS, the named header, or as the whole `authorization` value (not
 *   Basic or Bearer).
 * - `basic`: HTTP Basic whose password is the secret (any user). `bearer`: `Authorization: Bearer <secret>`.
 * HMAC keys are webhookKeyCandidates. Signed timestamps must be within ±toleranceSeconds (Unix seconds; outside
 * Standard Webhooks, values from 1e11 are milliseconds). Every comparison is over SHA-256 digests with timingSafeEqual,
 * and every candidate is compared.
 * Refusals: no proof, a wrong one or a stale timestamp → 401; unreadable signature or credential headers → 400. With
 * `auto`, a delivery is accepted when one method proves the secret, whatever the others carry; else the refusal
 * reported is a failed comparison first, then an unreadable header, then missing credentials.
 */
export function verifyDelivery(input: DeliveryInput, o: VerifyOptions): VerifyResult {
  const secret = derivedFrom(o.secret);
  if (secret.problem !== null) return { ok: false, status: 401, reason: 'no usable secret configured' };
  const named = o.header?.trim().toLowerCase() || undefined;
  const ctx: Context = { input, secret: o.secret, keys: secret.keys, tolerance: o.toleranceSeconds ?? 300 };
  const pinned = o.method !== 'auto';
  const methods = pinned ? [o.method as WebhookMethod] : WEBHOOK_METHODS;

  let refusal: { rank: number; status: 400 | 401; reason: string } | null = null;
  for (const method of methods) {
    const attempt = attemptMethod(method, ctx, named, pinned);
    if (attempt.kind === 'ok') return { ok: true, method, eventId: attempt.eventId };
    if (attempt.kind === 'absent') continue;
    const rank = attempt.status === 401 ? 2 : 1;
    if (refusal === null || rank > refusal.rank) refusal = { rank, status: attempt.status, reason: attempt.reason };
  }
  if (refusal !== null) return { ok: false, status: refusal.status, reason: refusal.reason };
  const missing = o.method === 'standard-webhooks' || o.method === 'hmac' ? 'missing signature headers' : 'missing credentials';
  return { ok: false, status: 401, reason: missing };
}

/** What verification derives from a secret, kept for the last secret seen: a receiver has one, used by every delivery. */
let derived: { readonly secret: string; readonly problem: string | null; readonly keys: KeyObject[] } | null = null;

/** The keys as KeyObjects: createHmac with a Buffer key makes one on every call (measured here: 35 µs, against 5). */
function derivedFrom(secret: string): { problem: string | null; keys: KeyObject[] } {
  if (derived?.secret !== secret) derived = { secret, problem: webhookSecretProblem(secret), keys: webhookKeyCandidates(secret).map((key) => createSecretKey(key)) };
  return derived;
}

interface Context {
  input: DeliveryInput;
  secret: string;
  keys: KeyObject[];
  tolerance: number;
}

function attemptMethod(method: WebhookMethod, ctx: Context, named: string | undefined, pinned: boolean): Attempt {
  switch (method) {
    case 'standard-webhooks':
      return standardWebhooks(ctx);
    case 'hmac':
      return hmac(ctx, named === undefined ? SIGNATURE_HEADERS : pinned ? [named] : [...SIGNATURE_HEADERS, named]);
    case 'header':
      return secretHeader(ctx, named === undefined ? SECRET_HEADERS : pinned ? [named] : [...SECRET_HEADERS, named], named === undefined || !pinned);
    case 'basic':
      return basic(ctx);
    case 'bearer':
      return bearer(ctx);
  }
}

function standardWebhooks(ctx: Context): Attempt {
  const h = ctx.input.headers;
  const id = single(h['webhook-id']);
  const timestamp = single(h['webhook-timestamp']);
  const signatures = joined(h['webhook-signature']);
  if (id === null && timestamp === null && signatures === null) return ABSENT;
  if (id === undefined || timestamp === undefined) return refused(400, 'repeated signature headers');
  if (id === null || timestamp === null || signatures === null) return refused(401, 'missing signature headers');
  if (id.length > MAX_ID_LENGTH) return refused(400, 'malformed webhook-id');
  if (!/^[0-9]{1,12}$/.test(timestamp)) return refused(400, 'malformed webhook-timestamp');

  const presented: Buffer[] = [];
  let wellFormed = 0;
  for (const entry of signatures.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma <= 0) continue;
    wellFormed++;
    const value = entry.slice(comma + 1);
    if (entry.slice(0, comma) === 'v1' && BASE64.test(value)) presented.push(Buffer.from(value, 'base64'));
  }
  if (wellFormed === 0) return refused(400, 'malformed webhook-signature');
  // After the format, so a malformed delivery says so whatever its age; before the HMAC, so stale replays cost nothing.
  if (stale(ctx, Number(timestamp), false)) return refused(401, 'timestamp outside tolerance');

  // One key form at a time, the first match ending it: a delivery signed with the usual key costs one HMAC, not one
  // per key form. Which form matched is no secret, and each comparison stays constant-time.
  const signed = `${id}.${timestamp}.`;
  const matches = ctx.keys.some((key) => macEqual(presented, mac('sha256', key, signed, ctx.input.rawBody)));
  return matches ? { kind: 'ok', eventId: id } : refused(401, 'no signature matches');
}

function hmac(ctx: Context, names: readonly string[]): Attempt {
  const values: string[] = [];
  for (const name of new Set(names)) {
    const value = single(ctx.input.headers[name]);
    if (value === undefined) return refused(400, 'repeated signature headers');
    if (value !== null) values.push(value.trim());
  }
  if (values.length === 0) return ABSENT;

  const body = ctx.input.rawBody;
  // Computed once for every header that needs them: the body alone, and (PayZu-like) `<ts>.body` / `<ts>.<nonce>.body`.
  let plain: Buffer[] | null = null;
  const plainDigests = (): Buffer[] =>
    (plain ??= [...macs(ctx.keys, '', body), createHash('sha256').update(`${ctx.secret}-`, 'utf8').update(body).digest()]);
  const ts = firstHeader(ctx, TIMESTAMP_HEADERS);
  const nonce = firstHeader(ctx, NONCE_HEADERS);
  const timed = ts !== null && /^[0-9]{1,13}$/.test(ts);

  let compared = 0;
  let wasStale = false;
  for (const value of values) {
    const stripe = parseStripeLike(value);
    if (stripe === 'malformed') continue;
    if (stripe !== null) {
      compared++;
      // The timestamp is covered by these signatures: a stale one is refused before any HMAC.
      if (stale(ctx, Number(stripe.t), true)) wasStale = true;
      else if (anyEqual(stripe.signatures, macs(ctx.keys, `${stripe.t}.`, body))) return { kind: 'ok', eventId: null };
      continue;
    }
    const presented = decodeSignature(value);
    if (presented.length === 0) continue;
    compared++;
    if (anyEqual(presented, plainDigests())) return { kind: 'ok', eventId: null };
    // The timestamp header is only trusted once a signature is found to cover it.
    if (timed && anyEqual(presented, [...macs(ctx.keys, `${ts}.`, body), ...(nonce === null ? [] : macs(ctx.keys, `${ts}.${nonce}.`, body))])) {
      if (!stale(ctx, Number(ts), true)) return { kind: 'ok', eventId: null };
      wasStale = true;
    }
  }
  if (wasStale) return refused(401, 'timestamp outside tolerance');
  return compared === 0 ? refused(400, 'malformed signature header') : refused(401, 'no signature matches');
}

function secretHeader(ctx: Context, names: readonly string[], bareAuthorization: boolean): Attempt {
  const values: string[] = [];
  for (const name of new Set(names)) {
    const value = single(ctx.input.headers[name]);
    if (value === undefined) return refused(400, 'repeated secret header');
    if (value !== null) values.push(value);
  }
  // Some providers send the secret as the whole Authorization value; Basic and Bearer (and a repeated header) are
  // for the methods of those names.
  const authorization = bareAuthorization ? single(ctx.input.headers['authorization']) : null;
  if (typeof authorization === 'string' && !/^(Basic|Bearer) /i.test(authorization)) values.push(authorization);
  if (values.length === 0) return ABSENT;
  let matched = false;
  for (const value of values) if (sameText(value, ctx.secret)) matched = true;
  return matched ? { kind: 'ok', eventId: null } : refused(401, 'wrong secret');
}

function basic(ctx: Context): Attempt {
  const authorization = single(ctx.input.headers['authorization']);
  if (authorization === undefined) return refused(400, 'repeated authorization header');
  if (authorization === null) return ABSENT;
  const match = /^Basic +(\S*) *$/i.exec(authorization);
  if (!match) return ABSENT;
  const encoded = match[1] ?? '';
  if (encoded !== '' && !BASE64.test(encoded)) return refused(400, 'malformed authorization header');
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return refused(400, 'malformed authorization header');
  return sameText(decoded.slice(colon + 1), ctx.secret) ? { kind: 'ok', eventId: null } : refused(401, 'wrong secret');
}

function bearer(ctx: Context): Attempt {
  const authorization = single(ctx.input.headers['authorization']);
  if (authorization === undefined) return refused(400, 'repeated authorization header');
  if (authorization === null) return ABSENT;
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match) return ABSENT;
  return sameText(match[1] ?? '', ctx.secret) ? { kind: 'ok', eventId: null } : refused(401, 'wrong secret');
}

/** `t=<unix>,v1=<sig>[,v1=<sig>…]`: null when the value is not of that form, 'malformed' when it is but unreadable. */
function parseStripeLike(value: string): { t: string; signatures: Buffer[] } | 'malformed' | null {
  if (!/^t=/i.test(value) || !value.includes(',')) return null;
  let t: string | null = null;
  const signatures: Buffer[] = [];
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return 'malformed';
    const key = part.slice(0, eq).trim().toLowerCase();
    const v = part.slice(eq + 1).trim();
    if (key === 't') t = v;
    else if (key === 'v1') signatures.push(...decodeSignature(v));
  }
  if (t === null || !/^[0-9]{1,13}$/.test(t) || signatures.length === 0) return 'malformed';
  return { t, signatures };
}

/** Every reading of a signature value: hex and/or base64 (a 64-digit hex string is valid base64 too), after an optional `sha256=`/`sha1=`. */
function decodeSignature(value: string): Buffer[] {
  const text = value.replace(/^(sha256|sha1)=/i, '');
  const readings: Buffer[] = [];
  if (HEX.test(text) && text.length % 2 === 0) readings.push(Buffer.from(text, 'hex'));
  if (BASE64.test(text)) readings.push(Buffer.from(text, 'base64'));
  else if (BASE64URL.test(text)) readings.push(Buffer.from(text, 'base64url'));
  return readings.filter((r) => r.length > 0);
}

function macs(keys: KeyObject[], prefix: string, body: Buffer): Buffer[] {
  return keys.flatMap((key) => [mac('sha256', key, prefix, body), mac('sha1', key, prefix, body)]);
}

function mac(algorithm: 'sha256' | 'sha1', key: Buffer | KeyObject, prefix: string, body: string | Buffer): Buffer {
  return createHmac(algorithm, key).update(prefix, 'utf8').update(body).digest();
}

/**
 * True when any presented value equals any expected one. Compares SHA-256 digests (so lengths never matter) with
 * timingSafeEqual, and always goes through every pair.
 */
function anyEqual(presented: Buffer[], expected: Buffer[]): boolean {
  const expectedDigests = expected.map(sha256);
  let matched = false;
  for (const p of presented) {
    const digest = sha256(p);
    for (const e of expectedDigests) if (timingSafeEqual(digest, e)) matched = true;
  }
  return matched;
}

/**
 * True when any presented value equals the expected MAC, going through every one. Only the length of a MAC, which
 * is public, is compared in variable time: no digests needed, unlike the secrets sameText compares.
 */
function macEqual(presented: Buffer[], expected: Buffer): boolean {
  let matched = false;
  for (const p of presented) if (p.length === expected.length && timingSafeEqual(p, expected)) matched = true;
  return matched;
}

function sameText(presented: string, secret: string): boolean {
  return anyEqual([Buffer.from(presented, 'utf8')], [Buffer.from(secret, 'utf8')]);
}

function sha256(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

/** Unix seconds; with allowMillis, values too large to be seconds are milliseconds (PayZu sends those). */
function stale(ctx: Context, timestamp: number, allowMillis: boolean): boolean {
  const seconds = allowMillis && timestamp >= 1e11 ? timestamp / 1000 : timestamp;
  return Math.abs(ctx.input.nowSeconds - seconds) > ctx.tolerance;
}

function firstHeader(ctx: Context, names: readonly string[]): string | null {
  for (const name of names) {
    const value = single(ctx.input.headers[name]);
    if (typeof value === 'string') return value.trim();
  }
  return null;
}

function isCanonicalBase64(text: string): boolean {
  return text.length % 4 === 0 && BASE64.test(text) && Buffer.from(text, 'base64').toString('base64') === text;
}

function refused(status: 400 | 401, reason: string): Attempt {
  return { kind: 'refused', status, reason };
}

/** The one value of a header; null when absent or empty, undefined when repeated. */
function single(value: string | string[] | undefined): string | null | undefined {
  if (Array.isArray(value)) {
    if (value.length > 1) return undefined;
    value = value[0];
  }
  return value === undefined || value === '' ? null : value;
}

/** A header whose repetitions are one list (webhook-signature): null when absent or empty. */
function joined(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value.join(' ') : value;
  return text === undefined || text.trim() === '' ? null : text;
}
