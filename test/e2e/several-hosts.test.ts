import { createHmac } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { paybatch, startSandboxProcess, useProcesses, userEnv } from '../helpers/e2e.js';
import { freePort } from '../helpers/free-port.js';
import { usePostgresDatabases } from '../helpers/postgres.js';
import { PostgresProcess } from '../helpers/postgres-process.js';
import { writeSheet } from '../helpers/sheets.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { queryLedger } from '../helpers/test-ledger.js';
import { waitFor } from '../helpers/wait-for.js';
import { Random } from '../../src/sandbox/random.js';

const tempDir = useTempDir();
const newDatabase = usePostgresDatabases();
const { sandboxes, daemons } = useProcesses();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The schedule of kills: the same seed kills the same daemons at the same moments (printed when the test fails). */
const SEED = 20_261_124;
const SECRET = 'several-hosts-e2e-webhook-secret';

interface PaymentsReport {
  paidMoreThanOnce: unknown[];
  payments: { identifier: string; paid: number; refunded: number; amountCents: number; pixIds: string[] }[];
}
interface WebhooksReport {
  summary: Record<string, number>;
  deliveries: { eventId: string; status: string; attempts: number; lastStatus: number | null; nextAttemptAt: string | null }[];
}

/**
 * A round-robin load balancer for POST /webhooks: each delivery goes to the next receiver, and on to the following
 * one when a receiver is down (refused, reset) or answers 502/503, as nginx's proxy_next_upstream does.
 */
async function startProxy(ports: readonly number[], onServed: (index: number) => void = () => {}): Promise<{ url: string; served: number[]; close(): Promise<void> }> {
  const served = ports.map(() => 0);
  let next = 0;
  const forward = (port: number, headers: IncomingHttpHeaders, body: Buffer) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const { host: _h, connection: _c, ...rest } = headers;
      const req = request({ host: '127.0.0.1', port, path: '/webhooks', method: 'POST', headers: rest, agent: false, timeout: 8000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('upstream timeout')));
      req.on('error', reject);
      req.end(body);
    });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (req.method !== 'POST' || req.url !== '/webhooks') return res.writeHead(404).end();
      const first = next++ % ports.length;
      for (let i = 0; i < ports.length; i++) {
        const at = (first + i) % ports.length;
        try {
          const answer = await forward(ports[at]!, req.headers, Buffer.concat(chunks));
          if (answer.status === 502 || answer.status === 503) continue;
          served[at]! += 1;
          onServed(at);
          res.writeHead(answer.status, { 'content-type': answer.headers['content-type'] ?? 'application/json' });
          return res.end(answer.body);
        } catch {
          // that receiver is down: the next one
        }
      }
      res.writeHead(502).end('no receiver answered');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One daemon "host": its receiver's port, the process running now, and everything its runs logged. */
interface Host {
  readonly name: string;
  readonly port: number;
  run: ReturnType<typeof paybatch> | null;
  log: string;
  starts: number;
  /** Passes the current run has finished. */
  passes: number;
  /** What the current run has done: its passes finished, and the deliveries it answered through the proxy. */
  activity: number;
}

interface LedgerItem {
  id: number;
  identifier: string;
  status: string;
  amount_cents: number;
  attempt: number;
  original_item_id: number | null;
  return_action: string | null;
  receipt_path: string | null;
  end_to_end_id: string | null;
}

interface OpenWork {
  unsettledItems: number;
  unsettledBatches: number;
  owedAttempts: number;
  /** Returns whose reason, which says whether to pay again, has not come: the pages give none, the refund's event does. */
  undecidedReturns: number;
  missingReceipts: number;
  unsentAlerts: number;
  items: number;
}

/** What is still open in the ledger: items or batches not settled, returns undecided or owed a new attempt, receipts, alerts not sent. */
async function openWork(env: Record<string, string>): Promise<OpenWork> {
  const [row] = await queryLedger<OpenWork>(
    env,
    `SELECT
      (SELECT count(*) FROM items WHERE status NOT IN ('paid', 'failed', 'returned')) AS "unsettledItems",
      (SELECT count(*) FROM batches WHERE status NOT IN ('settled', 'deleted')) AS "unsettledBatches",
      (SELECT count(*) FROM items i WHERE i.status = 'returned' AND i.return_action = 'reprocess' AND i.attempt <= 3
         AND NOT EXISTS (SELECT 1 FROM items n WHERE n.original_item_id = COALESCE(i.original_item_id, i.id) AND n.attempt > i.attempt)) AS "owedAttempts",
      (SELECT count(*) FROM items WHERE status = 'returned' AND return_action IS NULL) AS "undecidedReturns",
      (SELECT count(*) FROM items WHERE status = 'paid' AND receipt_path IS NULL) AS "missingReceipts",
      (SELECT count(*) FROM alerts WHERE channels_json IS NULL) AS "unsentAlerts",
      (SELECT count(*) FROM items) AS items`,
  );
  return row ?? { unsettledItems: 1, unsettledBatches: 1, owedAttempts: 0, undecidedReturns: 0, missingReceipts: 0, unsentAlerts: 0, items: 0 };
}

