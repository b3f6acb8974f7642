// Plays one seed's scenario against the built paybatch and a sandbox, to the end, then checks the invariants.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Sqlite from 'better-sqlite3';
import { deliver, forgedEvent, pickTarget, providerItems } from './forge.mjs';
import { checkInvariants } from './invariants.mjs';
import { createDatabase, dropDatabase, ledgerReader, shown } from './ledger-reader.mjs';
import { Daemon, paybatch, reservePort, startSandbox, startSandboxInline } from './processes.mjs';
import { faultSpec, sheetCsv } from './scenario.mjs';

/** The unit of Pix amounts each dialect's documentation gives (test/e2e/dialects.test.ts): the user sets it. */
const AMOUNT_UNIT = { paybatch: 'cents', spec: 'cents', iso: 'reais' };
/**
 * Clock steps (each followed by two whole daemon passes) a seed may take to settle once its commands ran, before it
 * counts as "never settled". Counted in steps, not seconds: a loaded machine makes passes slower, never fewer needed.
 */
const SETTLE_STEPS = 12;
/** Real milliseconds after which settling is given up whatever the steps: a daemon that never completes a pass. */
const SETTLE_WALL_MS = 180_000;
/** Clock steps in a row with nothing changing (and the daemon failing) before a seed counts as stuck. */
const STUCK_STEPS = 8;
/** Runs of a command that fail other than by a planned kill before it counts as never finishing. */
const MAX_FAILED_RUNS = 4;

/**
 * Plays a scenario: the sandbox (in this process by default, `paybatch sandbox serve` with sandbox: 'process'), the
 * daemon (restarted after each kill), the imports, the bills and the forged events, then moves the sandbox's clock
 * until nothing is left to happen and checks the invariants. The ledger is the profile's SQLite file, or with
 * `postgresUrl` (a server's URL) a new database of that server, dropped at the end unless the seed's folder is kept.
 * Resolves with what happened, never rejects.
 */
