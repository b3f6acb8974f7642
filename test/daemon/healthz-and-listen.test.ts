import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, ReceiverListenError, type ReceiverLogEntry, type ReceiverOptions, type RunningReceiver } from '../../src/daemon/webhook-receiver.js';
import { ExitCode, UsageError } from '../../src/errors.js';
import { isEventStored } from '../../src/ledger/event-repository.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { freePort } from '../helpers/free-port.js';
import { useTempDir } from '../helpers/temp-dir.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const tempDir = useTempDir();

const running: RunningReceiver[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function start(overrides: Partial<ReceiverOptions> = {}): Promise<{ url: string; logs: ReceiverLogEntry[] }> {
  const logs: ReceiverLogEntry[] = [];
  const receiver = await startReceiver({
    host: '127.0.0.1',
    port: 0,
    method: 'auto',
    secret: SECRET,
    log: (entry) => logs.push(entry),
    onEvent: async () => 'stored',
    ...overrides,
  });
  running.push(receiver);
  return { url: receiver.url, logs };
}

function healthz(url: string, method: 'GET' | 'HEAD' = 'GET'): Promise<{ status: number; body: unknown; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/healthz', url), { method, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, text, body: text === '' ? undefined : (JSON.parse(text) as unknown) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const FRESH = { counters: { received: 0, stored: 0, duplicate: 0, failed: 0, refused: 0 }, verification: { setting: 'auto', detected: [] } };

describe('/healthz asks the ledger', () => {
  it('answers 200 while the SQLite ledger answers, and 503 with a reason once it is closed', async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    const h = await start({ health: () => isEventStored(ledger, '') });

    const up = await healthz(h.url);
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ ok: true, ...FRESH });

    await ledger.close();
    const down = await healthz(h.url);
    expect(down.status).toBe(503);
    // better-sqlite3 says "The database connection is not open" (a TypeError, no code): a failed query, not a bug.
    expect(down.body).toEqual({ ok: false, ledger: 'unavailable', reason: 'the ledger query failed', ...FRESH });
    expect((await healthz(h.url, 'HEAD')).status).toBe(503);
  });

  it('says which code the ledger failed with, and nothing else of its error (no password, no URL)', async () => {
    const failure = Object.assign(new Error('connect ECONNREFUSED postgres://paybatch:s3cr3t-pw@db.internal:5432/ledger'), { code: 'ECONNREFUSED' });
    const h = await start({ health: () => Promise.reject(failure) });
    const down = await healthz(h.url);
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ ok: false, ledger: 'unavailable', reason: 'the ledger cannot be reached (ECONNREFUSED)', ...FRESH });
    expect(down.text).not.toContain('s3cr3t-pw');
    expect(down.text).not.toContain('db.internal');
    expect(down.text).not.toContain(SECRET);
  });

  it('answers 503 when the ledger does not answer within the bound', async () => {
    let asked = 0;
    // A ledger that never answers (a PostgreSQL server gone silent): the bound decides.
    const h = await start({ health: () => ((asked += 1), new Promise(() => {})), healthTimeoutMs: 100 });
    const [a, b] = await Promise.all([healthz(h.url), healthz(h.url)]);
    for (const r of [a, b]) expect(r.body).toEqual({ ok: false, ledger: 'unavailable', reason: 'the ledger did not answer within 100 ms', ...FRESH });
    expect([a.status, b.status]).toEqual([503, 503]);
    // The stuck query is not asked again while it is still pending.
    await healthz(h.url);
    expect(asked).toBe(1);
  });

  it('answers 200 again once the ledger is back, logging the change once each way', async () => {
    let broken = true;
    const h = await start({ health: async () => {
      if (broken) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    } });
    expect((await healthz(h.url)).status).toBe(503);
    expect((await healthz(h.url)).status).toBe(503);
    broken = false;
    expect(await healthz(h.url)).toMatchObject({ status: 200, body: { ok: true, ...FRESH } });
    expect(await healthz(h.url)).toMatchObject({ status: 200 });
    const said = h.logs.filter((e) => String(e.msg).startsWith('healthz'));
    expect(said.map((e) => [e.level, e.msg, e.reason])).toEqual([
      ['warn', 'healthz: the ledger cannot be reached; answering 503', 'the ledger cannot be reached (SQLITE_BUSY)'],
      ['info', 'healthz: the ledger answers again', undefined],
    ]);
  });

  it('without a health check answers as before: ok on the receiver alone', async () => {
    const h = await start();
    expect(await healthz(h.url)).toMatchObject({ status: 200, body: { ok: true, ...FRESH } });
  });
});

describe('the receiver on an address it cannot have', () => {
  it('refuses a port already in use with a usage error naming --listen and the address', async () => {
    const port = await freePort();
    const holder = createServer();
    servers.push(holder);
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));

    const error = await startReceiver({ host: '127.0.0.1', port, method: 'auto', secret: SECRET, onEvent: async () => 'stored' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ReceiverListenError);
    expect(error).toBeInstanceOf(UsageError);
    const e = error as ReceiverListenError;
    expect(e.exitCode).toBe(ExitCode.usage);
    expect(e.code).toBe('EADDRINUSE');
    expect(e.address).toBe(`127.0.0.1:${port}`);
    expect(e.message).toBe(`--listen 127.0.0.1:${port}: the webhook receiver cannot listen there: the port is already in use (EADDRINUSE).`);
    expect(e.hint).toContain('--listen');
  });
});
