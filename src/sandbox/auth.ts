import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError } from './api-error.js';

/** The account an API key names: each key is its own account. Stable across restarts; reveals nothing of the key. */
export function accountOf(apiKey: string): string {
  return `acc_${createHash('sha256').update(apiKey).digest('hex').slice(0, 12)}`;
}

/** The last characters of an API key, to tell accounts apart in the inspection routes. */
export function keyHint(apiKey: string): string {
  return `…${apiKey.slice(-4)}`;
}

type TokenCheck = { ok: true; clientId: string } | { ok: false; expired: boolean };

/**
 * Bearer tokens of the OAuth 2.0 client-credentials grant: `sbx1.<payload>.<HMAC>` signed with a key kept in the
 * state file, so tokens survive a restart and nothing is stored per token. Lifetimes are real seconds (a client
 * caches a token by its own clock), not simulated ones.
 */
export class Tokens {
  constructor(
    private readonly signingKey: string,
    private readonly ttlSeconds: number,
    private readonly realNow: () => number = Date.now,
  ) {}

  issue(clientId: string): { access_token: string; token_type: 'Bearer'; expires_in: number } {
    const payload = Buffer.from(
      JSON.stringify({ c: clientId, e: this.realNow() + this.ttlSeconds * 1000, n: randomBytes(6).toString('hex') }),
    ).toString('base64url');
    return { access_token: `sbx1.${payload}.${this.sign(payload)}`, token_type: 'Bearer', expires_in: this.ttlSeconds };
  }

  check(token: string): TokenCheck {
    const [version, payload, signature] = token.split('.');
    if (version !== 'sbx1' || !payload || !signature || !sameText(signature, this.sign(payload))) return { ok: false, expired: false };
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { c: string; e: number };
    return claims.e > this.realNow() ? { ok: true, clientId: claims.c } : { ok: false, expired: true };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.signingKey).update(payload).digest('base64url');
  }
}

/** Constant-time comparison of two texts. */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What the API needs to know about a caller: the configured keys and the one client allowed to get tokens. */
export interface Credentials {
  readonly apiKeys: readonly string[];
  readonly clientId: string;
}

/**
 * Checks `Service-ApiKey` and `Authorization: Bearer` of an API request and returns the account. Throws a 401
 * ApiError naming what is missing, wrong or expired.
 */
export function authenticate(headers: Record<string, string | string[] | undefined>, credentials: Credentials, tokens: Tokens): string {
  const apiKey = single(headers['service-apikey']);
  if (!apiKey) throw unauthorized('missing_api_key', 'the Service-ApiKey header is required');
  if (!credentials.apiKeys.some((k) => sameText(k, apiKey))) throw unauthorized('invalid_api_key', 'the Service-ApiKey is not known');
  const authorization = single(headers.authorization);
  const bearer = authorization && /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
  if (!bearer) throw unauthorized('missing_token', 'the Authorization header must carry a Bearer access token from /oauth/token');
  const check = tokens.check(bearer);
  if (!check.ok && check.expired) throw unauthorized('token_expired', 'the access token has expired; get a new one from /oauth/token', 'The access token expired');
  if (!check.ok || check.clientId !== credentials.clientId) throw unauthorized('invalid_token', 'the access token is not valid', 'The access token is not valid');
  return accountOf(apiKey);
}

function unauthorized(code: string, message: string, bearerError?: string): ApiError {
  const challenge = bearerError ? `Bearer error="invalid_token", error_description="${bearerError}"` : 'Bearer';
  return new ApiError(401, code, message, [], { 'www-authenticate': challenge });
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
