import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { paybatch, startSandboxProcess, userEnv, type SandboxProcess } from '../helpers/e2e.js';
import { freePort } from '../helpers/free-port.js';
import { writeSheet } from '../helpers/sheets.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { BACKEND, queryLedger } from '../helpers/test-ledger.js';
import { waitFor } from '../helpers/wait-for.js';

const tempDir = useTempDir();
const sandboxes: SandboxProcess[] = [];
afterEach(async () => {
  for (const s of sandboxes.splice(0)) await s.stop();
});

interface PaymentsReport {
  payments: { identifier: string; paid: number; refunded: number }[];
  paidMoreThanOnce: unknown[];
}
interface BatchesReport {
  batches: { items: Record<string, number> }[];
}
interface WebhooksReport {
  deliveries: { eventId: string; status: string }[];
}

type Env = Record<string, string>;

/** Rows of the sheet, each with its outcome: the last attempt's state, and the identifiers of every attempt. */
async function rowsOf(env: Env) {
  const items = await queryLedger<{
    id: number; identifier: string; status: string; attempt: number; original_item_id: number | null; receipt_path: string | null; alerted_at: string | null;
  }>(env, 'SELECT id, identifier, status, attempt, original_item_id, receipt_path, alerted_at FROM items ORDER BY id');
  const alerts = await queryLedger<{ kind: string; items_json: string }>(env, 'SELECT kind, items_json FROM alerts');
  const events = await queryLedger<{ event_id: string }>(env, 'SELECT event_id FROM webhook_events');
  const rows = items
    .filter((i) => i.original_item_id === null)
    .map((root) => {
      const attempts = items.filter((i) => i.id === root.id || i.original_item_id === root.id).sort((a, b) => a.attempt - b.attempt);
      return { root, attempts, last: attempts.at(-1)! };
    });
  return { items, rows, alerts, eventIds: new Set(events.map((e) => e.event_id)) };
}

/** What the daemon has done so far, as the ledger shows it. Each count only ever grows. */
interface Progress {
  events: number;
  settled: number;
  receipts: number;
  attempts: number;
}

async function progressOf(env: Env): Promise<Progress> {
  const [progress] = await queryLedger<Progress>(
    env,
    `SELECT (SELECT count(*) FROM webhook_events) AS events,
      (SELECT count(*) FROM items WHERE status IN ('paid', 'failed', 'returned')) AS settled,
      (SELECT count(*) FROM items WHERE receipt_path IS NOT NULL) AS receipts,
      (SELECT count(*) FROM items) AS attempts`,
  );
  return progress!;
}

const workIn = (p: Progress): number => p.events + p.settled + p.receipts + p.attempts;

/** The holder of the ledger's daemon lock (SQLite), if any. */
async function lockHolder(env: Env): Promise<number | undefined> {
  return (await queryLedger<{ pid: number }>(env, 'SELECT pid FROM daemon_lock WHERE id = 1'))[0]?.pid;
}

/** Every PDF under a folder. */
function pdfsUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.pdf')).map((e) => join(e.parentPath, e.name));
}

function expectEachRowPaidOnceAtMost(payments: PaymentsReport, rows: Awaited<ReturnType<typeof rowsOf>>['rows']) {
  expect(payments.paidMoreThanOnce).toEqual([]);
  const byId = new Map(payments.payments.map((p) => [p.identifier, p]));
  for (const row of rows) {
    const net = row.attempts.reduce((s, a) => s + (byId.get(a.identifier)?.paid ?? 0) - (byId.get(a.identifier)?.refunded ?? 0), 0);
    expect(net, `row ${row.root.identifier} (${row.last.status})`).toBe(row.last.status === 'paid' ? 1 : 0);
  }
}

