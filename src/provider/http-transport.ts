import { Pool } from './undici-pool.js';
import { ProviderError } from '../errors.js';
import { connectOption, type Reach } from '../network/connector.js';
import { HANDSHAKE_REFUSAL, isLastingFailure, UNTRUSTED_SERVER } from '../network/lasting-failure.js';
import { proxyFor } from '../network/proxy-rules.js';
import { ProxyTunnelError } from '../network/proxy-tunnel.js';
import type { Redactor } from './redact.js';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface HttpTimeouts {
  readonly connectMs: number;
  readonly headersMs: number;
  /** Longest silence between two chunks of the response body. */
  readonly bodyMs: number;
}

export const DEFAULT_TIMEOUTS: HttpTimeouts = Object.freeze({ connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 });

/** Response headers, names in lower case. */
export type IncomingHttpHeaders = Record<string, string | string[] | undefined>;

export interface HttpRequest {
  readonly method: HttpMethod;
  readonly url: URL;
  /** The path as shown in errors and events: relative to the base URL, no origin, no credentials. */
  readonly displayPath: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** Error codes that prove the request never left this machine: nothing reached the provider. */
const NOT_SENT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_INVALID_ARG',
  'UND_ERR_CLOSED',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  // TLS handshake failures happen before the first byte of the request is written.
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  // Nothing went past a proxy that could not be reached or would not open the tunnel.
  'PROXY_UNREACHABLE',
  'PROXY_AUTH_REQUIRED',
  'PROXY_REFUSED',
]);

/**
 * HTTP over one undici Pool per origin (base URL and token URL may differ), with connect, headers and body timeouts.
 * `send` resolves with any HTTP answer, whatever its status, and throws a ProviderError with status null when no
 * complete answer arrived; `outcomeUnknown` then says whether the request may have reached the provider.
 */
export class HttpTransport {
  readonly #pools = new Map<string, Pool>();
  readonly #timeouts: HttpTimeouts;
  readonly #connections: number;
  readonly #maxResponseBytes: number;
  readonly #redactor: Redactor;
  readonly #reach: Reach;
  /** The last handshake refusal of each origin and when it came (see connectOption). */
  readonly #refusals = new Map<string, { code: string; at: number }>();
  #closed = false;

  constructor(o: { timeouts: HttpTimeouts; connections: number; maxResponseBytes: number; redactor: Redactor; reach: Reach }) {
    this.#timeouts = o.timeouts;
    this.#connections = o.connections;
    this.#maxResponseBytes = o.maxResponseBytes;
    this.#redactor = o.redactor;
    this.#reach = o.reach;
  }

  get timeouts(): HttpTimeouts {
    return this.#timeouts;
  }

