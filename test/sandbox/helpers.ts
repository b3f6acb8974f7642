import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/server.js';

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** A small client of the sandbox for tests: fetches a token, sends the two auth headers, parses JSON. */
export class Client {
  private token: string | null = null;

  constructor(
    readonly sandbox: RunningSandbox,
    readonly apiKey: string = sandbox.apiKey,
    private readonly timeoutMs = 10_000,
  ) {}

  async accessToken(): Promise<string> {
    if (this.token) return this.token;
    const res = await fetch(this.sandbox.tokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${this.sandbox.clientId}:${this.sandbox.clientSecret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
    this.token = ((await res.json()) as { access_token: string }).access_token;
    return this.token;
  }

  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const res = await fetch(`${this.sandbox.url}${path}`, {
      method,
      headers: {
        'service-apikey': this.apiKey,
        authorization: `Bearer ${await this.accessToken()}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    return { status: res.status, headers: res.headers, body: await parse(res) };
  }

  get = (path: string) => this.call('GET', path);
  post = (path: string, body?: unknown) => this.call('POST', path, body);
  del = (path: string) => this.call('DELETE', path);

  /** Every page of a list endpoint, following cursors. */
  async all(firstPath: string, nextPath: (cursor: string) => string): Promise<any[]> {
    const out: any[] = [];
    let answer = await this.get(firstPath);
    for (;;) {
      if (answer.status !== 200) throw new Error(`${firstPath}: ${answer.status} ${JSON.stringify(answer.body)}`);
      out.push(...answer.body.data);
      if (answer.body.cursor === null) return out;
      answer = await this.get(nextPath(answer.body.cursor));
    }
  }
}

async function parse(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    return text;
  }
}

/** Calls an inspection route with the admin token. */
export async function admin(sandbox: RunningSandbox, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await parse(res) };
}

const started: RunningSandbox[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temporary folder removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-test-'));
  dirs.push(dir);
  return dir;
}

/** Starts a sandbox on 127.0.0.1, any port, closed after the test. */
export async function sandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const s = await startSandbox({ host: '127.0.0.1', port: 0, seed: 7, ...options });
  started.push(s);
  return s;
}

export async function sandboxWithClient(options: SandboxOptions = {}): Promise<{ sandbox: RunningSandbox; client: Client }> {
  const s = await sandbox(options);
  return { sandbox: s, client: new Client(s) };
}

/** Polls until `check` returns a value other than undefined, or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, ms = 10_000, what = 'condition'): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  verified: boolean;
}

/**
 * A webhook receiver with its own Standard Webhooks verification (not the sandbox's code): HMAC-SHA256 of
 * "id.timestamp.body" keyed by the secret (base64-decoded after whsec_), compared in constant time.
 */
export class Receiver {
  readonly deliveries: Delivery[] = [];
  /** Status to answer each request with; 204 when the list is exhausted. */
  statuses: number[] = [];
  private server!: Server;
  url = '';

  constructor(readonly secret: string) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.deliveries.push({ headers: req.headers, body, json: JSON.parse(body), verified: verify(this.secret, req.headers, body) });
        res.statusCode = this.statuses.shift() ?? 204;
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export function verify(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret);
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((s) => {
    const [version, mac] = s.split(',');
    const given = Buffer.from(mac ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** A valid item body for `key` (looked up first, as SPEC rule 1 says). */
export async function itemFor(client: Client, key: string, amount: number, identifier: string): Promise<any> {
  const lookup = await client.get(`/pix/keys/${encodeURIComponent(key)}`);
  if (lookup.status !== 200) throw new Error(`lookup ${key}: ${lookup.status}`);
  return { amount, identifier, description: `test ${identifier}`, to: lookup.body };
}
