import { STATUS_CODES, createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ConfigError, UsageError } from '../errors.js';
import type { EventReading, WebhookEvent } from '../domain/webhook-event.js';
import type { DeliveryMeta } from '../engine/webhooks/index.js';
import { isLedgerUnavailable } from '../ledger/ledger-unavailable.js';
import { webhookSecretProblem } from '../domain/webhook-proof.js';
import type { WebhookMethod, WebhookMethodSetting } from '../domain/webhook-proof.js';
import type { DaemonLogEntry } from './log-events.js';
import { acceptDeliveryBody, BODY_TOO_LARGE, checkDeliveryHead, routeDelivery, type DeliveryPolicy, type Refusal } from './accept-delivery.js';

export type ReceiverLogEntry = DaemonLogEntry;

export interface ReceiverOptions {
  /** 127.0.0.1 by default in the daemon; port 0 picks a free port. */
  host: string;
  port: number;
  /** `auto`: any method that proves the secret (see verifyDelivery); a method: only that one. */
  method: WebhookMethodSetting;
  secret: string;
  /** A header carrying the secret or a signature, besides the well-known ones; with `header`/`hmac` pinned, the only one. */
  header?: string | undefined;
  /** How Pix events are read under the profile (eventAmountUnit, reasonCodeFields, reasonMessageFields). */
  eventReading?: Partial<EventReading> | undefined;
  /** Tolerance of signed timestamps, seconds; default 300. */
  toleranceSeconds?: number;
  /** Larger bodies are refused with 413; default 256 KiB. */
  maxBodyBytes?: number;
  /** Time a client has to send a whole request (headers and body), ms; default 10 s. Slow senders get 408. */
  requestTimeoutMs?: number;
  /** Clock, ms since the epoch. */
  now?: () => number;
  /**
   * Must make the event durable (store it under its event id; its effect with it, or applied after from what was
   * stored) before resolving. 'duplicate' when the id was already stored. Throwing → 500 so the provider retries.
   */
  onEvent: (event: WebhookEvent, meta: DeliveryMeta) => Promise<'stored' | 'duplicate'>;
  /**
   * Asks what deliveries are stored in (the ledger) whether it answers: resolves when it does, throws when it cannot be
   * reached. Without it, `/healthz` answers ok on the receiver alone.
   */
  health?: () => Promise<unknown>;
  /** More of what `/healthz` reports (one document for everything the daemon reports: its clock, say). */
  status?: () => Record<string, unknown>;
  /** How long `/healthz` waits for `health`, ms; default 2 s. Slower counts as unavailable. */
  healthTimeoutMs?: number;
  /** Receives no secrets and no signatures. */
  log?: (entry: ReceiverLogEntry) => void;
}

