import { readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { paybatch, startSandboxProcess, useProcesses, userEnv, type SandboxProcess } from '../helpers/e2e.js';
import { freePort } from '../helpers/free-port.js';
import { usePostgresDatabases } from '../helpers/postgres.js';
import { writeSheet } from '../helpers/sheets.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { queryLedger } from '../helpers/test-ledger.js';
import { waitFor } from '../helpers/wait-for.js';

// Several hosts that disagree, Jepsen-style, on one PostgreSQL ledger: each paybatch process below runs "on another
// host" through a preload that shifts its clock and names its host (test/helpers/another-host.cjs), or is paused
// (SIGSTOP) at a chosen point. Leases and claims are short here (settings), so nothing waits minutes.

const tempDir = useTempDir();
const newDatabase = usePostgresDatabases();
const { sandboxes, daemons } = useProcesses();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const SECRET = 'hosts-disagree-webhook-secret';
const PRELOAD = resolve('test/helpers/another-host.cjs');
const MINUTE = 60_000;

/** The environment of a paybatch process on host `name`, its clock `shiftMs` off. */
function onHost(env: Record<string, string>, name: string, shiftMs = 0): Record<string, string> {
  return { ...env, NODE_OPTIONS: `--require ${PRELOAD}`, PAYBATCH_TEST_HOSTNAME: name, PAYBATCH_TEST_CLOCK_SHIFT_MS: String(shiftMs) };
}

interface Daemon {
  readonly run: ReturnType<typeof paybatch>;
  /** Passes finished so far. */
  passes(): number;
  log(): string;
}

/** A daemon; `subscribe: false` leaves the provider's events out (it follows by reading the item pages alone). */
function startDaemon(env: Record<string, string>, port: number, o: { subscribe?: boolean } = {}): Daemon {
  const events = o.subscribe === false ? [] : ['--public-url', `http://127.0.0.1:${port}/webhooks`];
  const run = paybatch(['daemon', '--listen', `127.0.0.1:${port}`, ...events, '--interval', '1', '--log-format', 'json'], { env, timeout: 280_000 });
  daemons.push(run);
  let log = '';
  run.stderr!.on('data', (b: Buffer) => (log += b.toString()));
  return { run, passes: () => log.split('"msg":"pass done"').length - 1, log: () => log };
}

/**
 * An HTTP proxy in front of the provider for one paybatch process: `hold(method, path)` decides, per request, what to
 * wait for before passing it on (a promise), or null to pass it at once.
 */
async function startProviderProxy(target: string, hold: (method: string, path: string) => Promise<void> | null): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        await hold(req.method ?? 'GET', req.url ?? '/');
        const out = request(
          { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        out.on('error', () => res.destroy());
        out.end(Buffer.concat(chunks));
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}${upstream.pathname === '/' ? '' : upstream.pathname}`, close: () => new Promise((r) => server.close(() => r())) };
}

interface RemoteBatches {
  batches: { id: string; name: string; status: string; quantityItems: number; items: Record<string, number> }[];
}
interface PaymentsReport {
  paidMoreThanOnce: unknown[];
  payments: { identifier: string; paid: number; refunded: number }[];
}

async function setUp(faults = 'dupWebhook=0.1', speed = '20') {
  const dir = tempDir();
  const ledger = await newDatabase();
  const s: SandboxProcess = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--seed', '11', '--speed', speed, '--faults', faults] });
  sandboxes.push(s);
  const env = userEnv(dir, {
    ...s.env(),
    PAYBATCH_LEDGER: ledger,
    PAYBATCH_WEBHOOK_SECRET: SECRET,
    PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts'),
    PAYBATCH_LEASE_TIME: '3s',
    PAYBATCH_CLAIM_TIME: '5s',
  });
  return { dir, s, env };
}

/** Every ledger batch settled, each on the one remote batch that holds all its items, and nobody paid twice. */
async function expectOneRemoteBatchEach(s: SandboxProcess, env: Record<string, string>, items: number) {
  const batches = await queryLedger<{ id: number; remote_id: string; status: string; item_count: number }>(env, 'SELECT id, remote_id, status, item_count FROM batches ORDER BY id');
  const remote = (await s.admin<RemoteBatches>('batches')).batches;
  for (const b of batches) {
    expect(b.status, `batch #${b.id}`).toBe('settled');
    const own = remote.find((r) => r.id === b.remote_id);
    expect(own?.quantityItems, `remote batch of #${b.id}`).toBe(b.item_count);
  }
  // Any other remote batch of these ledger batches was deleted at the provider (it held no item).
  const others = remote.filter((r) => !batches.some((b) => b.remote_id === r.id));
  expect(others.filter((r) => r.status !== 'deleted' && r.quantityItems > 0), 'remote batches holding items that no ledger batch points at').toEqual([]);
  const payments = await s.admin<PaymentsReport>('payments');
  expect(payments.paidMoreThanOnce).toEqual([]);
  expect(payments.payments.filter((p) => p.paid - p.refunded === 1)).toHaveLength(items);
}

