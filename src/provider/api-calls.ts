import { ProviderError } from '../errors.js';
import { DecodeError } from './decode.js';
import { describeErrorBody, errorFromResponse } from './error-body.js';
import { isLastingFailure } from '../network/lasting-failure.js';
import { header, type HttpMethod, type HttpResponse, type HttpTransport } from './http-transport.js';
import type { Redactor } from './redact.js';
import { isRetryableStatus, parseRetryAfter, retrying, type RetryLoopOptions } from './retry-policy.js';
import type { TokenSource } from './token-source.js';
import type { ProviderEvent } from './types.js';

/**
 * How a call may be repeated after a failure:
 * - `repeatable`: retried on communication failures, 408, 429 and 5xx — reads, deletes, and writes the provider
 *   treats as idempotent (items by identifier, start-process), always with the very same body;
 * - `once`: never retried (create batch, pay a bill). A 401 is repeated once after a token refresh in both modes: the
 *   provider refused the call, so nothing was done.
 */
type RetryMode = 'repeatable' | 'once';

export interface CallSpec {
  readonly method: HttpMethod;
  /** Path segments below the base URL, URL-encoded one by one here (Pix keys hold `@` and `+`). */
  readonly segments: readonly string[];
  readonly body?: string;
  readonly mode: RetryMode;
  /** Non-2xx statuses that are answers for this call (404 for a key lookup), not errors. */
  readonly accept?: readonly number[];
  /** A 404 after an attempt that may have been applied means an earlier attempt did the delete. */
  readonly deleteSemantics?: boolean;
}

export interface CallResult {
  readonly res: HttpResponse;
  readonly path: string;
}

export interface ApiCallsOptions {
  readonly origin: string;
  readonly basePath: string;
  readonly apiKey: string;
  readonly userAgent: string;
  readonly transport: HttpTransport;
  readonly tokens: TokenSource;
  readonly redactor: Redactor;
  readonly retryLoop: RetryLoopOptions;
  readonly now: () => number;
  readonly emit: (e: ProviderEvent) => void;
}

/**
 * How every call to the provider API is made, whatever the endpoint: the `Service-ApiKey` and bearer token headers,
 * one token refresh after a 401, the retry rules of the call's mode, what an answer or a failure says about whether
 * the provider may have applied the call, and the decoding of success answers. The endpoints are in client.ts.
 */
export class ApiCalls {
  readonly #o: ApiCallsOptions;
  /** Retry-After of the answer behind an error, for callers that retry a call of their own (ensureBatch). */
  readonly #retryAfter = new WeakMap<ProviderError, number>();
  #seq = 0;
  #answering = true;
  /** Requests sent and not answered yet: when each was sent. */
  readonly #inFlight = new Map<number, number>();

  constructor(o: ApiCallsOptions) {
    this.#o = o;
  }