/** What a daemon said when it stopped by itself: its lines that are not log entries (an error), or its last ones. */
function crashOf(stderr: string): string {
  const lines = stderr.split('\n');
  const error = lines.findIndex((l) => l.trim() !== '' && !l.startsWith('{'));
  return (error === -1 ? lines.slice(-10) : lines.slice(Math.max(0, error - 3), error + 12)).join('\n');
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('several hosts on one PostgreSQL ledger (end to end)', () => {
  it('three daemons behind a proxy, killed and restarted at random, settle everything once', async () => {
    const started = Date.now();
    // The sandbox's own seeded generator: numbers in [0, 1), one per draw.
    const draws = new Random(SEED);
    let draw = 0;
    const random = () => draws.unit('chaos', draw++);
    const diagnostics: (() => Promise<string>)[] = [];
    onTestFailed(async () => {
      const parts = [`several-hosts: kill schedule seed ${SEED}`];
      for (const d of diagnostics) parts.push(await d().catch((e: unknown) => `(diagnostic failed: ${String(e)})`));
      console.error(parts.join('\n'));
    });

    const dir = tempDir();
    const ledger = await newDatabase();
    const s = await startSandboxProcess({
      state: join(dir, 'provider.db'),
      args: ['--seed', '7', '--speed', '10', '--faults', 'http5xx=0.05,lostResponse=0.02,dupWebhook=0.1,failed=0.1,instabilityReturn=0.1'],
    });
    sandboxes.push(s);
    const hosts: Host[] = [];
    for (const name of ['a', 'b', 'c']) hosts.push({ name, port: await freePort(), run: null, log: '', starts: 0, passes: 0, activity: 0 });
    const proxy = await startProxy(hosts.map((h) => h.port), (at) => (hosts[at]!.activity += 1));
    cleanups.push(proxy.close);
    const receipts = join(dir, 'receipts');
    const alertsFile = join(dir, 'alerts.log');
    const env = userEnv(dir, {
      ...s.env(),
      PAYBATCH_LEDGER: ledger,
      PAYBATCH_WEBHOOK_SECRET: SECRET,
      PAYBATCH_RECEIPTS_DIR: receipts,
      PAYBATCH_REQUEST_TIMEOUT: '5s',
      // One line per alert sent: its id, its kind, and the alert itself (one line of JSON on standard input).
      PAYBATCH_ALERT_COMMAND: `read -r alert; printf '%s %s %s\\n' "$PAYBATCH_ALERT_ID" "$PAYBATCH_ALERT_KIND" "$alert" >> '${alertsFile}'`,
    });

    const startHost = (h: Host) => {
      const run = paybatch(
        ['daemon', '--listen', `127.0.0.1:${h.port}`, '--public-url', `${proxy.url}/webhooks`, '--interval', '1', '--log-format', 'json'],
        { env, timeout: 290_000 },
      );
      h.starts += 1;
      h.log += `--- run ${h.starts} (pid ${run.pid})\n`;
      h.passes = 0;
      h.activity = 0;
      // A log line may come in two chunks: passes are counted in whole lines.
      let partial = '';
      run.stderr!.on('data', (b: Buffer) => {
        const text = b.toString();
        const lines = (partial + text).split('\n');
        partial = lines.pop()!;
        const done = lines.filter((l) => l.includes('"msg":"pass done"')).length;
        h.passes += done;
        h.activity += done;
        h.log = (h.log + text).slice(-200_000);
      });
      h.run = run;
      daemons.push(run);
    };
    diagnostics.push(async () => {
      const counts = await queryLedger(env, 'SELECT status, count(*) AS n FROM items GROUP BY status ORDER BY status');
      const batches = await queryLedger(env, 'SELECT id, kind, status, start_requested, remote_id FROM batches ORDER BY id');
      const leases = await queryLedger(env, 'SELECT * FROM work_leases');
      const claims = await queryLedger(env, 'SELECT * FROM batch_claims');
      const ledgerItems = await queryLedger<{ identifier: string; status: string }>(env, 'SELECT identifier, status, return_action, return_confirmed_at, batch_id, updated_at FROM items');
      const providerNet = new Map((await s.admin<PaymentsReport>('payments')).payments.map((p) => [p.identifier, p]));
      const disagree = ledgerItems.filter((i) => (i.status === 'paid') !== ((providerNet.get(i.identifier)?.paid ?? 0) - (providerNet.get(i.identifier)?.refunded ?? 0) === 1));
      return [
        `after ${Math.round((Date.now() - started) / 1000)} s; open work: ${JSON.stringify(await openWork(env))}`,
        `items by status: ${JSON.stringify(counts)}`,
        `batches: ${JSON.stringify(batches)}`,
        `leases: ${JSON.stringify(leases)}; batch claims: ${JSON.stringify(claims)}`,
        `ledger and provider disagree on: ${JSON.stringify(disagree.map((i) => ({ ...i, provider: providerNet.get(i.identifier) })))}`,
        `deliveries not delivered yet: ${JSON.stringify((await s.admin<WebhooksReport>('webhooks')).deliveries.filter((d) => d.status !== 'delivered'))}`,
        `proxy deliveries per host: ${JSON.stringify(proxy.served)}`,
        ...hosts.map((h) => `--- host ${h.name} (${h.starts} runs), last log lines:\n${h.log.split('\n').slice(-40).join('\n')}`),
      ].join('\n');
    });
    for (const h of hosts) startHost(h);

    // Three sheets imported while the daemons run; the first one from two "hosts" at the same moment.
    const sheets = [1, 2, 3].map((n) => writeSheet(join(dir, `folha-${n}.csv`), 20 + n * 5, { seed: `s${n}` }));
    const twin = join(dir, 'folha-1-host-b.csv');
    copyFileSync(sheets[0]!, twin);
    const importUntilDone = async (sheet: string) => {
      const runs: Awaited<ReturnType<typeof paybatch>>[] = [];
      for (let n = 0; n < 4; n++) {
        const r = await paybatch(['import', sheet, '--start', '--yes', '--json'], { env, timeout: 90_000 });
        runs.push(r);
        // Done: imported, or refused because another run is importing this same sheet right now.
        if (r.exitCode === 0 || /being imported right now/.test(r.stderr)) return runs;
        expect(r.stderr, `import of ${sheet} (seed ${SEED})`).toMatch(/gave up after \d+ attempts/);
      }
      throw new Error(`every import run of ${sheet} failed: ${runs.at(-1)!.stderr.slice(-1500)}`);
    };
    const imports = Promise.all([importUntilDone(sheets[0]!), importUntilDone(twin), importUntilDone(sheets[1]!), importUntilDone(sheets[2]!)]);

    // Chaos, counted in events rather than seconds: KILLS times a random daemon is killed (SIGKILL) once its current
    // run has done a seeded 1–3 things (passes finished, deliveries answered), and started again as soon as it is
    // gone; until its new run listens, the proxy hands its deliveries to the others.
    const KILLS = 6;
    const kills: string[] = [];
    for (let k = 0; k < KILLS; k++) {
      const h = hosts[Math.floor(random() * hosts.length)]!;
      const after = 1 + Math.floor(random() * 3);
      await waitFor(() => h.activity >= after, { timeoutMs: 60_000, intervalMs: 10, what: `host ${h.name} to do ${after} thing(s) before kill ${k + 1} (seed ${SEED})` });
      h.run!.kill('SIGKILL');
      const ended = await h.run!;
      expect(ended.signal, `host ${h.name} ended by itself (seed ${SEED}): ${crashOf(ended.stderr)}`).toBe('SIGKILL');
      kills.push(`${h.name}@${Math.round((Date.now() - started) / 100) / 10}s+${after}`);
      startHost(h);
    }
    const importRuns = await imports;

    // Then all three run until everything is settled, every receipt saved and every alert sent — and the provider
    // agrees, once it has nothing left to do: no payment or refund still due (a payment is refunded 1–6 s after it is
    // paid) and no event still to deliver (a return's event, delivered late after kills, decides a return that the
    // pages showed without its reason, and may start a new attempt). The provider is read first, the ledger after.
    const netPaid = (p: PaymentsReport) => p.payments.filter((x) => x.paid - x.refunded === 1).map((x) => x.identifier).sort();
    await waitFor(
      async () => {
        const provider = await s.admin<PaymentsReport & { pending: number }>('payments');
        if (provider.pending > 0) return false;
        if (((await s.admin<WebhooksReport>('webhooks')).summary.pending ?? 0) > 0) return false;
        const w = await openWork(env);
        if (!(w.items > 0 && w.unsettledItems === 0 && w.unsettledBatches === 0 && w.owedAttempts === 0 && w.undecidedReturns === 0 && w.missingReceipts === 0 && w.unsentAlerts === 0)) return false;
        // Nothing left to happen at the provider, then the ledger says the same.
        const paidHere = (await queryLedger<{ identifier: string }>(env, "SELECT identifier FROM items WHERE status = 'paid'")).map((i) => i.identifier).sort();
        return JSON.stringify(paidHere) === JSON.stringify(netPaid(provider));
      },
      // Bounded by what is left of the test's own bound (the chaos, counted in events, lasts longer on a loaded machine).
      { timeoutMs: Math.max(30_000, 200_000 - (Date.now() - started)), intervalMs: 500, what: `every item settled with its receipt, as the provider has it (kills: ${kills.join(' ')})` },
    );
    // Stopped cleanly, so that no alert is still being sent while the counts are taken (a daemon started a moment
    // ago is let finish a pass first: SIGTERM before it set up its handlers would end it on the spot).
    for (const h of hosts) {
      await waitFor(() => h.passes > 0, { timeoutMs: 20_000, what: `a pass of host ${h.name}` });
      h.run!.kill('SIGTERM');
      const ended = await h.run!;
      expect(ended.exitCode, `host ${h.name} (seed ${SEED}): ${crashOf(ended.stderr)}`).toBe(0);
    }

    // The same sheet imported from two hosts at once: one import, one remote batch per ledger batch.
    const twinRuns = [...importRuns[0]!, ...importRuns[1]!];
    const outcomes = twinRuns.filter((r) => r.exitCode === 0).map((r) => (JSON.parse(r.stdout) as { outcome: string }).outcome);
    expect(outcomes.filter((o) => o === 'imported'), `outcomes of the twin imports: ${outcomes.join(', ')}`).toHaveLength(1);
    const ledgerImports = await queryLedger<{ file_hash: string; item_count: number }>(env, 'SELECT file_hash, item_count FROM imports ORDER BY id');
    expect(ledgerImports.map((i) => i.item_count).sort()).toEqual([25, 30, 35]);
    const batches = await queryLedger<{ remote_id: string | null; kind: string }>(env, 'SELECT remote_id, kind FROM batches');
    expect(batches.filter((b) => b.kind === 'sheet')).toHaveLength(3);
    const remote = await s.admin<{ batches: { id: string }[] }>('batches');
    expect(remote.batches.map((b) => b.id).sort()).toEqual(batches.map((b) => b.remote_id).sort());

    // Every item settled; some failed and some were returned and paid again, or the run proved little.
    const items = await queryLedger<LedgerItem>(env, 'SELECT id, identifier, status, amount_cents, attempt, original_item_id, return_action, receipt_path, end_to_end_id FROM items ORDER BY id');
    expect(items.filter((i) => i.original_item_id === null)).toHaveLength(90);
    expect(items.filter((i) => !['paid', 'failed', 'returned'].includes(i.status)), `items not settled (seed ${SEED}, kills ${kills.join(' ')})`).toEqual([]);
    expect(items.some((i) => i.status === 'failed')).toBe(true);
    expect(items.some((i) => i.status === 'returned' && i.return_action === 'reprocess')).toBe(true);

    // Every paid item has its receipt (a payment later returned keeps the one of when it was paid), each in a file
    // of its own, and the folder holds no other PDF: no receipt saved twice by two daemons.
    const paid = items.filter((i) => i.status === 'paid');
    for (const it of paid) {
      expect(it.receipt_path, it.identifier).not.toBeNull();
      expect(readFileSync(it.receipt_path!).subarray(0, 5).toString(), it.identifier).toBe('%PDF-');
    }
    const saved = items.flatMap((i) => (i.receipt_path ? [i.receipt_path] : []));
    expect(new Set(saved).size).toBe(saved.length);
    expect(filesUnder(receipts).filter((f) => f.endsWith('.pdf')).sort()).toEqual(saved.sort());

    // Each alert was sent once, by one daemon, as it was recorded; no two alerts say the same thing.
    const alerts = await queryLedger<{ id: number; kind: string; fingerprint: string }>(env, 'SELECT id, kind, fingerprint FROM alerts ORDER BY id');
    expect(alerts.some((a) => a.kind === 'failures')).toBe(true);
    const sent = (existsSync(alertsFile) ? readFileSync(alertsFile, 'utf8').trim().split('\n') : []).map((line) => {
      const [id, kind, ...json] = line.split(' ');
      const alert = JSON.parse(json.join(' ')) as { id: number; items: { identifier: string }[] };
      return { id: Number(id), kind, fingerprint: alert.items.map((i) => i.identifier).sort().join(',') };
    });
    // An alert whose raiser was killed after sending it but before recording that it did is sent again, late, under
    // the same id (attention.ts): a repeat is that alert, word for word, never another one.
    const byId = new Map(sent.map((a) => [a.id, a]));
    expect([...byId.keys()].sort((x, y) => x - y), `alerts sent (seed ${SEED})`).toEqual(alerts.map((a) => a.id));
    for (const a of sent) expect(a).toEqual(byId.get(a.id));
    expect([...byId.values()].sort((x, y) => x.id - y.id)).toEqual(alerts);
    expect(new Set(alerts.map((a) => `${a.kind} ${a.fingerprint}`)).size).toBe(alerts.length);

    // The provider's side: nobody paid twice, under any identifier or end-to-end id, and the same money as the ledger.
    const payments = await s.admin<PaymentsReport>('payments');
    expect(payments.paidMoreThanOnce).toEqual([]);
    const pixIds = payments.payments.flatMap((p) => p.pixIds);
    expect(new Set(pixIds).size).toBe(pixIds.length);
    const endToEnd = paid.map((i) => i.end_to_end_id);
    expect(new Set(endToEnd).size).toBe(paid.length);
    const providerPaid = payments.payments.reduce((sum, p) => sum + (p.paid - p.refunded) * p.amountCents, 0);
    expect(providerPaid).toBe(paid.reduce((sum, i) => sum + i.amount_cents, 0));
    expect(netPaid(payments)).toEqual(paid.map((i) => i.identifier).sort());

    const check = await paybatch(['ledger', 'check', '--json'], { env });
    expect(check.exitCode, check.stdout.slice(0, 3000)).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ clean: true, paidTwice: [], batchMismatches: [] });
    const twinSaid = twinRuns.map((r) => (r.exitCode === 0 ? (JSON.parse(r.stdout) as { outcome: string }).outcome : /being imported right now/.test(r.stderr) ? 'refused: being imported' : `exit ${r.exitCode}`));
    console.info(`several hosts: ${Math.round((Date.now() - started) / 1000)} s, kills ${kills.join(' ')}, deliveries per host ${proxy.served.join('/')}, twin imports: ${twinSaid.join(' / ')}`);
  }, 300_000);

  it('keeps the daemon alive and answering 503 while its PostgreSQL server is down, then resumes', async () => {
    const dir = tempDir();
    // A server of this test's own, since it is stopped mid-run; not in the test's private folder, which the server's
    // user (postgres, when the tests run as root) cannot enter.
    const pgDir = mkdtempSync(join(tmpdir(), 'paybatch-pg-loss-'));
    const server = new PostgresProcess(pgDir, await freePort(), 'paybatch-loss');
    cleanups.push(async () => {
      await server.stop();
      rmSync(pgDir, { recursive: true, force: true });
    });
    await server.initialise();
    await server.start();
    const ledger = server.url;

    // The provider's clock all but stands still (a thousandth of real time) and the test moves it: the payments
    // settle, and their deliveries go out, when the database is down, not 1–5 s after the start whatever the load.
    const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--seed', '3', '--speed', '0.001'] });
    sandboxes.push(s);
    const advance = (seconds: number) => s.admin('clock/advance', { method: 'POST', body: { seconds } });
    const port = await freePort();
    const env = userEnv(dir, { ...s.env(), PAYBATCH_LEDGER: ledger, PAYBATCH_WEBHOOK_SECRET: SECRET, PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts') });
    const daemon = paybatch(['daemon', '--listen', `127.0.0.1:${port}`, '--public-url', `http://127.0.0.1:${port}/webhooks`, '--interval', '1', '--log-format', 'json'], { env, timeout: 170_000 });
    daemons.push(daemon);
    let log = '';
    daemon.stderr!.on('data', (b: Buffer) => (log += b.toString()));
    await waitFor(() => log.includes('subscribed to provider events'), { timeoutMs: 20_000, what: 'the daemon subscribed' });

    const imported = await paybatch(['import', writeSheet(join(dir, 'folha.csv'), 10), '--start', '--yes', '--json'], { env });
    expect(imported.exitCode, imported.stderr.slice(-1500)).toBe(0);
    await server.stop();

    const body = JSON.stringify({
      serviceId: 1,
      payload: { id: 'pix_loss_1', eventId: 'evt_loss_1', identifier: 'not-in-the-ledger', amount: 1000, isRefund: false, transactionAccepted: true, transactionStatus: 'approved', reason: null, timestamp: String(Math.floor(Date.now() / 1000)) },
    });
    // Signed the Standard Webhooks way, as the provider signs its deliveries.
    const deliver = () => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = createHmac('sha256', SECRET).update(`evt_loss_1.${timestamp}.${body}`).digest('base64');
      return fetch(`http://127.0.0.1:${port}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'webhook-id': 'evt_loss_1', 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` },
        body,
      });
    };
    const answer = await deliver().catch((e: unknown) => {
      throw new Error(`the daemon stopped answering once its database was down (${String(e)}); its log:\n${log.slice(-4000)}`);
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    // Now the provider pays the ten (1–5 s on its clock): their events reach the daemon while its database is down,
    // and get the same answer.
    await advance(10);
    await waitFor(async () => (await s.admin<WebhooksReport>('webhooks')).deliveries.some((d) => d.lastStatus === 503), {
      what: 'a delivery of the provider answered 503 while the database is down',
    });
    // Passes wait for the database, failing one after another (counted, not timed) without the daemon ending.
    const waits = () => log.split('"msg":"the ledger cannot be reached (or stayed busy with other hosts); trying again"').length - 1;
    await waitFor(() => /"msg":"webhook event not stored: the ledger cannot be reached/.test(log) && waits() >= 3, {
      what: 'the daemon logging the database away, and three passes waiting for it',
    });
    expect(daemon.exitCode, 'the daemon is still running').toBeNull();
    await server.start();

    await waitFor(
      async () => {
        const rows = await queryLedger<{ n: number }>(env, "SELECT count(*) AS n FROM items WHERE status = 'paid' AND receipt_path IS NOT NULL");
        return rows[0]?.n === 10;
      },
      { timeoutMs: 40_000, intervalMs: 500, what: 'the ten payments paid with their receipts once the database is back' },
    );
    // The delivery refused while the database was away, sent again, is stored now (and acknowledged only then).
    expect((await deliver()).status).toBe(200);
    // So are the provider's: it sends them again on its backoff, its clock moved on to each next attempt.
    const { deliveries } = await waitFor(
      async () => {
        const report = await s.admin<WebhooksReport>('webhooks');
        const pending = report.deliveries.filter((d) => d.status === 'pending');
        if (pending.length === 0) return report;
        const now = Date.parse((await s.admin<{ now: string }>('clock')).now);
        const next = Math.min(...pending.map((d) => (d.nextAttemptAt === null ? now : Date.parse(d.nextAttemptAt))));
        if (next > now) await advance(Math.ceil((next - now) / 1000));
        return false;
      },
      { timeoutMs: 40_000, intervalMs: 250, what: 'every delivery of the provider sent again and answered, the database back' },
    );
    // Nothing acknowledged that was not committed: every delivery the provider saw answered 2xx is in the ledger.
    const stored = new Set((await queryLedger<{ event_id: string }>(env, 'SELECT event_id FROM webhook_events')).map((e) => e.event_id));
    expect(stored.has('evt_loss_1')).toBe(true);
    expect(deliveries.some((d) => d.lastStatus === 503 || d.attempts > 1), 'a delivery of the provider met the database away').toBe(true);
    expect(deliveries.filter((x) => x.status === 'delivered').length, 'deliveries answered 2xx').toBeGreaterThan(0);
    for (const d of deliveries.filter((x) => x.status === 'delivered')) expect(stored.has(d.eventId), d.eventId).toBe(true);
    expect(daemon.exitCode, 'the daemon is still running').toBeNull();
    daemon.kill('SIGTERM');
    expect((await daemon).exitCode).toBe(0);
  }, 180_000);
});
