import { request } from 'node:http';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { paybatch, userEnv } from '../helpers/e2e.js';
import { freePort } from '../helpers/free-port.js';
import { startOwnPostgres } from '../helpers/postgres-process.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/wait-for.js';

const tempDir = useTempDir();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function health(url: string): Promise<{ status: number; body: { ok: boolean; ledger?: string; reason?: string } } | null> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      res.on('error', () => resolve(null));
    });
    req.on('error', () => resolve(null));
    req.end();
  });
}

async function admin(url: string, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const s of statements) await client.query(s);
  } finally {
    await client.end();
  }
}

describe('the daemon on a PostgreSQL ledger that goes away', () => {
  it('keeps running while the database refuses connections (55000) and while the server is stopped, /healthz says why, and goes on once it answers', async () => {
    const server = await startOwnPostgres('outage', cleanups);
    await admin(server.url, ['CREATE DATABASE outage']);
    const ledgerUrl = server.url.replace(/\/postgres$/, '/outage');

    const home = tempDir();
    const port = await freePort();
    const healthz = `http://127.0.0.1:${port}/healthz`;
    const daemon = paybatch(['daemon', '--listen', `127.0.0.1:${port}`, '--interval', '0.2', '--log-format', 'json'], {
      env: userEnv(home, { PAYBATCH_LEDGER: ledgerUrl, PAYBATCH_WEBHOOK_SECRET: 'x-secret' }),
      timeout: 180_000,
    });
    cleanups.push(async () => {
      daemon.kill('SIGKILL');
      await daemon;
    });
    let log = '';
    daemon.stderr!.on('data', (b: Buffer) => (log += b.toString()));
    const passes = () => log.split('\n').filter((l) => l.includes('"pass done"')).length;
    const answersWith = (want: (h: NonNullable<Awaited<ReturnType<typeof health>>>) => boolean, what: string) =>
      waitFor(async () => {
        const h = await health(healthz);
        return h !== null && want(h) ? h : undefined;
      }, { timeoutMs: 60_000, what });

    await waitFor(() => passes() > 0, { timeoutMs: 60_000, what: 'a first pass' });
    await answersWith((h) => h.status === 200, '/healthz to answer 200');

    // The database stops accepting connections, and the daemon's open ones are ended (as an operator would).
    await admin(server.url, ['ALTER DATABASE outage ALLOW_CONNECTIONS false', "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'outage'"]);
    const refused = await answersWith((h) => h.status === 503, '/healthz to answer 503 while the database refuses connections');
    expect(refused.body).toMatchObject({ ok: false, ledger: 'unavailable', reason: 'the ledger cannot be reached (55000)' });
    await waitFor(() => /"msg":"the ledger cannot be reached[^\n]*not currently accepting connections/.test(log), { timeoutMs: 60_000, what: 'the daemon to say the ledger cannot be reached' });
    expect(daemon.exitCode).toBeNull();

    const before = passes();
    await admin(server.url, ['ALTER DATABASE outage ALLOW_CONNECTIONS true']);
    await waitFor(() => passes() > before, { timeoutMs: 60_000, what: 'a pass once the database accepts connections again' });
    await answersWith((h) => h.status === 200, '/healthz to answer 200 again');

    // The server itself stops.
    await server.stop();
    const stopped = await answersWith((h) => h.status === 503, '/healthz to answer 503 while the server is stopped');
    expect(stopped.body).toMatchObject({ ok: false, ledger: 'unavailable', reason: 'the ledger cannot be reached (ECONNREFUSED)' });
    expect(daemon.exitCode).toBeNull();
    const beforeRestart = passes();
    await server.start();
    await waitFor(() => passes() > beforeRestart, { timeoutMs: 60_000, what: 'a pass once the server is back' });
    await answersWith((h) => h.status === 200, '/healthz to answer 200 once the server is back');

    daemon.kill('SIGTERM');
    const ended = await daemon;
    expect(ended.exitCode, ended.stderr).toBe(0);
    expect(ended.stderr).not.toMatch(/unexpected|inesperado|a bug|defeito/i);
  }, 240_000);
});
