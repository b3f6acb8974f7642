import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach } from 'vitest';
import type { AddressInfo } from 'node:net';
import { ProviderClient } from '../../src/provider/client.js';
import type { ProviderClientOptions, ProviderEvent } from '../../src/provider/types.js';

export const API_KEY = 'ak_test_SECRETAPIKEY_7f3a91';
export const CLIENT_ID = 'paybatch-client';
export const CLIENT_SECRET = 'cs_test_SECRETCLIENT_c0ffee';
export const TOKEN_PREFIX = 'at_SECRETTOKEN_';
export const SECRETS = [API_KEY, CLIENT_SECRET, TOKEN_PREFIX, Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')];

export interface Seen {
  method: string;
  /** Path as received, still percent-encoded. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: Seen, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

export interface FakeServer {
  url: string;
  tokenUrl: string;
  /** API requests (the token endpoint excluded). */
  seen: Seen[];
  /** Token requests. */
  tokenRequests: Seen[];
  /** Tokens issued, in order. */
  tokens: string[];
  /** Tokens the API refuses with 401 from now on. */
  revoked: Set<string>;
  close(): Promise<void>;
}

export interface FakeOptions {
  /** expires_in of issued tokens, seconds; default 3600. */
  expiresIn?: number;
  /** Answer the token endpoint with this instead of a token (status, body). */
  tokenAnswer?: (n: number) => { status: number; body: unknown } | null;
  /** Where the token endpoint takes the client credentials: HTTP Basic (default) or the form body (client_secret_post). */
  clientAuth?: 'basic' | 'body';
  /** Check auth headers on API calls and 401 when wrong; default true. */
  checkAuth?: boolean;
}

/** A small provider on 127.0.0.1 with an OAuth token endpoint at /oauth/token and `handler` for the API. */
export async function fakeProvider(handler: Handler, o: FakeOptions = {}): Promise<FakeServer> {
  const seen: Seen[] = [];
  const tokenRequests: Seen[] = [];
  const tokens: string[] = [];
  const revoked = new Set<string>();
  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const req: Seen = { method: raw.method ?? '', url: raw.url ?? '', headers: raw.headers, body: Buffer.concat(chunks).toString('utf8') };
      if (req.url === '/oauth/token') {
        tokenRequests.push(req);
        const custom = o.tokenAnswer?.(tokenRequests.length);
        if (custom) return json(res, custom.status, custom.body);
        const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
        const form = new URLSearchParams(req.body);
        const good =
          (o.clientAuth ?? 'basic') === 'basic'
            ? req.headers.authorization === basic && req.body === 'grant_type=client_credentials'
            : req.headers.authorization === undefined && form.get('client_id') === CLIENT_ID && form.get('client_secret') === CLIENT_SECRET;
        if (!good || form.get('grant_type') !== 'client_credentials') {
          return json(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' });
        }
        const token = `${TOKEN_PREFIX}${tokens.length + 1}`;
        tokens.push(token);
        return json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: o.expiresIn ?? 3600 });
      }
      seen.push(req);
      if (o.checkAuth ?? true) {
        const auth = req.headers.authorization ?? '';
        const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
        if (req.headers['service-apikey'] !== API_KEY || !tokens.includes(token) || revoked.has(token)) {
          return json(res, 401, { error: { code: 'unauthorized', message: 'invalid credentials' } });
        }
      }
      void Promise.resolve(handler(req, res, raw)).catch((e: unknown) => {
        if (!res.headersSent) json(res, 599, { error: { code: 'fake_crashed', message: String(e) } });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    tokenUrl: `${url}/oauth/token`,
    seen,
    tokenRequests,
    tokens,
    revoked,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A port on 127.0.0.1 where nothing listens (connection refused). */
export async function deadPort(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

export interface TestClient {
  client: ProviderClient;
  events: ProviderEvent[];
  sleeps: number[];
}

/**
 * Fake providers and test clients for one test file, all closed after each test. `setup` makes a server and a
 * client over it with the file's default client options; `server` and `client` make one of each for odd setups.
 */
export function useFakeProviders(defaults: Partial<ProviderClientOptions> = {}) {
  const servers: FakeServer[] = [];
  const clients: ProviderClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const s of servers.splice(0)) await s.close();
  });
  const server = async (handler: Handler, o: FakeOptions = {}) => {
    const s = await fakeProvider(handler, o);
    servers.push(s);
    return s;
  };
  const client = (target: Pick<FakeServer, 'url' | 'tokenUrl'>, o: Partial<ProviderClientOptions> = {}) => {
    const t = testClient(target, o);
    clients.push(t.client);
    return t;
  };
  const setup = async (handler: Handler, o: FakeOptions = {}, clientOpts: Partial<ProviderClientOptions> = {}) => {
    const s = await server(handler, o);
    return { server: s, ...client(s, { ...defaults, ...clientOpts }) };
  };
  return { server, client, setup };
}

/**
 * A client for `server` with instant, recorded sleeps and a fixed random (0.5) unless overridden, for a profile whose
 * Pix amount unit is set to centavos unless the options say otherwise (`pixAmountUnit: undefined` and a dialect
 * without one: unset).
 */
export function testClient(server: Pick<FakeServer, 'url' | 'tokenUrl'>, o: Partial<ProviderClientOptions> = {}): TestClient {
  const events: ProviderEvent[] = [];
  const sleeps: number[] = [];
  const client = new ProviderClient({
    baseUrl: server.url,
    tokenUrl: server.tokenUrl,
    apiKey: API_KEY,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    onEvent: (e) => events.push(e),
    timeouts: { connectMs: 1_000, headersMs: 2_000, bodyMs: 2_000 },
    ...(Object.hasOwn(o, 'pixAmountUnit') || o.dialect?.pixAmountUnit ? {} : { pixAmountUnit: 'cents' as const }),
    ...(Object.hasOwn(o, 'billAmountUnit') || o.dialect?.billAmountUnit ? {} : { billAmountUnit: 'reais' as const }),
    ...o,
  });
  return { client, events, sleeps };
}

export const DEST = {
  accountType: 'checkingAccount',
  branch: '0001',
  key: 'ana+pix@example.com',
  accountNumber: '12345-6',
  institutionName: 'Banco Exemplo',
  document: '***.456.789-**',
  type: 'email',
  institution: '12345678',
  name: 'Ana Souza',
};

/** Collects every page of an async iterable. */
export async function collect<T>(pages: AsyncIterable<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const p of pages) out.push(p);
  return out;
}