const settledBatches = async (env: Record<string, string>) =>
  Number((await queryLedger<{ n: number }>(env, "SELECT count(*) AS n FROM batches WHERE status <> 'settled'"))[0]?.n) === 0 &&
  Number((await queryLedger<{ n: number }>(env, "SELECT count(*) AS n FROM items WHERE status NOT IN ('paid', 'failed', 'returned')"))[0]?.n) === 0;

describe('several hosts that disagree on time, or freeze (PostgreSQL, end to end)', () => {
  it('a daemon whose clock is 3 minutes ahead leaves alone a claim being renewed: one remote batch, settled', async () => {
    const { dir, s, env } = await setUp();
    const port = await freePort();
    // host-a's link holds the batch-creation call (the import holds the batch's claim by then) while host-b, its
    // daemon started at that moment, has two passes to take the claim over.
    let b: Daemon | null = null;
    const proxy = await startProviderProxy(s.url, (method, path) => {
      if (method !== 'POST' || !/\/pix\/batch$/.test(path)) return null;
      const daemon = (b = startDaemon(onHost(env, 'host-b', 3 * MINUTE), port));
      return waitFor(() => daemon.passes() >= 2, { timeoutMs: 60_000, what: 'two passes of host-b while the creation is held' }).then(() => undefined);
    });
    cleanups.push(proxy.close);
    const imported = await paybatch(['import', writeSheet(join(dir, 'folha.csv'), 12), '--start', '--yes', '--json'], {
      env: onHost({ ...env, PAYBATCH_BASE_URL: proxy.url }, 'host-a'),
      timeout: 120_000,
    });
    expect(imported.exitCode, imported.stderr.slice(-1500)).toBe(0);
    expect(b, 'the creation call went through the held link').not.toBeNull();
    expect(JSON.parse(imported.stdout)).toMatchObject({ outcome: 'imported', batch: { status: 'started' } });
    await waitFor(() => settledBatches(env), { timeoutMs: 120_000, intervalMs: 250, what: 'the batch settled' });
    await expectOneRemoteBatchEach(s, env, 12);
    // host-b said its clock is off, and goes by the database's.
    const said = b!.log().split('\n').filter((l) => l.includes('"msg":"this host\'s clock is off')).map((l) => JSON.parse(l) as { offsetMs: number });
    expect(said.map((l) => Math.round(l.offsetMs / 1000))).toEqual([-180]);
    expect(b!.log()).not.toContain('warning:');
    const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { clock: { offsetMs: number; skewed: boolean } };
    expect(health.clock.skewed).toBe(true);
    expect(Math.round(health.clock.offsetMs / 1000)).toBe(-180);
  });

  it('daemons 5 minutes ahead and behind, and one 3 hours ahead, send each alert once and no false "no news" alert', async () => {
    const { dir, s, env } = await setUp('failed=0.4,dupWebhook=0.1');
    const alertsFile = join(dir, 'alerts.log');
    const alerting = { ...env, PAYBATCH_ALERT_COMMAND: `read -r alert; printf '%s %s\\n' "$PAYBATCH_ALERT_ID" "$PAYBATCH_ALERT_KIND" >> '${alertsFile}'` };
    const ports = [await freePort(), await freePort(), await freePort(), await freePort()];
    const hosts = [
      startDaemon(onHost(alerting, 'host-b', 5 * MINUTE), ports[0]!),
      startDaemon(onHost(alerting, 'host-c', -5 * MINUTE), ports[1]!),
      startDaemon(onHost(alerting, 'host-d', 180 * MINUTE), ports[2]!),
      startDaemon(onHost(alerting, 'host-a'), ports[3]!),
    ];
    for (const [n, sheet] of [[10, 'a'], [14, 'b']] as const) {
      const r = await paybatch(['import', writeSheet(join(dir, `folha-${sheet}.csv`), n, { seed: sheet }), '--start', '--yes'], { env: onHost(env, 'host-a'), timeout: 120_000 });
      expect(r.exitCode, r.stderr.slice(-1500)).toBe(0);
    }
    await waitFor(
      async () =>
        (await settledBatches(env)) &&
        Number((await queryLedger<{ n: number }>(env, 'SELECT count(*) AS n FROM alerts WHERE channels_json IS NULL'))[0]?.n) === 0 &&
        Number((await queryLedger<{ n: number }>(env, "SELECT count(*) AS n FROM alerts WHERE kind = 'failures'"))[0]?.n) > 0,
      { timeoutMs: 150_000, intervalMs: 250, what: 'every batch settled and every alert sent' },
    );
    // The provider's signed deliveries are judged by the database's clock too: no host refused one as too old or new.
    for (const port of ports) {
      const { counters } = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { counters: Record<string, number> };
      expect(Object.keys(counters).filter((k) => k.includes('timestamp')), `daemon on port ${port}`).toEqual([]);
    }
    // Each daemon finishes a pass more, then stops, so that no alert is still being sent when they are counted.
    for (const h of hosts) {
      const then = h.passes();
      await waitFor(() => h.passes() > then, { timeoutMs: 60_000, what: 'one more pass' });
      h.run.kill('SIGTERM');
      expect((await h.run).exitCode).toBe(0);
    }
    const recorded = (await queryLedger<{ id: number }>(env, 'SELECT id FROM alerts ORDER BY id')).map((a) => String(a.id));
    const delivered = readFileSync(alertsFile, 'utf8').trim().split('\n').map((l) => l.split(' ')[0]!);
    expect(delivered.sort()).toEqual(recorded.sort());
    // Payments settled within seconds: none was ever "without news for over 2 h", whatever host-d's clock said.
    expect(await queryLedger(env, "SELECT id FROM alerts WHERE kind = 'stale-items'")).toEqual([]);
  });

  it('an import frozen inside a transaction while adding items holds nobody up: the daemon takes the batch over; resumed, it writes nothing', async () => {
    const { dir, s, env } = await setUp();
    // host-a's import pauses (SIGSTOP) inside its first add-items transaction, holding item rows.
    const importing = paybatch(['import', writeSheet(join(dir, 'folha.csv'), 9), '--start', '--yes', '--json'], {
      env: onHost({ ...env, PAYBATCH_CRASH_AT: 'items-chunk:1', PAYBATCH_CRASH_SIGNAL: 'SIGSTOP' }, 'host-a'),
      timeout: 200_000,
    });
    await waitFor(() => readFileSync(`/proc/${importing.pid}/stat`, 'utf8').split(') ')[1]!.startsWith('T'), { timeoutMs: 60_000, intervalMs: 50, what: 'the import paused' });
    const b = startDaemon(onHost(env, 'host-b'), await freePort());
    // The server ends the frozen session (idle in a transaction), its claim runs out, and host-b sends the batch.
    await waitFor(() => settledBatches(env), { timeoutMs: 150_000, intervalMs: 250, what: 'the batch settled by host-b while host-a is frozen' });
    await waitFor(() => b.passes() > 0, { timeoutMs: 60_000, what: 'a pass of host-b done' });
    importing.kill('SIGCONT');
    const resumed = await importing;
    // Resumed, host-a finds its transaction ended and its claim gone: it stops, saying so, and changes nothing.
    expect(resumed.exitCode, resumed.stderr.slice(-1500)).not.toBe(0);
    expect(resumed.stderr).not.toMatch(/bug|defeito|at .*\.js:\d+/);
    await expectOneRemoteBatchEach(s, env, 9);
    expect(await settledBatches(env)).toBe(true);
  });

  it('a daemon cut off from the provider lets its lease on a batch run out: another host reconciles it meanwhile', async () => {
    // The provider's clock all but stands still until the test moves it: the batch is still in flight when host-a
    // begins reading it.
    const { dir, s, env } = await setUp('dupWebhook=0.1', '0.001');
    const imported = await paybatch(['import', writeSheet(join(dir, 'folha.csv'), 8), '--start', '--yes'], { env: onHost(env, 'host-c'), timeout: 120_000 });
    expect(imported.exitCode, imported.stderr.slice(-1500)).toBe(0);
    // host-a's link to the provider swallows every request (no answer, no error) until the end of the test.
    let swallowed = 0;
    let cutOff!: () => void;
    const sawRequest = new Promise<void>((r) => (cutOff = r));
    const blackhole = new Promise<void>(() => {});
    const proxy = await startProviderProxy(s.url, () => {
      swallowed += 1;
      cutOff();
      return blackhole;
    });
    cleanups.push(async () => {
      a.run.kill('SIGKILL');
      await a.run;
      await proxy.close();
    });
    const a = startDaemon(onHost({ ...env, PAYBATCH_BASE_URL: proxy.url, PAYBATCH_REQUEST_TIMEOUT: '10m' }, 'host-a'), await freePort(), { subscribe: false });
    await sawRequest;
    await waitFor(async () => (await queryLedger(env, "SELECT name FROM work_leases WHERE name LIKE 'batch:%:reconcile' AND holder LIKE 'host-a:%'")).length > 0, {
      timeoutMs: 60_000,
      what: "host-a holding the batch's reading",
    });
    // Now the provider pays the eight (1–5 s on its clock); host-b, whose link is fine, starts.
    await s.admin('clock/advance', { method: 'POST', body: { seconds: 10 } });
    const b = startDaemon(onHost(env, 'host-b'), await freePort(), { subscribe: false });
    await waitFor(() => settledBatches(env), { timeoutMs: 100_000, intervalMs: 250, what: 'the batch settled by host-b while host-a is cut off' });
    await waitFor(() => b.passes() > 0, { timeoutMs: 60_000, what: 'a pass of host-b done' });
    // host-a is still waiting for its first answers: the batch was taken over while it was cut off, not after.
    expect(a.run.exitCode).toBeNull();
    expect(a.passes()).toBe(0);
    expect(swallowed).toBeGreaterThan(0);
    await expectOneRemoteBatchEach(s, env, 8);
  });

  it('a daemon frozen (SIGSTOP) while it holds a lease, outside a transaction, loses it; resumed, it writes nothing under it', async () => {
    const { dir, s, env } = await setUp('dupWebhook=0.1', '0.001');
    const imported = await paybatch(['import', writeSheet(join(dir, 'folha.csv'), 6), '--start', '--yes'], { env: onHost(env, 'host-c'), timeout: 120_000 });
    expect(imported.exitCode, imported.stderr.slice(-1500)).toBe(0);
    // host-a's first reading of the batch's items waits at its link until the test lets it through.
    let reading!: () => void;
    const readingAsked = new Promise<void>((r) => (reading = r));
    let letThrough!: () => void;
    const through = new Promise<void>((r) => (letThrough = r));
    const proxy = await startProviderProxy(s.url, (method, path) => {
      if (method !== 'GET' || !/\/items/.test(path)) return null;
      reading();
      return through;
    });
    cleanups.push(proxy.close);
    const a = startDaemon(onHost({ ...env, PAYBATCH_BASE_URL: proxy.url, PAYBATCH_REQUEST_TIMEOUT: '10m' }, 'host-a'), await freePort(), { subscribe: false });
    await readingAsked;
    await waitFor(async () => (await queryLedger(env, "SELECT name FROM work_leases WHERE name LIKE 'batch:%:reconcile' AND holder LIKE 'host-a:%'")).length > 0, {
      timeoutMs: 60_000,
      what: "host-a holding the batch's reading",
    });
    // Frozen with its request in flight (no transaction open); its answer comes while it cannot read it.
    a.run.kill('SIGSTOP');
    letThrough();
    await s.admin('clock/advance', { method: 'POST', body: { seconds: 10 } });
    const b = startDaemon(onHost(env, 'host-b'), await freePort(), { subscribe: false });
    await waitFor(() => settledBatches(env), { timeoutMs: 100_000, intervalMs: 250, what: 'the batch settled by host-b while host-a is frozen' });
    // Resumed, host-a reads its old answer, finds its lease gone, and writes nothing of it.
    a.run.kill('SIGCONT');
    await waitFor(() => /the lease on batch:\d+:reconcile was lost/.test(a.log()), { timeoutMs: 60_000, what: 'host-a finding its lease lost' });
    expect(a.run.exitCode).toBeNull();
    await waitFor(() => b.passes() > 0, { timeoutMs: 60_000, what: 'a pass of host-b done' });
    expect(await settledBatches(env)).toBe(true);
    await expectOneRemoteBatchEach(s, env, 6);
  });
});
