import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** How the receiver authenticates a delivery (DESIGN.md "Webhooks"). */
export type VerificationMode = 'standard-webhooks' | 'shared-secret';

export interface VerifyInput {
  /** Request headers with lower-case names, as node:http gives them (`headersDistinct` or `headers`). */
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received: signatures cover these bytes, never a re-serialisation. */
  rawBody: Buffer;
  nowSeconds: number;
}

/**
 * `reason` is one of a fixed set of short phrases (the receiver counts refusals by it), never anything taken from the
 * request or the secret.
 */
export type VerifyResult = { ok: true; eventId: string | null } | { ok: false; status: 400 | 401; reason: string };

const MAX_ID_LENGTH = 256;
const HMAC_SHA256_BYTES = 32;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The HMAC key of a webhook secret: for a `whsec_`-prefixed secret the base64-decoded rest, otherwise the secret's
 * UTF-8 bytes.
 */
export function webhookKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** Why a secret cannot be used for verification, or null when it can. */
export function secretProblem(secret: string): string | null {
  if (secret.length === 0) return 'the webhook secret is empty';
  if (!secret.startsWith('whsec_')) return null;
  const rest = secret.slice('whsec_'.length);
  return BASE64.test(rest) && rest.length % 4 === 0 ? null : 'a whsec_ secret must be followed by base64';
}

/**
 * The `webhook-signature` value of a Standard Webhooks delivery: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`,
 * timestamp in Unix seconds.
 */
export function signStandardWebhook(secret: string, id: string, timestampSeconds: number, body: string | Buffer): string {
  return `v1,${mac(webhookKey(secret), id, String(timestampSeconds), body).toString('base64')}`;
}

/**
 * Verifies a Standard Webhooks delivery: `webhook-id`, `webhook-timestamp` (Unix seconds, within ±toleranceSeconds of
 * nowSeconds) and `webhook-signature` (space-separated `v<n>,<base64>`; any matching v1 passes, other versions are
 * ignored). Missing headers, no match and stale timestamps are 401; headers that cannot be read are 400.
 * eventId is the `webhook-id`.
 */
export function verifyStandardWebhook(input: VerifyInput, secret: string, toleranceSeconds = 300): VerifyResult {
  if (secretProblem(secret) !== null) return refuse(401, 'no usable secret configured');
  const id = single(input.headers['webhook-id']);
  const timestamp = single(input.headers['webhook-timestamp']);
  const signatures = joined(input.headers['webhook-signature']);
  if (id === undefined || timestamp === undefined || signatures === undefined) return refuse(400, 'repeated signature headers');
  if (id === null || timestamp === null || signatures === null) return refuse(401, 'missing signature headers');
  if (id.length > MAX_ID_LENGTH) return refuse(400, 'malformed webhook-id');
  if (!/^[0-9]{1,12}$/.test(timestamp)) return refuse(400, 'malformed webhook-timestamp');

  const entries = signatures.split(' ').filter((s) => s.length > 0);
  const v1: Buffer[] = [];
  let wellFormed = 0;
  for (const entry of entries) {
    const comma = entry.indexOf(',');
    if (comma <= 0) continue;
    wellFormed++;
    const version = entry.slice(0, comma);
    const value = entry.slice(comma + 1);
    if (version === 'v1' && BASE64.test(value)) v1.push(Buffer.from(value, 'base64'));
  }
  if (wellFormed === 0) return refuse(400, 'malformed webhook-signature');

  // Checked after the format so that a malformed delivery says so whatever its age; before the HMAC so that
  // stale replays cost nothing.
  if (Math.abs(input.nowSeconds - Number(timestamp)) > toleranceSeconds) return refuse(401, 'timestamp outside tolerance');

  const expected = mac(webhookKey(secret), id, timestamp, input.rawBody);
  let matched = false;
  for (const candidate of v1) {
    if (candidate.length === HMAC_SHA256_BYTES && timingSafeEqual(candidate, expected)) matched = true;
  }
  return matched ? { ok: true, eventId: id } : refuse(401, 'no signature matches');
}

/**
 * Verifies a delivery that presents the secret itself: in the header `headerName` or, when that header is absent, as
 * the password of HTTP Basic auth. Compared in constant time (over SHA-256 digests, so the length does not leak
 * either). eventId is null: such deliveries carry their id only in the body.
 */
export function verifySharedSecret(input: VerifyInput, secret: string, headerName: string): VerifyResult {
  if (secret.length === 0) return refuse(401, 'no usable secret configured');
  const presentedHeader = single(input.headers[headerName.toLowerCase()]);
  if (presentedHeader === undefined) return refuse(400, 'repeated secret header');
  let presented = presentedHeader;
  if (presented === null) {
    const authorization = single(input.headers['authorization']);
    if (authorization === undefined) return refuse(400, 'repeated authorization header');
    if (authorization === null) return refuse(401, 'missing credentials');
    const match = /^Basic +([A-Za-z0-9+/]*={0,2}) *$/i.exec(authorization);
    if (!match) return refuse(401, 'missing credentials');
    const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return refuse(400, 'malformed authorization header');
    presented = decoded.slice(colon + 1);
  }
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(secret, 'utf8').digest();
  return timingSafeEqual(a, b) ? { ok: true, eventId: null } : refuse(401, 'wrong secret');
}

function mac(key: Buffer, id: string, timestamp: string, body: string | Buffer): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(body).digest();
}

function refuse(status: 400 | 401, reason: string): VerifyResult {
  return { ok: false, status, reason };
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