/** Awaits a promise that must reject and returns the reason. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

export interface MiniState {
  batches: { id: string; name: string; status: string; quantityItems: number; timestamp: number; type: string }[];
  items: Map<string, { itemId: string; status: string; description: string; amount: number; identifier: string; to: unknown; batchId: string; body: string }[]>;
  /** Hooks run before the normal handling; return true when they answered. */
  before?: (req: Seen, res: ServerResponse, raw: IncomingMessage) => boolean;
}

/**
 * A stateful Pix batch API in the sandbox's shape: pages of `pageSize`, cursors `c<offset>`, items idempotent by
 * identifier (409 for the same identifier with another body).
 */
export function miniProvider(pageSize = 2): { state: MiniState; handler: Handler } {
  const state: MiniState = { batches: [], items: new Map() };
  let seq = 0;
  const page = <T>(all: T[], cursor: string | undefined) => {
    const from = cursor ? Number(cursor.slice(1)) : 0;
    const next = from + pageSize;
    return { cursor: next < all.length ? `c${next}` : null, data: all.slice(from, next) };
  };
  const handler: Handler = (req, res, raw) => {
    if (state.before?.(req, res, raw)) return;
    const parts = req.url.split('/').slice(1).map(decodeURIComponent);
    const [a, b, c, d, e] = parts;
    if (req.method === 'POST' && a === 'pix' && b === 'batch' && parts.length === 2) {
      const { name } = JSON.parse(req.body) as { name: string };
      const batch = { id: `b${++seq}`, name, status: 'pending', quantityItems: 0, timestamp: 1_700_000_000 + seq, type: 'pix' };
      state.batches.push(batch);
      state.items.set(batch.id, []);
      return json(res, 200, batch);
    }
    if (req.method === 'GET' && a === 'pix' && b === 'batch' && parts.length <= 3) return json(res, 200, page(state.batches, c));
    const batch = state.batches.find((x) => x.id === c);
    if (a === 'pix' && b === 'batch' && !batch) return json(res, 404, { error: { code: 'not_found', message: 'batch not found' } });
    const items = state.items.get(c ?? '') ?? [];
    if (req.method === 'POST' && d === 'items') {
      const body = JSON.parse(req.body) as { amount: number; identifier: string; description: string; to: unknown }[];
      const out = [];
      for (const it of body) {
        const same = items.find((x) => x.identifier === it.identifier);
        const text = JSON.stringify(it);
        if (same && same.body !== text) {
          return json(res, 409, { error: { code: 'conflict', message: 'identifier already used', details: [{ field: 'identifier', problem: it.identifier }] } });
        }
        if (same) out.push(same);
        else {
          const item = { itemId: `i${++seq}`, status: 'waiting', description: it.description, amount: it.amount, identifier: it.identifier, to: it.to, batchId: c!, body: text };
          items.push(item);
          out.push(item);
        }
      }
      batch!.quantityItems = items.length;
      return json(res, 200, { data: out.map(({ body: _b, batchId: _i, ...x }) => x) });
    }
    if (req.method === 'GET' && d === 'items') return json(res, 200, page(items.map(({ body: _b, batchId: _i, ...x }) => x), e));
    if (req.method === 'POST' && d === 'start-process') {
      batch!.status = 'processing';
      return json(res, 200, { status: 'processing', timestamp: 1_700_000_100, id: batch!.id, name: batch!.name });
    }
    if (req.method === 'DELETE' && d === 'items') {
      const at = items.findIndex((x) => x.itemId === e);
      if (at < 0) return json(res, 404, { error: { code: 'not_found', message: 'item not found' } });
      items.splice(at, 1);
      return json(res, 202, undefined);
    }
    if (req.method === 'DELETE' && parts.length === 3) {
      state.batches.splice(state.batches.indexOf(batch!), 1);
      return json(res, 202, undefined);
    }
    return json(res, 404, { error: { code: 'route_not_found', message: `no route ${req.method} ${req.url}` } });
  };
  return { state, handler };
}
