import { ProviderError } from '../errors.js';
import { errorFromResponse } from './error-body.js';
import { isLastingFailure } from '../network/lasting-failure.js';
import { header, type HttpResponse, type HttpTransport } from './http-transport.js';
import type { Redactor } from './redact.js';
import { isRetryableStatus, parseRetryAfter, retrying, type RetrySettings } from './retry-policy.js';
import type { TokenAuth } from './dialect.js';
import type { ProviderEvent } from './types.js';

/** Lifetime assumed when the token response has no `expires_in` (RFC 6749 leaves it optional). */
const DEFAULT_LIFETIME_MS = 300_000;
/** A token is replaced this long before it expires (at most a quarter of its life), so no call carries a dying one. */
const REFRESH_MARGIN_MS = 30_000;

export interface TokenSourceOptions {
  transport: HttpTransport;
  redactor: Redactor;
  tokenUrl: URL;
  clientId: string;
  clientSecret: string;
  scope?: string;
  /** `auto`: HTTP Basic first, then the form body once when Basic is refused; what worked is kept. */
  auth: TokenAuth;
  /** Extra headers for the token request (the API key when the token endpoint is on the API's own origin). */
  extraHeaders: Record<string, string>;
  userAgent: string;
  retry: RetrySettings;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  emit: (e: ProviderEvent) => void;
}

/**
 * OAuth 2.0 client credentials grant (RFC 6749 §4.4) with the client authenticated by HTTP Basic or by form fields
 * (§2.3.1; providers choose either). The access token is cached until shortly before it expires; concurrent callers share one refresh (single flight).
 * The token request is retried on communication failures, 408, 429 and 5xx (it creates nothing at the provider);
 * refused credentials (400/401) fail at once with a message that names no secret.
 */
export class TokenSource {
  readonly #o: TokenSourceOptions;
  readonly #basic: string;
  #cached: { token: string; refreshAt: number } | null = null;
  #pending: Promise<string> | null = null;
  /** The client authentication in use; under `auto`, settled by the first token the endpoint gives. */
  #method: 'basic' | 'body';
  #settled: boolean;

  constructor(o: TokenSourceOptions) {
    this.#o = o;
    // RFC 6749 §2.3.1: id and secret are form-urlencoded before they are joined and base64-encoded.
    const pair = `${formEncode(o.clientId)}:${formEncode(o.clientSecret)}`;
    this.#basic = Buffer.from(pair).toString('base64');
    this.#method = o.auth === 'body' ? 'body' : 'basic';
    this.#settled = o.auth !== 'auto';
    o.redactor.add(o.clientSecret);
    o.redactor.add(this.#basic);
    o.redactor.add(formEncode(o.clientSecret));
  }

  /** A valid access token: the cached one, or a new one (one request however many callers wait). */
  async get(): Promise<string> {
    const c = this.#cached;
    if (c && this.#o.now() < c.refreshAt) return c.token;
    this.#pending ??= this.#fetch().finally(() => {
      this.#pending = null;
    });
    return this.#pending;
  }

  /** The client authentication that obtained a token, or null before the first one. */
  get method(): 'basic' | 'body' | null {
    return this.#cached || this.#settled ? this.#method : null;
  }

