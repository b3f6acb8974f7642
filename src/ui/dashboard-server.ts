import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isIP } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ITEM_STATES, type ItemState } from '../domain/item-state.js';
import type { Locale } from '../words/locale.js';
import {
  acknowledgeAlert, alertsView, approvalsView, batchCalls, batchDetail, batchesWithProgress, batchItems, billsView, daemonStatus, periodStatement, receiptFile,
  receiptsView, type AlertView, type ApprovalGate, type Ledger, type PeriodStatement, type StatementFormat, type StatementOptions,
} from '../engine/dashboard/index.js';
import { PaybatchError, UsageError } from '../errors.js';
import { dashboardAssets, type Asset } from './dashboard-assets.js';
import { cookieValue, dashboardKeys, newDashboardToken } from './dashboard-auth.js';
import { presenter, type LineageText } from './dashboard-present.js';
import { statementProblemMessage, statementQuery } from './statement-query.js';

/** What the dashboard takes of the reports layer (given by the CLI): a lineage in words, a statement as a file. */
export interface DashboardReports {
  readonly lineageText: LineageText;
  /** Rejects with a PaybatchError of reason `statement_account_unset` for OFX when the profile names no account. */
  readonly renderStatement: (statement: PeriodStatement, format: StatementFormat, locale: Locale) => Promise<Buffer>;
}

/** The profile's company on statements (its settings companyName … companyAccount), and how it reads Pix events. */
export type DashboardCompany = Pick<StatementOptions, 'payer' | 'account' | 'eventReading'>;

export interface DashboardOptions {
  readonly ledger: Ledger;
  readonly locale: Locale;
  /** The token of the printed URL; a fresh random one when not given. */
  readonly token?: string;
  /** Host headers answered (DNS rebinding: a page of another site resolved to 127.0.0.1); `any` with remote access. */
  readonly hosts: readonly string[] | 'any';
  /** An alert's words in the dashboard's language (the alerts layer's, given by the CLI): its title, summary and next step. */
  readonly alertWords: (a: AlertView) => { readonly title: string; readonly summary: string; readonly nextStep: string | null };
  /** The reports layer's lineage words and statement files (given by the CLI, as the alerts' words are). */
  readonly reports: DashboardReports;
  /** Unset: a statement without payer line, and no OFX (it names the company's account). */
  readonly company?: DashboardCompany | undefined;
  /** The profile's approval policy and approvers (public keys only); without it the approvals panel says so. */
  readonly approvals?: ApprovalGate | undefined;
  /** The profile shown: the command that starts its daemon names it (`paybatch --profile carga daemon`). */
  readonly profile?: string | undefined;
  readonly now?: () => Date;
  /** Errors of the server itself (a failed query), without request data. */
  readonly log?: (message: string) => void;
}

/** Pages: scripts, styles, frames and requests only from the dashboard itself; no inline script or style. */
const PAGE_CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'", "frame-src 'self'",
  "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join('; ');
/** A receipt may be framed by the dashboard's own page (the viewer) and nothing else; Chromium's PDF viewer needs no more. */
const RECEIPT_CSP = "frame-ancestors 'self'";
const ITEMS_PAGE_MAX = 500;
const SEARCH_MAX = 100;
const STATEMENT_TYPES: Readonly<Record<StatementFormat, string>> = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  ofx: 'application/x-ofx',
};
const NO_COMPANY: DashboardCompany = { payer: { name: null, document: null }, account: null, eventReading: {} };

/**
 * The dashboard's HTTP application: the page and its assets, a JSON API over the engine's read models, the receipt
 * files the ledger recorded, and one action (acknowledge an alert). Every request needs the session cookie, or the
 * token in `?token=` (which sets the cookie and redirects to the same URL without it): 401 otherwise, for every
 * route, known or not. POSTs also need the page's CSRF token and a same-origin Origin header (403 otherwise).
 */