  /**
   * False while the provider's last answer was none (refused, reset, timed out) or a 5xx, or while a request has
   * waited `withinMs` for its answer (a link that swallows requests): work that needs the provider cannot progress,
   * and a daemon lets its lease on that work run out, for another host to try. True before any call.
   */
  answering(withinMs: number): boolean {
    const oldest = Math.min(...this.#inFlight.values());
    return this.#answering && !(this.#o.now() - oldest >= withinMs);
  }

  /** The Retry-After (ms) the provider sent with the answer behind this error, if any. */
  retryAfterOf(e: ProviderError): number | null {
    return this.#retryAfter.get(e) ?? null;
  }

  /** One call with authentication, the 401 refresh and the retry rules of its mode. Resolves with a 2xx or accepted answer. */
  async call(spec: CallSpec): Promise<CallResult> {
    const path = buildPath(spec.segments);
    const url = new URL(this.#o.basePath + path, this.#o.origin);
    const { method } = spec;
    const baseHeaders: Record<string, string> = {
      'service-apikey': this.#o.apiKey,
      accept: 'application/json',
      'user-agent': this.#o.userAgent,
    };
    if (spec.body !== undefined) baseHeaders['content-type'] = 'application/json';
    // Every send is numbered, the repeat after a 401 refresh included; the refresh happens once per call.
    let sends = 0;
    let refreshed = false;
    // Whether some attempt may have been applied by the provider though it gave no usable answer.
    let mayHaveApplied = false;
    return retrying(
      async ({ retryable }) => {
        // More than one send only for the 401 refresh, which is no retry of a failure: the provider refused the call.
        for (;;) {
          const token = await this.#o.tokens.get();
          const id = ++this.#seq;
          const attempt = ++sends;
          const started = this.#o.now();
          this.#o.emit({ type: 'request', id, method, path, attempt });
          let res: HttpResponse;
          this.#inFlight.set(id, started);
          try {
            res = await this.#o.transport.send({ method, url, displayPath: path, headers: { ...baseHeaders, authorization: `Bearer ${token}` }, ...(spec.body === undefined ? {} : { body: spec.body }) });
          } catch (e) {
            this.#inFlight.delete(id);
            if (!(e instanceof ProviderError)) throw e;
            this.#answering = e.status !== null;
            this.#o.emit({ type: 'failure', id, method, path, attempt, cause: e.code ?? 'error', outcomeUnknown: e.outcomeUnknown, ms: this.#o.now() - started });
            mayHaveApplied ||= e.outcomeUnknown;
            const failure = withOutcome(e, mayHaveApplied);
            // An answer that arrived but could not be read (too large) is not a communication failure: no retry.
            if (e.status !== null || spec.mode === 'once' || isLastingFailure(e)) throw failure;
            throw retryable(failure, { retryAfterMs: null, reason: e.code ?? 'communication failure' });
          }
          this.#inFlight.delete(id);
          const { status } = res;
          this.#answering = status < 500;
          this.#o.emit({ type: 'response', id, method, path, attempt, status, ms: this.#o.now() - started });
          if ((status >= 200 && status < 300) || spec.accept?.includes(status)) return { res, path };
          if (status === 404 && spec.deleteSemantics && mayHaveApplied) return { res, path };
          if (status === 401) {
            if (!refreshed) {
              refreshed = true;
              this.#o.tokens.invalidate(token);
              continue;
            }
            throw errorFromResponse(method, path, res, this.#o.redactor, {
              message: `The provider refused the credentials on ${method} ${path} (HTTP 401), even with a new access token`,
              hint: 'Check the API key and the OAuth client id and secret of the profile (`paybatch config show` masks them).',
              outcomeUnknown: mayHaveApplied,
            });
          }
          // 500, 502 and 504 may come after (or from a gateway in front of) a provider that did the work.
          if (method !== 'GET' && answerLeavesOutcomeUnknown(status)) mayHaveApplied = true;
          const failure = errorFromResponse(method, path, res, this.#o.redactor, { outcomeUnknown: mayHaveApplied });
          const retryAfterMs = parseRetryAfter(header(res, 'retry-after'), this.#o.now());
          if (retryAfterMs !== null) this.#retryAfter.set(failure, retryAfterMs);
          if (spec.mode === 'once' || !isRetryableStatus(status)) throw failure;
          throw retryable(failure, { retryAfterMs, reason: `HTTP ${status}` });
        }
      },
      {
        ...this.#o.retryLoop,
        onRetry: ({ delayMs, reason }) => this.#o.emit({ type: 'retry', method, path, attempt: sends + 1, delayMs, reason }),
      },
    );
  }

  /** Parses and decodes a success answer; an unexpected body is a ProviderError (outcome unknown for state changes). */
  decode<T>(res: HttpResponse, method: HttpMethod, path: string, changesState: boolean, decode: (v: unknown) => T): T {
    try {
      let json: unknown;
      try {
        json = JSON.parse(res.body.toString('utf8'));
      } catch {
        throw new DecodeError('', 'the body is not JSON');
      }
      return decode(json);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      const ct = header(res, 'content-type');
      const notPdf = e.problem.includes('not a PDF');
      throw new ProviderError(`${method} ${path}: the provider answered HTTP ${res.status} with an unexpected body (${this.#o.redactor.text(e.message)})`, {
        status: res.status,
        method,
        path,
        code: notPdf ? 'not_a_pdf' : 'malformed_response',
        body: describeErrorBody(res.body, ct, this.#o.redactor).body,
        outcomeUnknown: changesState,
        hint: changesState
          ? 'The provider accepted the request, but its answer could not be read: check its state before repeating anything.'
          : 'The provider answered in a shape paybatch does not know; check the base URL and the provider version.',
      });
    }
  }
}

/** `/a/b/c` with each segment percent-encoded. */
export function buildPath(segments: readonly string[]): string {
  return segments.map((s) => `/${encodeURIComponent(s)}`).join('');
}

function answerLeavesOutcomeUnknown(status: number): boolean {
  return status === 500 || status === 502 || status === 504;
}

/** The same error with `outcomeUnknown` raised when an earlier attempt may have been applied. */
function withOutcome(e: ProviderError, mayHaveApplied: boolean, note?: string): ProviderError {
  if (!note && (e.outcomeUnknown || !mayHaveApplied)) return e;
  const outcomeUnknown = e.outcomeUnknown || mayHaveApplied;
  return new ProviderError(note ? `${e.message} (${note})` : e.message, {
    status: e.status,
    method: e.method,
    path: e.path,
    code: e.code,
    body: e.body,
    outcomeUnknown,
    unreachable: e.type === 'provider_unreachable',
    hint: outcomeUnknown && !e.outcomeUnknown ? 'An earlier attempt may have reached the provider: check its state before repeating.' : e.hint,
    cause: e.cause,
  });
}

export function withNote(e: ProviderError, note: string): ProviderError {
  return withOutcome(e, e.outcomeUnknown, note);
}