export interface RunningReceiver {
  /** The full URL of `POST /webhooks`. */
  url: string;
  port: number;
  /** `received`, `stored`, `duplicate`, `failed`, `refused` and `refused.<reason>`, … */
  counters(): Record<string, number>;
  /** Stops accepting, waits for deliveries in flight (their onEvent calls included), then closes every connection. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 256 * 1024;
const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_HEALTH_TIMEOUT_MS = 2_000;
/** Why the receiver's address cannot be had: taken, privileged (ports below 1024), or not one of this machine's. */
const LISTEN_FAILURES = ['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL'] as const;
export type ListenFailure = (typeof LISTEN_FAILURES)[number];
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
const MAX_CONNECTIONS = 512;
/** After a 413 the rest of the body is not read; the client gets this long to read the answer before the socket goes. */
const OVERSIZE_LINGER_MS = 200;
/** How long close() lets connections finish their last answer before cutting them. */
const CLOSE_GRACE_MS = 1_000;
/** An HTTP token (RFC 9110 field-name). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The receiver's address (the daemon's --listen) cannot be listened on: a usage error, like the dashboard's (paybatch
 * ui), not a defect. `code` says why; the daemon words it in the user's language.
 */
export class ReceiverListenError extends UsageError {
  /** `host:port` as asked for, an IPv6 host in brackets. */
  readonly address: string;
  readonly code: ListenFailure;
  constructor(host: string, port: number, code: ListenFailure, cause: unknown) {
    const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    super(`--listen ${address}: the webhook receiver cannot listen there: ${LISTEN_REASONS[code]}.`, {
      hint: 'Pick another --listen address (port 0 picks a free one), or stop what is listening there.',
      cause,
    });
    this.address = address;
    this.code = code;
  }
}

const LISTEN_REASONS: Readonly<Record<ListenFailure, string>> = {
  EADDRINUSE: 'the port is already in use (EADDRINUSE)',
  EACCES: 'permission denied, ports below 1024 need privileges (EACCES)',
  EADDRNOTAVAIL: "the address is not one of this machine's (EADDRNOTAVAIL)",
};

/**
 * Starts the webhook receiver (DESIGN.md "Webhooks"): `POST /webhooks` and `GET /healthz` over node:http.
 * A delivery is judged by acceptDelivery — route (404/405), content type (415), size (413, checked here while
 * streaming), proof of the secret on the raw bytes (401, or 400 for unreadable signature headers), UTF-8 (400),
 * JSON (400), event shape (422) — then goes to onEvent; it is answered 200 `{"ok":true,"duplicate":bool}` only after onEvent resolved, 500 when
 * it threw. Nothing refused reaches onEvent; every refusal is counted by reason and logged without secrets. The first
 * delivery proved by each method is logged (with `auto`, so the user can pin it) and listed by `/healthz`, which
 * answers 503 `{"ok":false,"ledger":"unavailable","reason":…}` while `health` fails or is slower than its bound.
 * Throws ConfigError for an unusable secret or header name, ReceiverListenError when the address cannot be had.
 */
export async function startReceiver(o: ReceiverOptions): Promise<RunningReceiver> {
  const problem = webhookSecretProblem(o.secret);
  if (problem !== null) throw new ConfigError(`Cannot start the webhook receiver: ${problem}.`);
  if (o.header !== undefined && !HEADER_NAME.test(o.header)) {
    throw new ConfigError('Cannot start the webhook receiver: webhookSecretHeader is not a valid HTTP header name.');
  }

  const maxBodyBytes = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const policy: DeliveryPolicy = { method: o.method, secret: o.secret, header: o.header, toleranceSeconds: o.toleranceSeconds, maxBodyBytes, reading: o.eventReading };
  const requestTimeout = o.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const now = o.now ?? Date.now;
  const log = o.log ?? (() => {});
  const detected = new Set<WebhookMethod>();

  const counters = new Map<string, number>(['received', 'stored', 'duplicate', 'failed', 'refused'].map((k) => [k, 0]));
  const count = (key: string): void => {
    counters.set(key, (counters.get(key) ?? 0) + 1);
  };
  const inFlight = new Set<Promise<void>>();
  /** The response being written on each socket, so a client error never writes a second answer into it. */
  const responding = new WeakMap<Duplex, ServerResponse>();
  const lingering = new Map<NodeJS.Timeout, Socket>();
  let closing = false;

  const healthTimeoutMs = o.healthTimeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS;
  /** The health check running, shared by the /healthz requests that come meanwhile: a stuck ledger gets one at a time. */
  let probing: Promise<{ reason: string; error: unknown } | null> | null = null;
  let healthy = true;

  /** Null when the ledger answered within the bound; otherwise why not, fit for the answer (no message, no secret). */
  async function ledgerProblem(): Promise<string | null> {
    const check = o.health;
    if (!check) return null;
    probing ??= Promise.resolve()
      .then(check)
      .then(
        () => null,
        (error: unknown) => ({ reason: `${isLedgerUnavailable(error) ? 'the ledger cannot be reached' : 'the ledger query failed'}${codeOf(error)}`, error }),
      )
      .finally(() => (probing = null));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<{ reason: string; error: unknown }>((resolve) => {
      timer = setTimeout(() => resolve({ reason: `the ledger did not answer within ${healthTimeoutMs} ms`, error: undefined }), healthTimeoutMs);
    });
    const outcome = await Promise.race([probing, late]).finally(() => clearTimeout(timer));
    // Said once per change, not on every probe of a load balancer.
    if (outcome && healthy) log({ level: 'warn', event: 'healthz_unreachable', msg: 'healthz: the ledger cannot be reached; answering 503', reason: outcome.reason, ...(outcome.error === undefined ? {} : { error: errorText(outcome.error) }) });
    if (!outcome && !healthy) log({ level: 'info', event: 'healthz_answers', msg: 'healthz: the ledger answers again' });
    healthy = !outcome;
    return outcome?.reason ?? null;
  }

  const server = createServer({
    requestTimeout,
    headersTimeout: requestTimeout,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Node checks the two timeouts above only this often (30 s by default).
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(requestTimeout / 4))),
    maxHeaderSize: 16 * 1024,
  });
  server.maxConnections = MAX_CONNECTIONS;

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (res.headersSent || res.destroyed) return;
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      'cache-control': 'no-store',
      ...(closing ? { connection: 'close' } : {}),
      ...headers,
    });
    res.end(text);
  }

  function refuse(req: IncomingMessage, res: ServerResponse, r: Omit<Refusal, 'ok'>): void {
    count('refused');
    count(`refused.${slug(r.reason)}`);
    log({
      level: 'warn',
      event: 'webhook_refused',
      msg: 'webhook request refused',
      status: r.status,
      reason: r.reason,
      ...(r.detail === undefined ? {} : { detail: r.detail }),
      ...(r.deliveryId ? { deliveryId: clip(r.deliveryId) } : {}),
      method: clip(req.method ?? ''),
      path: clip(pathOf(req)),
      remote: req.socket.remoteAddress,
    });
    send(res, r.status, { ok: false, error: r.detail === undefined ? r.reason : `${r.reason}: ${r.detail}` }, r.headers);
  }

  /** A refusal; a 413 goes without reading the rest of the body. */
  function refuseAny(req: IncomingMessage, res: ServerResponse, r: Refusal): void {
    if (r.status === 413) refuseOversized(req, res, r);
    else refuse(req, res, r);
  }

  function noteProof(method: WebhookMethod | undefined): void {
    if (method === undefined || detected.has(method)) return;
    detected.add(method);
    if (o.method === 'auto') {
      log({ level: 'info', event: 'webhook_proof_found', msg: `webhook deliveries are proved by ${method}; pin it with: paybatch config set webhookVerification ${method}`, method });
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): Promise<void> {
    const receivedAt = new Date(now());
    const method = req.method ?? '';
    const path = pathOf(req);
    if (path === '/healthz' && (method === 'GET' || method === 'HEAD')) {
      const problem = await ledgerProblem();
      const state = { counters: Object.fromEntries(counters), verification: { setting: o.method, detected: [...detected] }, ...o.status?.() };
      return problem === null ? send(res, 200, { ok: true, ...state }) : send(res, 503, { ok: false, ledger: 'unavailable', reason: problem, ...state });
    }
    const misrouted = routeDelivery(method, path);
    if (misrouted) return refuse(req, res, misrouted);
    count('received');
    if (closing) return refuse(req, res, { status: 503, reason: 'shutting down', deliveryId: null });
    const head = checkDeliveryHead(req.headersDistinct, maxBodyBytes);
    if (head) return refuseAny(req, res, head);
    // `Expect: 100-continue`: the client sends its body only once told to, so refusals above cost it nothing.
    if (expectsContinue) {
      res.removeHeader('connection');
      res.writeContinue();
    }
    const body = await readBody(req, maxBodyBytes);
    if (body === 'too large') return refuseOversized(req, res);
    if (body === 'aborted') {
      count('aborted');
      log({ level: 'warn', event: 'webhook_aborted', msg: 'webhook delivery aborted by the client before its body ended', remote: req.socket.remoteAddress });
      return;
    }

    // Route and head were judged above, before the body was read.
    const verdict = acceptDeliveryBody({ headers: req.headersDistinct, body, now: now() }, policy);
    noteProof(verdict.proof);
    if (!verdict.ok) return refuseAny(req, res, verdict);
    const { event, deliveryId } = verdict;
    if (verdict.idMismatch) {
      count('idMismatch');
      log({ level: 'warn', event: 'webhook_id_differs', msg: 'webhook-id differs from the body eventId; the body eventId is the dedupe key', deliveryId: clip(deliveryId ?? ''), eventId: event.eventId });
    }

    let outcome: unknown;
    try {
      outcome = await o.onEvent(event, { deliveryId, receivedAt, body: verdict.body });
      if (outcome !== 'stored' && outcome !== 'duplicate') throw new Error(`onEvent resolved with ${String(outcome)}`);
    } catch (error) {
      count('failed');
      // The ledger away (its server down, a failover): 503, so the provider delivers it again later.
      const unavailable = isLedgerUnavailable(error);
      log({
        level: 'error',
        ...(unavailable
          ? { event: 'webhook_not_stored_unreachable', msg: 'webhook event not stored: the ledger cannot be reached; the provider will retry' }
          : { event: 'webhook_not_stored', msg: 'webhook event not stored; the provider will retry' }),
        eventId: event.eventId,
        error: errorText(error),
      });
      if (unavailable) res.setHeader('retry-after', '5');
      return send(res, unavailable ? 503 : 500, { ok: false, error: unavailable ? 'ledger unavailable' : 'event not stored' });
    }
    count(outcome);
    log({
      level: 'info',
      ...(outcome === 'stored' ? { event: 'webhook_stored', msg: 'webhook event stored' } : { event: 'webhook_duplicate', msg: 'webhook event already stored' }),
      eventId: event.eventId,
      kind: event.kind,
    });
    send(res, 200, { ok: true, duplicate: outcome === 'duplicate' });
  }

  /** 413 without reading the rest: the connection is closed shortly after the answer. */
  function refuseOversized(req: IncomingMessage, res: ServerResponse, r: Refusal = BODY_TOO_LARGE): void {
    req.pause();
    const socket = req.socket;
    res.once('finish', () => {
      const timer = setTimeout(() => {
        lingering.delete(timer);
        socket.destroy();
      }, OVERSIZE_LINGER_MS);
      lingering.set(timer, socket);
    });
    refuse(req, res, r);
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void => {
    responding.set(req.socket, res);
    // Refused before its body was asked for, the client may or may not send it: the connection cannot be reused.
    if (expectsContinue) res.setHeader('connection', 'close');
    res.once('close', () => {
      if (responding.get(req.socket) === res) responding.delete(req.socket);
    });
    req.on('error', () => {}); // a reset client; readBody sees the close
    const task = handle(req, res, expectsContinue)
      .catch((error: unknown) => {
        count('errors');
        log({ level: 'error', event: 'receiver_request_failed', msg: 'webhook receiver failed on a request', error: errorText(error) });
        if (res.headersSent) res.destroy();
        else send(res, 500, { ok: false, error: 'internal error' });
      })
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => onRequest(req, res, false));
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => onRequest(req, res, true));

  // Unparseable requests and slow senders (requestTimeout): answer when nothing was written yet, then hang up.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const code = error.code ?? '';
    if (code === 'ECONNRESET' || code === 'EPIPE' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const reason = status === 408 ? 'request timeout' : status === 431 ? 'headers too large' : 'malformed request';
    count('refused');
    count(`refused.${slug(reason)}`);
    log({ level: 'warn', event: 'webhook_refused', msg: 'webhook request refused', status, reason, code: clip(code) });
    if (responding.get(socket)?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });
  try {
    // A failure to listen is the caller's to report (ReceiverListenError): the server's own error log starts after.
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(o.port, o.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    server.close();
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if ((LISTEN_FAILURES as readonly string[]).includes(code)) throw new ReceiverListenError(o.host, o.port, code as ListenFailure, error);
    throw error;
  }
  server.on('error', (error: Error) => log({ level: 'error', event: 'receiver_server_error', msg: 'webhook receiver server error', error: errorText(error) }));
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}/webhooks`;
  log({ level: 'info', event: 'receiver_listening', msg: 'webhook receiver listening', url, verification: o.method });

  let closed: Promise<void> | null = null;
  return {
    url,
    port: address.port,
    counters: () => Object.fromEntries(counters),
    close(): Promise<void> {
      closed ??= (async () => {
        closing = true;
        const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
        for (const [timer, socket] of lingering) {
          clearTimeout(timer);
          socket.destroy();
        }
        lingering.clear();
        server.closeIdleConnections();
        const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        await serverClosed;
        clearTimeout(cut);
        log({ level: 'info', event: 'receiver_closed', msg: 'webhook receiver closed' });
      })();
      return closed;
    },
  };
}

/** Reads the whole body, stopping (without buffering more) once it exceeds the limit. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too large' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: Buffer | 'too large' | 'aborted'): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) settle('too large');
      else chunks.push(chunk);
    };
    const onEnd = (): void => settle(Buffer.concat(chunks, size));
    const onClose = (): void => settle('aborted');
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  });
}

/** The path without the query string, which is never logged (it could hold a token). */
function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

function slug(reason: string): string {
  return reason
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** ` (CODE)` for an error with a driver or system code (ECONNREFUSED, SQLITE_BUSY, 57P01); nothing else of it. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : '';
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