// The bounds below (test timeouts, a daemon's --timeout beside --until-settled, process timeouts) only stop a run that
// went wrong: a daemon --until-settled ends as soon as everything is settled. So they are generous, for a loaded
// 2-core machine where these runs take several times as long; a daemon cut short by its --timeout would leave the
// ledger unsettled and fail the test for the wrong reason.
describe('paybatch daemon (end to end)', () => {
  it('follows a 1,000-item batch through webhook faults, lost responses, stale items and returns to the end', async () => {
    const dir = tempDir();
    const s = await startSandboxProcess({
      state: join(dir, 'provider.db'),
      // Stale items stay processing 20 real seconds past their time (4,000 simulated s at 200×), so that the daemon,
      // however slow to start on a loaded machine, finds them without news for longer than alertAfter.
      args: ['--seed', '11', '--speed', '200', '--stale-seconds', '4000', '--faults', 'dupWebhook=0.1,reorderWebhook=0.1,webhookDown=0.1,lostResponse=0.02,stale=0.02,instabilityReturn=0.02,failed=0.03'],
    });
    sandboxes.push(s);
    const port = await freePort();
    const env = userEnv(dir, {
      ...s.env(),
      PAYBATCH_WEBHOOK_SECRET: 'whsec_c2VjcmV0LWZvci10aGUtZTJlLXRlc3Q=',
      PAYBATCH_STALE_AFTER: '1s',
      PAYBATCH_ALERT_AFTER: '3s',
      PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts'),
      PAYBATCH_REQUEST_TIMEOUT: '5s',
      PAYBATCH_ALERT_COMMAND: `mkdir -p '${join(dir, 'alerts')}' && cat > '${join(dir, 'alerts')}/'"$PAYBATCH_ALERT_ID.json"`,
    });
    const sheet = writeSheet(join(dir, 'folha.csv'), 1000);
    // The only fault on the API is lostResponse (2 %): the client's retries absorb it, so one run imports everything.
    const imported = await paybatch(['import', sheet, '--start', '--yes', '--json'], { env, timeout: 300_000 });
    expect(imported.exitCode, imported.stderr.slice(-2000)).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ outcome: 'imported', batch: { status: 'started', items: 1000 } });

    const daemon = await paybatch(
      ['daemon', '--listen', `127.0.0.1:${port}`, '--public-url', `http://127.0.0.1:${port}/webhooks`, '--interval', '1', '--until-settled', '--timeout', '600s', '--log-format', 'json'],
      { env, timeout: 660_000 },
    );
    // Failed payments and stale payments raise alerts: attention (4), not failure.
    expect(daemon.exitCode, daemon.stderr.slice(-3000)).toBe(4);
    const logs = daemon.stderr.trim().split('\n').map((l) => JSON.parse(l) as { msg: string });
    expect(logs.some((l) => l.msg === 'subscribed to provider events')).toBe(true);
    expect(daemon.stderr).not.toContain('whsec_');

    const { rows, items, alerts } = await rowsOf(env);
    expect(rows).toHaveLength(1000);
    const outcomes = rows.map((r) => r.last.status);
    expect(outcomes.every((o) => o === 'paid' || o === 'failed' || o === 'returned')).toBe(true);
    expect(outcomes.filter((o) => o === 'paid').length).toBeGreaterThan(900);
    // Every instability return was reprocessed through a new attempt.
    expect(rows.filter((r) => r.attempts.length > 1).length).toBeGreaterThan(0);
    for (const r of rows.filter((r) => r.last.status === 'failed' || r.last.status === 'returned')) {
      expect(alerts.some((a) => a.items_json.includes(r.last.identifier)), `${r.last.identifier} reported`).toBe(true);
    }
    // Every paid item has its receipt, a PDF, on disk.
    for (const it of items.filter((i) => i.status === 'paid')) {
      expect(it.receipt_path, it.identifier).not.toBeNull();
      const pdf = readFileSync(it.receipt_path!);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    }
    // Stale items: each named in exactly one alert.
    const staleAlerts = alerts.filter((a) => a.kind === 'stale-items').flatMap((a) => (JSON.parse(a.items_json) as { identifier: string }[]).map((i) => i.identifier));
    expect(staleAlerts.length).toBeGreaterThan(0);
    expect(new Set(staleAlerts).size).toBe(staleAlerts.length);
    // The alert command received each alert as JSON on its standard input.
    const delivered = readdirSync(join(dir, 'alerts')).map((f) => JSON.parse(readFileSync(join(dir, 'alerts', f), 'utf8')) as { kind: string });
    expect(delivered.map((a) => a.kind).sort()).toEqual(alerts.map((a) => a.kind).sort());

    expectEachRowPaidOnceAtMost(await s.admin<PaymentsReport>('payments'), rows);

    // Support acknowledges the alerts; the next cron pass finds nothing new and exits 0.
    const open = await paybatch(['alerts', 'list', '--json'], { env });
    expect(open.exitCode).toBe(4);
    expect(JSON.parse(open.stdout).map((a: { kind: string }) => a.kind)).toEqual(expect.arrayContaining(['stale-items', 'failures']));
    expect((await paybatch(['alerts', 'ack', 'all'], { env })).exitCode).toBe(0);
    expect((await paybatch(['alerts', 'list'], { env })).exitCode).toBe(0);
    const cron = await paybatch(['daemon', '--once'], { env });
    expect(cron.exitCode, cron.stderr.slice(-2000)).toBe(0);
  }, 1_000_000);

  it('loses no event and pays no one twice when killed with SIGKILL at random moments', async () => {
    const dir = tempDir();
    const s = await startSandboxProcess({
      state: join(dir, 'provider.db'),
      args: ['--seed', '5', '--speed', '100', '--faults', 'dupWebhook=0.2,reorderWebhook=0.1,instabilityReturn=0.05,failed=0.02'],
    });
    sandboxes.push(s);
    const port = await freePort();
    const env = userEnv(dir, { ...s.env(), PAYBATCH_WEBHOOK_SECRET: 'a-shared-secret-of-the-e2e-test', PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts') });
    const sheet = writeSheet(join(dir, 'folha.csv'), 300);
    const imported = await paybatch(['import', sheet, '--start', '--yes'], { env });
    expect(imported.exitCode, imported.stderr).toBe(0);
    const daemonArgs = ['daemon', '--listen', `127.0.0.1:${port}`, '--public-url', `http://127.0.0.1:${port}/webhooks`, '--interval', '0.5'];
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    // Each round kills a daemon in the middle of its work: once the ledger shows this run has done something
    // (events stored, items settled, receipts saved, new attempts), and then a seeded amount more (1 to 30 units of
    // that work), or the end of the pass it was in, whichever comes first: events of the run, not moments of the clock.
    const afterKills: Progress[] = [];
    for (let round = 0; round < 6; round++) {
      const before = await progressOf(env);
      const more = 1 + Math.floor(random() * 30);
      const run = paybatch([...daemonArgs, '--log-format', 'json'], { env, timeout: 300_000 });
      let log = '';
      run.stderr!.on('data', (b: Buffer) => (log += b.toString()));
      const passes = () => log.split('"msg":"pass done"').length - 1;
      const started = await waitFor(async () => {
        const work = workIn(await progressOf(env));
        return work > workIn(before) && work;
      }, { timeoutMs: 120_000, intervalMs: 10, what: `work by the daemon of round ${round + 1}` });
      const passesThen = passes();
      await waitFor(async () => passes() > passesThen || workIn(await progressOf(env)) >= started + more, {
        timeoutMs: 120_000,
        intervalMs: 10,
        what: `${more} more units of work, or the end of a pass, by the daemon of round ${round + 1}`,
      });
      run.kill('SIGKILL');
      const killed = await run;
      expect(killed.signal, `round ${round + 1} ended by itself: ${killed.stderr.slice(-1000)}`).toBe('SIGKILL');
      const after = await progressOf(env);
      expect(workIn(after), `round ${round + 1}`).toBeGreaterThan(workIn(before));
      afterKills.push(after);
    }
    // Until settled, and again until the ledger has what the provider did: a payment is refunded 1–6 simulated
    // seconds after it is paid, maybe after a run ended, which the item pages then show (and the daemon pays the row
    // again). Each run starts once the provider has no payment or refund due.
    const providerDone = async () => (await s.admin<PaymentsReport & { pending: number }>('payments')).pending === 0;
    const netPaid = (p: PaymentsReport) => p.payments.filter((x) => x.paid - x.refunded === 1).map((x) => x.identifier).sort();
    for (let run = 0; ; run++) {
      await waitFor(providerDone, { timeoutMs: 60_000, intervalMs: 100, what: 'the provider to have no payment or refund left due' });
      const final = await paybatch([...daemonArgs, '--until-settled', '--timeout', '400s'], { env, timeout: 450_000 });
      expect([0, 4], final.stderr.slice(-2000)).toContain(final.exitCode);
      await waitFor(providerDone, { timeoutMs: 60_000, intervalMs: 100, what: 'the provider to have no payment or refund left due' });
      const paidHere = (await queryLedger<{ identifier: string }>(env, "SELECT identifier FROM items WHERE status = 'paid'")).map((i) => i.identifier).sort();
      if (JSON.stringify(paidHere) === JSON.stringify(netPaid(await s.admin<PaymentsReport>('payments')))) break;
      expect(run, 'the ledger still differed from the provider after five runs').toBeLessThan(4);
    }
    // The kills landed mid-work: at least five of the six left work for a later run (the last may land just after
    // the work ran out, as the daemon is fast).
    const done = await progressOf(env);
    expect(afterKills.filter((after) => workIn(after) < workIn(done)).length).toBeGreaterThanOrEqual(5);
    const { rows, eventIds } = await rowsOf(env);
    expect(rows.every((r) => ['paid', 'failed', 'returned'].includes(r.last.status))).toBe(true);
    expectEachRowPaidOnceAtMost(await s.admin<PaymentsReport>('payments'), rows);
    // Every delivery the sandbox saw acknowledged (2xx) is in the ledger: nothing acknowledged was lost.
    const { deliveries } = await s.admin<WebhooksReport>('webhooks');
    const acknowledged = deliveries.filter((d) => d.status === 'delivered').map((d) => d.eventId);
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const id of acknowledged) expect(eventIds.has(id), `event ${id}`).toBe(true);
  }, 1_200_000);

  it(`as a cron job (--once) exits 0 when all is well; ${BACKEND === 'sqlite' ? 'one daemon per ledger' : 'a second daemon works alongside, doing nothing twice'}; SIGTERM stops it cleanly`, async () => {
    const dir = tempDir();
    const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--seed', '3', '--speed', '1000'] });
    sandboxes.push(s);
    const env = userEnv(dir, { ...s.env(), PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts') });
    const empty = await paybatch(['daemon', '--once'], { env });
    expect(empty.exitCode, empty.stderr).toBe(0);
    const imported = await paybatch(['import', writeSheet(join(dir, 'a.csv'), 20), '--start', '--yes'], { env });
    expect(imported.exitCode).toBe(0);
    // The provider has paid all 20 before the cron pass looks.
    await waitFor(async () => (await s.admin<BatchesReport>('batches')).batches[0]?.items.paid === 20, { what: 'the provider to pay the 20 items' });
    const once = await paybatch(['daemon', '--once', '--json'], { env });
    expect(once.exitCode, once.stderr).toBe(0);
    const doc = JSON.parse(once.stdout);
    expect(doc.last.pending).toBe(0);
    expect(doc.last.receipts.saved).toHaveLength(20);
    expect(existsSync(doc.last.receipts.saved[0])).toBe(true);
    const port = await freePort();
    const holder = paybatch(['daemon', '--listen', `127.0.0.1:${port}`, '--interval', '1', '--log-format', 'json'], { env: { ...env, PAYBATCH_WEBHOOK_SECRET: 'x-secret' }, timeout: 300_000 });
    let savedBySecond: string[] = [];
    if (BACKEND === 'sqlite') {
      // A second daemon on the same SQLite ledger is refused while the first holds it.
      await waitFor(async () => (await lockHolder(env)) === holder.pid, { what: 'the first daemon to hold the ledger' });
      const second = await paybatch(['daemon', '--once'], { env });
      expect(second.exitCode).toBe(1);
      expect(second.stderr).toContain(`Another paybatch daemon holds this ledger: pid ${holder.pid}`);
    } else {
      // On PostgreSQL a second daemon (another host) works alongside the first: a new sheet's 20 receipts are saved
      // once each, by one daemon or the other.
      let log = '';
      holder.stderr!.on('data', (b: Buffer) => (log += b.toString()));
      await waitFor(() => log.includes('"pass done"'), { what: 'the first daemon to run a pass' });
      expect(log).toContain('working alongside any other daemons');
      const more = await paybatch(['import', writeSheet(join(dir, 'b.csv'), 20, { seed: 'b' }), '--start', '--yes'], { env });
      expect(more.exitCode, more.stderr).toBe(0);
      const paidAtProvider = async () => (await s.admin<BatchesReport>('batches')).batches.reduce((n, b) => n + (b.items.paid ?? 0), 0);
      await waitFor(async () => (await paidAtProvider()) === 40, { what: 'the provider to pay the new 20 items' });
      const second = await paybatch(['daemon', '--once', '--json'], { env });
      expect(second.exitCode, second.stderr).toBe(0);
      expect(second.stderr).toContain('working alongside any other daemons');
      savedBySecond = (JSON.parse(second.stdout) as { last: { receipts: { saved: string[] } } }).last.receipts.saved;
      await waitFor(async () => (await queryLedger<{ n: number }>(env, 'SELECT count(*) AS n FROM items WHERE receipt_path IS NULL'))[0]!.n === 0, { what: 'every receipt saved' });
    }
    holder.kill('SIGTERM');
    const stopped = await holder;
    expect(stopped.exitCode, stopped.stderr).toBe(0);
    if (BACKEND === 'postgres') {
      const passes = stopped.stderr.trim().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; receipts?: number }).filter((l) => l.msg === 'pass done');
      expect(passes.length).toBeGreaterThan(0);
      expect(passes.reduce((n, l) => n + (l.receipts ?? 0), 0) + savedBySecond.length).toBe(20);
      const paths = (await queryLedger<{ receipt_path: string }>(env, 'SELECT receipt_path FROM items')).map((r) => r.receipt_path);
      expect(new Set(paths).size).toBe(40);
      expect(pdfsUnder(join(dir, 'receipts')).sort()).toEqual(paths.sort());
    }
  }, 400_000);

  it('on the embedded sandbox, a later daemon process finishes what an import started (the sandbox resumes from its state)', async () => {
    const dir = tempDir();
    const env = userEnv(dir, { PAYBATCH_SANDBOX_SPEED: '600', PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts') });
    const imported = await paybatch(['import', writeSheet(join(dir, 'a.csv'), 50), '--start', '--yes'], { env });
    expect(imported.exitCode, imported.stderr).toBe(0);
    const daemon = await paybatch(['daemon', '--listen', '127.0.0.1:0', '--interval', '0.5', '--until-settled', '--timeout', '240s', '--json'], { env, timeout: 300_000 });
    expect(daemon.exitCode, daemon.stderr.slice(-2000)).toBe(0);
    expect(daemon.stderr).toContain('SANDBOX');
    expect(daemon.stderr).toContain('subscribed to provider events');
    const { rows, items } = await rowsOf(env);
    expect(rows.map((r) => r.last.status)).toEqual(Array(50).fill('paid'));
    expect(items.every((i) => i.receipt_path !== null)).toBe(true);
  }, 400_000);
});