  /** Forgets `token` after the provider refused it (401); a token already replaced is left alone. */
  invalidate(token: string): void {
    if (this.#cached?.token !== token) return;
    this.#cached = null;
    this.#o.emit({ type: 'token', action: 'invalidated' });
  }

  async #fetch(): Promise<string> {
    try {
      return await this.#fetchWith(this.#method);
    } catch (e) {
      // Under `auto` a refusal of Basic may only mean the endpoint wants the credentials in the form: try that once.
      if (this.#settled || !(e instanceof ProviderError) || !isClientRefusal(e)) throw e;
      this.#o.emit({ type: 'warning', message: 'the token endpoint refused HTTP Basic client authentication; trying the form body (tokenAuth=body)' });
      this.#method = 'body';
      this.#settled = true;
      try {
        return await this.#fetchWith('body');
      } catch (second) {
        if (second instanceof ProviderError && isClientRefusal(second)) {
          throw new ProviderError(`${second.message}, with the client credentials both in HTTP Basic and in the form body`, {
            status: second.status, method: 'POST', path: second.path, code: second.code, body: second.body, hint: second.hint,
          });
        }
        throw second;
      }
    }
  }

  async #fetchWith(method: 'basic' | 'body'): Promise<string> {
    const o = this.#o;
    const path = o.tokenUrl.pathname;
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (o.scope) form.set('scope', o.scope);
    if (method === 'body') {
      form.set('client_id', o.clientId);
      form.set('client_secret', o.clientSecret);
    }
    const headers: Record<string, string> = {
      ...o.extraHeaders,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      'user-agent': o.userAgent,
    };
    if (method === 'basic') headers['authorization'] = `Basic ${this.#basic}`;
    return retrying(
      async ({ retryable }) => {
        const started = o.now();
        let res: HttpResponse;
        try {
          res = await o.transport.send({ method: 'POST', url: o.tokenUrl, displayPath: path, headers, body: form.toString() });
        } catch (e) {
          // A communication failure; an answer that arrived but could not be read (too large) is not retried.
          if (e instanceof ProviderError && e.status === null && !isLastingFailure(e)) throw retryable(e, { retryAfterMs: null, reason: e.code ?? 'communication failure' });
          throw e;
        }
        if (res.status >= 200 && res.status < 300) {
          const token = this.#accept(res.body, started, path);
          this.#settled = true;
          return token;
        }
        if (res.status === 400 || res.status === 401) {
          throw errorFromResponse('POST', path, res, o.redactor, {
            message: `The token endpoint refused the OAuth client credentials (HTTP ${res.status})`,
            hint: 'Check the OAuth client id and client secret of the profile, and its token URL.',
          });
        }
        const failure = errorFromResponse('POST', path, res, o.redactor, { message: `Could not get an access token: the token endpoint answered HTTP ${res.status}` });
        if (!isRetryableStatus(res.status)) throw failure;
        throw retryable(failure, { retryAfterMs: parseRetryAfter(header(res, 'retry-after'), o.now()), reason: `HTTP ${res.status}` });
      },
      {
        settings: o.retry,
        random: o.random,
        sleep: o.sleep,
        onRetry: ({ attempt, delayMs, reason }) => o.emit({ type: 'retry', method: 'POST', path, attempt, delayMs, reason }),
      },
    );
  }

  #accept(body: Buffer, started: number, path: string): string {
    const o = this.#o;
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      json = undefined;
    }
    const r = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
    const token = r['access_token'];
    const type = r['token_type'];
    // The body is never put in the error: it may hold a token.
    const bad = (problem: string) =>
      new ProviderError(`The token endpoint answered without a usable access token (${problem})`, {
        status: 200, method: 'POST', path, code: 'bad_token_response', hint: 'Check the token URL of the profile.',
      });
    if (typeof token !== 'string' || token === '') throw bad('no access_token');
    o.redactor.addToken(token);
    if (type !== undefined && (typeof type !== 'string' || type.toLowerCase() !== 'bearer')) throw bad('token_type is not Bearer');
    const expiresIn = typeof r['expires_in'] === 'string' ? Number(r['expires_in']) : r['expires_in'];
    const lifetimeMs = typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : DEFAULT_LIFETIME_MS;
    this.#cached = { token, refreshAt: started + lifetimeMs - Math.min(REFRESH_MARGIN_MS, lifetimeMs / 4) };
    o.emit({ type: 'token', action: 'fetched', expiresInS: Math.round(lifetimeMs / 1000) });
    return token;
  }
}

/**
 * A refusal of the client's credentials (RFC 6749 §5.2 `invalid_client`, or a 401): what a wrong client
 * authentication method also looks like. Other 400s (`unsupported_grant_type`, …) are not about the method.
 */
function isClientRefusal(e: ProviderError): boolean {
  return e.status === 401 || (e.status === 400 && (e.code === null || e.code === 'invalid_client' || e.code === 'invalid_request' || e.code === 'unauthorized_client'));
}

/** application/x-www-form-urlencoded encoding of one value (spaces as `+`). */
function formEncode(s: string): string {
  return new URLSearchParams({ s }).toString().slice(2);
}