export function buildDashboardApp(o: DashboardOptions): { app: FastifyInstance; token: string } {
  const token = o.token ?? newDashboardToken();
  const keys = dashboardKeys(token);
  const now = o.now ?? (() => new Date());
  const show = presenter(o.locale, o.reports.lineageText);
  const assets = dashboardAssets();
  const app = Fastify({ bodyLimit: 16 * 1024, forceCloseConnections: true, return503OnClosing: true });
  const sessions = new WeakMap<FastifyRequest, string>();
  const cookieName = (request: FastifyRequest) => `paybatch-ui-${portOf(request.headers.host)}`;

  app.addHook('onRequest', async (request, reply) => {
    securityHeaders(reply);
    if (o.hosts !== 'any' && !o.hosts.includes((request.headers.host ?? '').toLowerCase())) {
      return reply.code(403).type('text/plain; charset=utf-8').send('This address is not the one paybatch ui listens on.\n');
    }
    const url = new URL(request.url, 'http://dashboard');
    const given = url.searchParams.get('token');
    if (given !== null) {
      if (!keys.tokenMatches(given) || request.method !== 'GET') return unauthorized(request, reply);
      // The token leaves the address bar (and history) at once: the session cookie stands for it from now on.
      url.searchParams.delete('token');
      const cookie = `${cookieName(request)}=${keys.newSession()}; HttpOnly; SameSite=Strict; Path=/`;
      // `//host/…` would send the browser to another site.
      const path = url.pathname.startsWith('//') ? '/' : url.pathname;
      return reply.code(303).header('set-cookie', cookie).header('location', `${path}${url.search}`).send();
    }
    const session = keys.sessionOf(cookieValue(request.headers.cookie, cookieName(request)));
    if (session === null) return unauthorized(request, reply);
    sessions.set(request, session);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const origin = request.headers.origin;
      if (origin !== `http://${request.headers.host}` || !keys.csrfMatches(session, header(request, 'x-csrf-token'))) {
        return reply.code(403).send({ error: 'forbidden', message: 'This action needs the dashboard page: reload it and try again.' });
      }
    }
  });
  app.setErrorHandler((error, _request, reply) => {
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) return reply.code(status).send({ error: 'bad_request', message: 'bad request' });
    o.log?.(`dashboard: ${error instanceof Error ? error.message : String(error)}`);
    return reply.code(500).send({ error: 'internal', message: 'The dashboard could not read the ledger; see the terminal.' });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'not_found' }));

  app.get('/', (request, reply) => sendPage(reply, assets.page(o.locale, keys.csrfOf(sessions.get(request)!))));
  app.get<{ Params: { name: string } }>('/assets/:name', (request, reply) => {
    const asset = assets.file(request.params.name);
    return asset ? sendAsset(reply, asset) : reply.code(404).send({ error: 'not_found' });
  });

  // The strip on every page: whether a daemon follows the payments, and the open alerts.
  const startDaemon = `paybatch${o.profile === undefined || o.profile === 'default' ? '' : ` --profile ${o.profile}`} daemon`;
  app.get('/api/status', async () => {
    const daemon = show.daemon(await daemonStatus(o.ledger, now()));
    const alerts = await alertsView(o.ledger, { includeAcked: false });
    return { zone: show.zone, daemon, startDaemon, alerts: { open: alerts.length, titles: alerts.map((a) => ({ id: a.id, title: o.alertWords(a).title })) } };
  });
  app.get('/api/batches', async () => ({ zone: show.zone, batches: (await batchesWithProgress(o.ledger)).map(show.batch) }));
  app.get<{ Params: { id: string } }>('/api/batches/:id', async (request, reply) => {
    const batch = await batchDetail(o.ledger, idOf(request.params.id), now());
    return batch ? { zone: show.zone, batch: show.batchDetail(batch) } : reply.code(404).send({ error: 'not_found' });
  });
  app.get<{ Params: { id: string }; Querystring: Record<string, string | undefined> }>('/api/batches/:id/items', async (request) => {
    const q = request.query;
    const status = q.status ? stateOf(q.status) : undefined;
    const batchId = idOf(request.params.id);
    const page = await batchItems(o.ledger, batchId, {
      status,
      search: q.q?.slice(0, SEARCH_MAX),
      offset: numberIn(q.offset, 0, Number.MAX_SAFE_INTEGER, 0),
      limit: numberIn(q.limit, 1, ITEMS_PAGE_MAX, 100),
    });
    return { total: page.total, items: page.items.map((i) => show.item(i, batchId)) };
  });
  app.get<{ Params: { id: string } }>('/api/batches/:id/calls', async (request) => ({
    zone: show.zone,
    calls: (await batchCalls(o.ledger, idOf(request.params.id))).map(show.call),
  }));
  app.get<{ Querystring: { all?: string } }>('/api/alerts', async (request) => ({
    zone: show.zone,
    alerts: (await alertsView(o.ledger, { includeAcked: request.query.all === '1' })).map((a) => show.alert(a, o.alertWords(a))),
  }));
  app.post<{ Params: { id: string } }>('/api/alerts/:id/ack', async (request, reply) => {
    const done = await acknowledgeAlert(o.ledger, idOf(request.params.id), now());
    return done ? { ok: true } : reply.code(404).send({ error: 'not_found' });
  });
  app.get('/api/bills', async () => ({ zone: show.zone, bills: (await billsView(o.ledger)).map(show.bill) }));
  app.get<{ Querystring: { batch?: string } }>('/api/receipts', async (request) => ({
    zone: show.zone,
    receipts: (await receiptsView(o.ledger, request.query.batch ? idOf(request.query.batch) : undefined)).map(show.receipt),
  }));
  app.get('/api/approvals', async () =>
    o.approvals ? { available: true, pending: (await approvalsView(o.ledger, o.approvals)).map(show.approval) } : { available: false, pending: [] },
  );
  // A period's statement as a file in the dashboard's language, gathered and written as every statement is.
  const profile = o.profile ?? 'default';
  app.get<{ Querystring: Record<string, string | undefined> }>('/api/statement', async (request, reply) => {
    const asked = statementQuery(request.query);
    if (!asked.ok) return reply.code(400).send({ error: 'bad_request', ...asked.problem, message: statementProblemMessage(asked.problem) });
    const { format, from, to, label } = asked.query;
    const statement = await periodStatement(o.ledger, { ...(o.company ?? NO_COMPANY), from, to, profile, now: now() });
    let file: Buffer;
    try {
      file = await o.reports.renderStatement(statement, format, o.locale);
    } catch (e) {
      if (!(e instanceof PaybatchError) || e.reason?.code !== 'statement_account_unset') throw e;
      return reply.code(422).send({ error: 'unprocessable', code: e.reason.code, profile, message: `${e.message} ${e.hint ?? ''}`.trim() });
    }
    return reply
      .header('content-disposition', `attachment; filename="${fileNamed(profile)}-statement-${label}.${format}"`)
      .type(STATEMENT_TYPES[format])
      .send(file);
  });
  app.get<{ Params: { of: string; id: string } }>('/receipts/:of/:id', async (request, reply) => {
    const of = request.params.of;
    if (of !== 'item' && of !== 'bill') return reply.code(404).send({ error: 'not_found' });
    const id = idOf(request.params.id);
    // Only a path the ledger recorded is ever opened: the request names a ledger row, never a file.
    const path = await receiptFile(o.ledger, of, id);
    const file = path === undefined ? undefined : await stat(path).catch(() => undefined);
    if (path === undefined || !file?.isFile()) return reply.code(404).send({ error: 'not_found' });
    return reply
      .header('content-security-policy', RECEIPT_CSP)
      .header('x-frame-options', 'SAMEORIGIN')
      .header('content-disposition', `inline; filename="${of}-${id}.pdf"`)
      .header('content-length', String(file.size))
      .type('application/pdf')
      .send(createReadStream(path));
  });
  return { app, token };
}