export async function runSeed(scenario, o = {}) {
  const t0 = Date.now();
  const dir = mkdtempSync(join(tmpdir(), `paybatch-sim-${scenario.seed}-`));
  const result = {
    seed: scenario.seed,
    digest: scenario.digest,
    dialect: scenario.dialect,
    violations: [],
    kills: {},
    faults: {},
    forged: [],
    bills: { forced: 0, resolvedByHand: 0 },
    unseen: { billReturns: 0, billsAlerted: 0 },
    reprocessed: { returns: 0, rejections: 0, reasonUnknown: 0 },
    reconcileExit: null,
    rows: 0,
    sheets: scenario.sheets.length,
    billCount: scenario.bills.length,
    durationMs: 0,
    timings: {},
    dir: null,
    ledger: null,
  };
  let mark = Date.now();
  const lap = (name) => {
    const now = Date.now();
    result.timings[name] = (result.timings[name] ?? 0) + now - mark;
    mark = now;
  };
  const violation = (invariant, detail) => result.violations.push({ invariant, detail });
  let sandbox = null;
  let daemon = null;
  let ledger = null;
  let database = null;
  let reserved = null;
  try {
    if (o.postgresUrl) database = await createDatabase(o.postgresUrl, scenario.seed);
    const spec = faultSpec(scenario.faults);
    sandbox =
      o.sandbox === 'process'
        ? await startSandbox(
            [
              '--state', join(dir, 'provider.db'),
              '--seed', String(scenario.seed),
              '--speed', String(scenario.speed),
              '--start-time', scenario.startTime,
              '--stale-seconds', String(scenario.staleSeconds),
              '--webhook-attempts', String(scenario.webhookAttempts),
              '--dialect', scenario.dialect,
              ...(spec ? ['--faults', spec] : []),
            ],
            { PATH: process.env.PATH ?? '', HOME: dir },
          )
        : await startSandboxInline({
            stateFile: join(dir, 'provider.db'),
            seed: scenario.seed,
            speed: scenario.speed,
            startTime: scenario.startTime,
            staleSeconds: scenario.staleSeconds,
            webhookAttempts: scenario.webhookAttempts,
            faults: spec,
            dialect: scenario.dialect,
          });
    lap('sandbox');
    mkdirSync(join(dir, 'config'), { recursive: true });
    const secret = `simulated-webhook-secret-${scenario.seed}`;
    const receiptsDir = join(dir, 'receipts');
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_DATA_HOME: join(dir, 'data'),
      NO_COLOR: '1',
      ...sandbox.env,
      // The unit the dialect's documentation gives for Pix amounts, set as docs/provider.md asks a user to.
      PAYBATCH_PIX_AMOUNT_UNIT: AMOUNT_UNIT[scenario.dialect],
      // Real time: the `spec` dialect's pages never carry the Pix id, and a paid item whose event was lost is reported
      // (receipts-unavailable) after this wait instead of holding the seed for the default minute.
      PAYBATCH_RECEIPT_WAIT: '2s',
      PAYBATCH_WEBHOOK_SECRET: secret,
      PAYBATCH_RECEIPTS_DIR: receiptsDir,
      PAYBATCH_REQUEST_TIMEOUT: '2s',
      // Real time barely moves while the sandbox's clock jumps: the return watch reads settled batches every second.
      PAYBATCH_RETURN_WATCH_EVERY: '1s',
      PAYBATCH_CRASH_LOG: join(dir, 'crashes.log'),
      ...(database ? { PAYBATCH_LEDGER: database } : {}),
    };
    ledger = ledgerReader(database ?? join(dir, 'data', 'paybatch', 'ledger.db'));

    reserved = await reservePort(scenario.seed);
    const { port } = reserved;
    daemon = new Daemon({ env, port, kills: scenario.kills.daemon });
    const startDaemon = async () => {
      daemon.start();
      if (!(await daemon.until(() => daemon.subscribed > 0, 20_000))) throw new Error(`the daemon did not subscribe: ${daemon.tail.join('\n')}`);
      lap('daemon');
    };
    // The daemon runs all along (as under systemd) in some seeds, and is started once the sheets are in in others.
    if (scenario.daemonDuringImport) await startDaemon();

    // 1. The sheets: `import --start`, run again after every kill or failure, as a person (or a cron job) would.
    const importKills = [...scenario.kills.imports];
    for (const sheet of scenario.sheets) {
      const file = join(dir, sheet.file);
      writeFileSync(file, sheetCsv(sheet));
      const failures = [];
      for (;;) {
        const crash = importKills.shift();
        const r = await paybatch(['import', file, '--start', '--yes', '--skip-invalid', '--json'], crash ? { ...env, PAYBATCH_CRASH_AT: crash } : env);
        if (r.signal === 'SIGKILL' && !r.hung) continue;
        if (r.code === 0) break;
        failures.push(r.hung ? 'hung' : `exit ${r.code}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
        // Exit 3 (input refused) cannot change by running again; other failures may be the faults' doing.
        if (r.code === 3 || failures.length >= MAX_FAILED_RUNS) {
          violation('commands-finish', `import of ${sheet.file} did not finish (${failures.length} failed runs); last: ${failures.at(-1).slice(0, 800)}`);
          break;
        }
        await sleep(200);
      }
    }
    lap('import');
    // 2. False events, early: right after the sheets are in, while payments may still be under way. Where the daemon
    //    starts only now, they are aimed before it starts and delivered the moment its receiver listens, racing its
    //    first pass (and the provider's own news).
    const stateFile = join(dir, 'provider.db');
    const sendForged = async (moment) => {
      const taken = new Set(result.forged.map((x) => x.targetId));
      const items = await ledger.all('SELECT i.*, b.remote_id FROM items i JOIN batches b ON b.id = i.batch_id ORDER BY i.id');
      const records = providerItems(stateFile);
      const nowMs = Date.parse((await sandbox.admin('clock')).now);
      const planned = [];
      for (const f of scenario.forged.filter((x) => x.moment === moment)) {
        const target = pickTarget(f, items, records, taken);
        if (!target) continue;
        taken.add(target.item.id);
        const event = forgedEvent(f, target, { dialect: scenario.dialect, records, seed: scenario.seed, nowMs });
        const entry = {
          kind: f.kind,
          moment,
          eventId: f.eventId,
          identifier: event.identifier,
          targetId: target.item.id,
          description: event.description,
          claim: event.claim,
          // What the ledger and the provider held when it was aimed.
          ledgerWas: target.item.status,
          recordWas: target.record.status,
          httpStatus: null,
        };
        result.forged.push(entry);
        planned.push(deliver(port, scenario.dialect, secret, event).then((status) => (entry.httpStatus = status)));
      }
      await Promise.all(planned);
    };
    if (scenario.daemonDuringImport) {
      await daemon.rearm();
      await sendForged('early');
    } else {
      const early = sendForged('early').then(
        () => null,
        (e) => e,
      );
      await startDaemon();
      const failed = await early;
      if (failed) throw failed;
    }
    lap('forge');

    // 3. The bills, paid from a file; a run cut short by a kill is settled as docs/bills.md tells a person to.
    if (scenario.bills.length) {
      await payBills({ scenario, dir, env, sandbox, daemon, ledger, result, violation });
    }
    lap('bills');

    // 4. False events, late: once the items settled and the refunds still due came, so payments really stand.
    if (scenario.forged.some((f) => f.moment === 'late')) {
      await settle({ sandbox, daemon, ledger, steps: 4, minStep: scenario.staleSeconds + 60, itemsOnly: true });
      // Past any instability refund still due (10-60 s after a payment): the target's payment really stands.
      await sandbox.admin('clock/advance', { seconds: 120 });
      const after = daemon.passes;
      await daemon.until(() => daemon.passes >= after + 2, 5_000);
      await sendForged('late');
    }
    lap('forge');

    // 5. The clock moves on until nothing is left to happen: webhooks delivered or given up, returns made, the
    //    daemon with nothing left to do.
    const settled = await settle({ sandbox, daemon, ledger, steps: SETTLE_STEPS, minStep: scenario.staleSeconds + 60 });
    result.settleSteps = settled.steps;
    if (!settled.ok) violation('settles', `${settled.why}; daemon log: ${daemon.tail.slice(-3).join(' | ').slice(0, 1200)}`);
    lap('settle');
    await daemon.stop();
    lap('stop');
    for (const e of daemon.exits) violation('commands-finish', `the daemon exited by itself (${e.code ?? e.signal}): ${e.tail.join(' | ').slice(0, 600)}`);

    // 6. The final reconciliation: the ledger against the provider's item pages, item by item (exit 0: they agree).
    const reconciled = await paybatch(['reconcile', '--json'], env);
    result.reconcileExit = reconciled.code ?? reconciled.signal;
    lap('reconcile');

    // 7. The invariants.
    const check = await paybatch(['ledger', 'check', '--json'], env);
    const [payments, bills, webhooks] = await Promise.all(['payments', 'bills', 'webhooks'].map((r) => sandbox.admin(r)));
    const records = providerItems(stateFile);
    const snapshot = await readLedger(ledger);
    result.rows = snapshot.items.filter((i) => i.original_item_id === null).length;
    checkInvariants({
      scenario,
      snapshot,
      payments,
      bills,
      records,
      reconciled,
      forged: result.forged,
      lostBillEvents: lostBillEvents(stateFile),
      ledgerCheck: check,
      receiptsDir,
      violation,
      unseen: result.unseen,
      reprocessed: result.reprocessed,
    });
    lap('check');
    result.kills = countKills(join(dir, 'crashes.log'));
    result.faults = countFaults(sandbox.log, records, webhooks, bills);
  } catch (e) {
    violation('harness', e instanceof Error ? (e.stack ?? e.message) : String(e));
  } finally {
    await daemon?.stop().catch(() => undefined);
    await sandbox?.stop().catch(() => undefined);
    await ledger?.close().catch(() => undefined);
    reserved?.release();
    result.durationMs = Date.now() - t0;
    if (o.keep || (result.violations.length && o.keepFailed)) {
      result.dir = dir;
      if (database) result.ledger = shown(database);
    } else {
      rmSync(dir, { recursive: true, force: true });
      if (database) await dropDatabase(o.postgresUrl, database).catch(() => undefined);
    }
  }
  return result;
}

/**
 * Pays the bill file; after a kill or an unknown outcome, does what the safety rules of docs/bills.md tell a person: look
 * at the provider's bill payments for the line; pay again with --force only when it is not there; otherwise wait
 * for the daemon to settle it from the provider's event (when its events were lost, record what the statement shows
 * with boleto resolve), then run the same file again.
 */
async function payBills({ scenario, dir, env, sandbox, daemon, ledger, result, violation }) {
  const file = join(dir, 'contas.csv');
  writeFileSync(file, ['codigo;descricao', ...scenario.bills.map((b, i) => `${b.line};Conta ${i + 1}`)].join('\n') + '\n');
  const kills = [...scenario.kills.bills];
  const failures = [];
  for (let run = 1; ; run++) {
    if (run > 8) {
      violation('commands-finish', 'boleto pay --file was run 8 times and still has bills to pay');
      return;
    }
    const crash = kills.shift();
    const r = await paybatch(['boleto', 'pay', '--file', file, '--yes', '--json'], crash ? { ...env, PAYBATCH_CRASH_AT: crash } : env);
    if (r.hung) {
      violation('commands-finish', 'boleto pay --file hung');
      return;
    }
    if (r.signal !== 'SIGKILL') {
      let doc = null;
      try {
        doc = JSON.parse(r.stdout);
      } catch {
        // exit 1 or 3: no result document
      }
      // Done: everything paid or scheduled, or refused for good (failed) with nothing left unknown or unsent.
      if (r.code === 0 || (r.code === 4 && doc && doc.counts.unknown === 0 && doc.counts.notAttempted === 0)) return;
      const blocked = r.code === 3 && /unknown outcome|was being sent/.test(r.stderr + r.stdout);
      if (!blocked && !(r.code === 4 && doc)) {
        failures.push(`exit ${r.code}: ${(r.stderr + r.stdout).trim().split('\n').slice(-3).join(' | ')}`);
        if (r.code === 3 || failures.length >= MAX_FAILED_RUNS) {
          violation('commands-finish', `boleto pay --file did not finish (${failures.length} failed runs); last: ${failures.at(-1).slice(0, 800)}`);
          return;
        }
        continue;
      }
    }
    // Killed, or a payment left unknown: settle what the ledger has as unknown or as an unfinished intent.
    const open = await ledger.all("SELECT * FROM bills WHERE status IN ('intent', 'unknown') ORDER BY id");
    for (const bill of open) {
      const atProvider = (await sandbox.admin('bills')).bills.filter((b) => b.typefulLine === bill.line);
      if (atProvider.length === 0) {
        // Not at the provider: nothing was paid. Pay it again, forced, as docs/bills.md says.
        const forced = await paybatch(['boleto', 'pay', bill.line, '--force', '--yes', '--json'], env);
        result.bills.forced += 1;
        if (forced.hung) violation('commands-finish', 'boleto pay --force hung');
        continue;
      }
      // Paid (or scheduled) at the provider: its event settles the ledger. Move the clock to when the payment is
      // made (a scheduled one at the next window) and on through the webhook retries.
      const status = async () => (await ledger.all('SELECT status FROM bills WHERE id = ?', [bill.id]))[0].status;
      for (let i = 0; i < 12 && ['intent', 'unknown'].includes(await status()); i++) {
        await daemon.until(() => daemon.up, 10_000);
        const clock = await sandbox.admin('clock');
        const due = atProvider.map((b) => (b.status === 'scheduled' && b.nextEventAt ? Date.parse(b.nextEventAt) : 0)).reduce((a, b) => Math.max(a, b), 0);
        await sandbox.admin('clock/advance', { seconds: Math.max(600, Math.ceil((due - Date.parse(clock.now)) / 1000) + 60) });
        const after = daemon.passes;
        await daemon.until(() => daemon.passes >= after + 2, 3_000);
      }
      if (['intent', 'unknown'].includes(await status())) {
        // Still unknown although the provider paid it (its events given up): a person finds it in the statement and
        // records it, as docs/bills.md says; then the file is run again for the rest.
        const paid = atProvider.at(-1);
        const resolved = await paybatch(['boleto', 'resolve', String(bill.id), '--paid', '--transaction', paid.transactionId, '--json'], env);
        result.bills.resolvedByHand += 1;
        if (resolved.code !== 0) {
          violation('commands-finish', `boleto resolve ${bill.id} --paid exited ${resolved.code ?? resolved.signal}: ${(resolved.stderr + resolved.stdout).slice(-500)}`);
          return;
        }
      }
    }
  }
}

/**
 * Moves the simulated clock until nothing is left to happen, or `steps` steps were taken: each step jumps to the last
 * moment the sandbox has something planned for (webhook retries, scheduled bills, returns) — at least `minStep`
 * seconds, long enough for items to settle, refunds to come and stale items to wake up — then waits for two daemon
 * passes. A step whose two passes did not come in time is taken again and not counted.
 */
async function settle({ sandbox, daemon, ledger, steps, minStep, itemsOnly = false }) {
  const deadline = Date.now() + SETTLE_WALL_MS;
  let taken = 0;
  let same = 0;
  let before = '';
  let quiet = null;
  for (;;) {
    // The clock waits while a killed daemon restarts (as the provider's retries would, at the speed of real time).
    await daemon.until(() => daemon.up, 10_000);
    const [clock, hooks, bills] = await Promise.all([sandbox.admin('clock'), sandbox.admin('webhooks'), sandbox.admin('bills')]);
    const planned = [
      ...hooks.deliveries.filter((d) => d.status === 'pending' && d.nextAttemptAt).map((d) => Date.parse(d.nextAttemptAt)),
      ...(itemsOnly ? [] : bills.bills.filter((b) => b.nextEventAt).map((b) => Date.parse(b.nextEventAt))),
    ];
    const last = planned.reduce((a, b) => Math.max(a, b), 0);
    await sandbox.admin('clock/advance', { seconds: Math.max(minStep, Math.ceil((last - Date.parse(clock.now)) / 1000) + 1) });
    // Two whole passes after the clock moved: the first may have started before. Without them (a pass held up by a
    // slow answer, a daemon restarting) nothing can be concluded yet.
    const after = daemon.passes;
    const passed = await daemon.until(() => daemon.passes >= after + 2, 5_000);
    const why = passed ? await openWork({ sandbox, daemon, ledger, itemsOnly }) : 'the daemon has not finished two passes since the clock moved';
    // Settled once nothing is open at two checks in a row with the ledger unchanged between them: the step between
    // them (at least minStep, over a minute) lets every refund still due after a recent payment come.
    const statuses = JSON.stringify(await ledger.all('SELECT id, status FROM items ORDER BY id'));
    if (passed) taken += 1;
    if (why === null && (itemsOnly || quiet === statuses)) return { ok: true, steps: taken };
    quiet = why === null ? statuses : null;
    if (taken >= steps) return { ok: false, steps: taken, why: `still open after ${taken} clock steps: ${why}` };
    if (Date.now() > deadline) return { ok: false, steps: taken, why: `still open after ${SETTLE_WALL_MS / 1000} s (${taken} clock steps): ${why}` };
    // Nothing moves (the same work left, the same deliveries, the same ledger) while the daemon keeps failing: stuck.
    const state = JSON.stringify([why, hooks.deliveries.map((d) => d.attempts), await ledger.all('SELECT status, count(*) AS n FROM items GROUP BY status ORDER BY status')]);
    same = state === before && daemon.last?.errors ? same + 1 : 0;
    before = state;
    if (same >= STUCK_STEPS) return { ok: false, steps: taken, why: `stuck: ${why}` };
  }
}

/** What is still to happen, in words; null when the seed has settled. `itemsOnly`: only the items. */
async function openWork({ sandbox, daemon, ledger, itemsOnly }) {
  if (itemsOnly) {
    const open = (await ledger.all("SELECT count(*) AS n FROM items WHERE status IN ('resolved', 'submitted', 'processing')"))[0]?.n ?? 0;
    return open ? `${open} items open` : null;
  }
  const last = daemon.last;
  if (!last) return 'no daemon pass yet';
  const left = ['pending', 'unsent', 'missingReceipts', 'reprocessed', 'errors'].filter((k) => last[k]);
  if (left.length) return `daemon: ${left.map((k) => `${k} ${last[k]}`).join(', ')}`;
  const [hooks, bills] = await Promise.all([sandbox.admin('webhooks'), sandbox.admin('bills')]);
  if (hooks.summary.pending) return `${hooks.summary.pending} webhook deliveries pending`;
  const due = bills.bills.filter((b) => b.nextEventAt !== null).length;
  if (due) return `${due} bills with events to come`;
  // A return whose reason never came (the spec dialect's pages give none, and its refund event was lost) is reported
  // (final-return): nothing more will happen to it.
  const unreturned = (await ledger.all("SELECT count(*) AS n FROM items WHERE status = 'returned' AND return_action IS NULL AND alerted_at IS NULL"))[0]?.n ?? 0;
  if (unreturned) return `${unreturned} returns waiting for their reason`;
  return null;
}

/** The ledger's tables the invariants read (empty when no command created the ledger). */
async function readLedger(ledger) {
  return {
    items: await ledger.all('SELECT * FROM items ORDER BY id'),
    batches: await ledger.all('SELECT * FROM batches ORDER BY id'),
    imports: await ledger.all('SELECT * FROM imports ORDER BY id'),
    bills: await ledger.all('SELECT * FROM bills ORDER BY id'),
    alerts: await ledger.all('SELECT * FROM alerts ORDER BY id'),
    events: await ledger.all('SELECT * FROM webhook_events'),
    corrections: await ledger.all('SELECT * FROM item_corrections ORDER BY id'),
  };
}

/** Bodies of the sandbox's bill events that no delivery got through (read from its state file once it stopped). */
function lostBillEvents(stateFile) {
  const db = new Sqlite(stateFile, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare("SELECT body FROM events e WHERE kind LIKE 'bill%' AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.event_id AND d.status = 'delivered')")
      .pluck()
      .all();
  } finally {
    db.close();
  }
}

function countKills(file) {
  const kills = {};
  if (!existsSync(file)) return kills;
  for (const phase of readFileSync(file, 'utf8').split('\n').filter(Boolean)) kills[phase] = (kills[phase] ?? 0) + 1;
  return kills;
}

/** The faults the sandbox injected, from its log (HTTP faults), its record of items and its inspection routes (webhooks, bills). */
function countFaults(log, records, webhooks, bills) {
  const faults = {};
  const add = (name, n = 1) => n && (faults[name] = (faults[name] ?? 0) + n);
  for (const line of log) {
    const m = /\bfault (\w+):/.exec(line);
    if (m) add(m[1]);
  }
  add('failed', records.filter((p) => p.status === 'failed' && p.plan === 'failed').length);
  add('instabilityRejection', records.filter((p) => p.status === 'failed' && p.plan === 'instabilityRejection').length);
  add('instabilityReturn', records.filter((p) => p.status === 'returned').length);
  for (const d of webhooks.deliveries) {
    if (d.duplicate) add('dupWebhook');
    add('webhookAttemptsFailed', Math.max(0, d.attempts - (d.status === 'delivered' ? 1 : 0)));
    if (d.status === 'failed') add('webhookLost');
  }
  add('billReturn', bills.bills.filter((b) => b.status === 'returned').length);
  return faults;
}