  #pool(origin: string): Pool {
    let pool = this.#pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: this.#connections,
        connect: connectOption(new URL(origin), this.#reach, this.#timeouts.connectMs, (code) => this.#refusals.set(origin, { code, at: performance.now() })),
        headersTimeout: this.#timeouts.headersMs,
        bodyTimeout: this.#timeouts.bodyMs,
      });
      this.#pools.set(origin, pool);
    }
    return pool;
  }

  /** Sends one request, once. Never retries. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    if (this.#closed) {
      throw new ProviderError(`${req.method} ${req.displayPath}: the provider client is closed`, {
        status: null, method: req.method, path: req.displayPath, code: 'client_closed', outcomeUnknown: false,
      });
    }
    const started = performance.now();
    const pool = this.#pool(req.url.origin);
    let status: number;
    let headers: IncomingHttpHeaders;
    const chunks: Buffer[] = [];
    try {
      const res = await pool.request({
        method: req.method,
        path: req.url.pathname + req.url.search,
        headers: req.headers,
        body: req.body,
      });
      status = res.statusCode;
      headers = res.headers;
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > this.#maxResponseBytes) {
          res.body.destroy();
          throw new ProviderError(
            `${req.method} ${req.displayPath}: the answer (HTTP ${status}) is larger than ${this.#maxResponseBytes} bytes; it was not read`,
            // The provider answered: if that answer was a success, whatever the call does has been done.
            { status, method: req.method, path: req.displayPath, code: 'response_too_large', outcomeUnknown: status < 300 },
          );
        }
        chunks.push(chunk);
      }
    } catch (e) {
      if (e instanceof ProviderError) throw e;
      throw this.#communicationError(req, e, started);
    }
    return { status, headers, body: Buffer.concat(chunks) };
  }

  #communicationError(req: HttpRequest, e: unknown, started: number): ProviderError {
    let code = errorCode(e);
    // Under TLS 1.3 a refused client certificate shows only as a closed connection: the alert says why.
    const refusal = this.#refusals.get(req.url.origin);
    if (code === 'UND_ERR_SOCKET' && refusal && refusal.at >= started) code = refusal.code;
    const notSent = NOT_SENT_CODES.has(code) || HANDSHAKE_REFUSAL.test(code);
    const { what, hint } = this.#explain(req, code, e);
    const outcomeUnknown = !notSent;
    const message = `${req.method} ${req.displayPath}: ${what}${outcomeUnknown ? '; the request may have reached the provider' : ''}`;
    // The original error is replaced by a plain one carrying only its code and message: undici errors can hold
    // sockets and request options, which must not travel with a thrown object.
    const cause = new Error(this.#redactor.text(`${code}: ${errorMessage(e)}`));
    return new ProviderError(message, {
      status: null,
      method: req.method,
      path: req.displayPath,
      code,
      outcomeUnknown,
      unreachable: true,
      cause,
      hint:
        hint ??
        (outcomeUnknown
          ? 'The provider may have received the request. Check its state before doing anything that could repeat it.'
          : `Check the network and the base URL (${req.url.origin}).`),
    });
  }

  /** What failed, in words, and what to check when the network is not the answer. */
  #explain(req: HttpRequest, code: string, e: unknown): { what: string; hint?: string } {
    const t = this.#timeouts;
    const origin = req.url.origin;
    if (e instanceof ProxyTunnelError) {
      const proxy = `the proxy ${e.proxy} (${this.#proxyName(req.url)})`;
      if (code === 'PROXY_AUTH_REQUIRED') {
        return { what: `${proxy} asks for authentication (HTTP 407)`, hint: "Put the proxy's user and password in its URL (http://user:password@proxy:3128), in the proxy setting or HTTPS_PROXY; a password with special characters is percent-encoded." };
      }
      if (code === 'PROXY_REFUSED') {
        return { what: `${proxy} refused to open a tunnel to ${req.url.host} (HTTP ${e.status})`, hint: `Ask for ${req.url.host} to be allowed through the proxy, or list the host in NO_PROXY if it is reached without one.` };
      }
      return { what: `${proxy} could not be reached${e.reason ? ` (${e.reason})` : ''}`, hint: 'Check the proxy setting or HTTPS_PROXY / HTTP_PROXY (and NO_PROXY).' };
    }
    if (HANDSHAKE_REFUSAL.test(code)) {
      const certificate = this.#reach.tls?.certificate;
      return certificate
        ? {
            what: `${origin} refused this client's certificate (${code})`,
            hint: `Check that ${certificate.file} (${certificate.subject}) is the certificate this provider issued or registered for this account and environment (sandbox and production certificates differ).`,
          }
        : {
            what: `${origin} asks for a client certificate (mutual TLS) and none is set (${code})`,
            hint: "Set the company's certificate for this provider: clientCert and clientKey (PEM files) or clientPfx (a PKCS#12 .p12/.pfx file), or PAYBATCH_CLIENT_CERT and PAYBATCH_CLIENT_KEY, or PAYBATCH_CLIENT_PFX.",
          };
    }
    if (UNTRUSTED_SERVER.has(code)) {
      const what =
        code === 'CERT_HAS_EXPIRED' ? `the certificate of ${origin} has expired`
        : code === 'CERT_NOT_YET_VALID' ? `the certificate of ${origin} is not valid yet`
        : code === 'ERR_TLS_CERT_ALTNAME_INVALID' ? `the certificate of ${origin} is not issued for ${req.url.hostname}`
        : `the certificate of ${origin} is not signed by a trusted authority (${code})`;
      return {
        what,
        hint:
          code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID'
            ? `Check the URL (${origin}) and this host's clock; if it is right, the provider's certificate is at fault.`
            : 'If the provider uses a private CA, or your network inspects TLS with its own, add that CA with the caFile setting (PAYBATCH_CA_FILE) or NODE_EXTRA_CA_CERTS.',
      };
    }
    const what =
      code === 'UND_ERR_CONNECT_TIMEOUT' ? `could not connect to ${origin} within ${t.connectMs} ms`
      : code === 'ECONNREFUSED' ? `connection to ${origin} refused`
      : code.startsWith('EAI_') || code === 'ENOTFOUND' ? `could not resolve the host of ${origin}`
      : code === 'UND_ERR_HEADERS_TIMEOUT' ? `no answer within ${t.headersMs} ms`
      : code === 'UND_ERR_BODY_TIMEOUT' ? `the answer stalled for more than ${t.bodyMs} ms`
      : code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE' ? 'the connection was lost before the answer was complete'
      : `the request failed (${code})`;
    return { what };
  }

  /** Where the proxy of `url` was named: the proxy setting or the variable. */
  #proxyName(url: URL): string {
    const route = proxyFor(url, this.#reach.proxy);
    return route && !('code' in route) ? (route.source === 'setting' ? 'the proxy setting' : route.source) : 'proxy';
  }

  /** Closes every pool, letting requests in flight finish. Further sends fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(pools.map((p) => p.close()));
  }
}

/** The code of a Node or undici error (`ECONNREFUSED`, `UND_ERR_SOCKET`…); an AggregateError gives its first one. */
function errorCode(e: unknown): string {
  if (typeof e === 'object' && e !== null) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner.length > 0) return errorCode(inner[0]);
    const cause = (e as { cause?: unknown }).cause;
    if (cause !== undefined && cause !== e) return errorCode(cause);
  }
  return 'UNKNOWN';
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The first value of a response header, or undefined. */
export function header(res: HttpResponse, name: string): string | undefined {
  const v = res.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