export interface RunningDashboard {
  /** The URL to open, with the token. */
  readonly url: string;
  /** `host:port` it listens on. */
  readonly listen: string;
  /** Listening beyond loopback (`allowRemote`). */
  readonly remote: boolean;
  close(): Promise<void>;
}

/**
 * Starts the dashboard on `host:port` (port 0: a free one). A host other than a loopback address is refused unless
 * `allowRemote`: the dashboard speaks plain HTTP, so anyone on the path could read the token and the ledger.
 */
export async function startDashboard(o: Omit<DashboardOptions, 'hosts'> & { host: string; port: number; allowRemote: boolean }): Promise<RunningDashboard> {
  const loopback = isLoopback(o.host);
  if (!loopback && !o.allowRemote) {
    throw new UsageError(`The dashboard listens only on a loopback address (127.0.0.1, ::1, localhost), not ${o.host}.`, {
      hint: 'Use a loopback address, or `paybatch ui --allow-remote` to listen there anyway: the page travels unencrypted, token included.',
    });
  }
  let port = o.port;
  const hostsOf = () => [o.host, '127.0.0.1', 'localhost', '[::1]'].map((h) => `${h.includes(':') && !h.startsWith('[') ? `[${h}]` : h}:${port}`.toLowerCase());
  // Checked per request: the port is known only once listening (port 0).
  const hosts: string[] = [];
  const { app, token } = buildDashboardApp({ ...o, hosts: loopback ? hosts : 'any' });
  try {
    await app.listen({ host: o.host, port: o.port });
  } catch (e) {
    await app.close();
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL'].includes(code)) {
      throw new UsageError(`The dashboard cannot listen on ${o.host}:${o.port}: ${(e as Error).message}`, { hint: 'Pick another --listen address (port 0 picks a free one).' });
    }
    throw e;
  }
  port = (app.server.address() as { port: number }).port;
  hosts.push(...hostsOf());
  const shownHost = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    listen: `${shownHost}:${port}`,
    remote: !loopback,
    close: () => app.close(),
  };
}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

function securityHeaders(reply: FastifyReply): void {
  reply.headers({
    'content-security-policy': PAGE_CSP,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  });
}

function unauthorized(request: FastifyRequest, reply: FastifyReply) {
  const words = 'paybatch ui: open the address printed by `paybatch ui` (with its ?token=…) to sign in.\n';
  return request.url.startsWith('/api/')
    ? reply.code(401).send({ error: 'unauthorized', message: words.trim() })
    : reply.code(401).type('text/plain; charset=utf-8').send(words);
}

function sendPage(reply: FastifyReply, html: string) {
  return reply.type('text/html; charset=utf-8').send(html);
}

function sendAsset(reply: FastifyReply, asset: Asset) {
  return reply.type(asset.type).send(asset.body);
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A profile's name as a file name's part: letters, digits, `.`, `_` and `-` (a header's quoted value never breaks). */
function fileNamed(profile: string): string {
  return profile.replace(/[^\w.-]+/g, '-');
}

function portOf(host: string | undefined): string {
  return /:(\d+)$/.exec(host ?? '')?.[1] ?? '80';
}

class BadRequest extends Error {
  readonly statusCode = 400;
}

function idOf(text: string): number {
  if (!/^\d{1,9}$/.test(text)) throw new BadRequest('not an id');
  return Number(text);
}

function stateOf(text: string): ItemState {
  if (!(ITEM_STATES as readonly string[]).includes(text)) throw new BadRequest('not an item state');
  return text as ItemState;
}

function numberIn(text: string | undefined, min: number, max: number, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  if (!/^\d{1,15}$/.test(text)) throw new BadRequest('not a number');
  return Math.min(max, Math.max(min, Number(text)));
}
