// Plays one seed's scenario against the built paybatch and a sandbox, to the end, then checks the invariants.
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Sqlite from 'better-sqlite3';
import { checkInvariants } from './invariants.mjs';
import { Daemon, freePort, paybatch, startSandbox } from './processes.mjs';
import { faultSpec, sheetCsv } from './scenario.mjs';

/** Real seconds a seed may take to settle after its commands ran, before it counts as "never settled". */
const SETTLE_BUDGET_MS = 60_000;

export async function runSeed(scenario, o = {}) {
  const t0 = Date.now();
  const dir = mkdtempSync(join(tmpdir(), `paybatch-sim-${scenario.seed}-`));
  const result = {
    seed: scenario.seed,
    digest: scenario.digest,
    violations: [],
    kills: {},
    faults: {},
    forged: [],
    bills: { paid: 0, blocked: 0, forced: 0 },
    rows: 0,
    durationMs: 0,
    timings: {},
    dir: null,
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
  try {
    sandbox = await startSandbox(
      [
        '--state', join(dir, 'provider.db'),
        '--seed', String(scenario.seed),
        '--speed', String(scenario.speed),
        '--start-time', scenario.startTime,
        '--stale-seconds', String(scenario.staleSeconds),
        '--webhook-attempts', String(scenario.webhookAttempts),
        ...(faultSpec(scenario.faults) ? ['--faults', faultSpec(scenario.faults)] : []),
      ],
      { PATH: process.env.PATH ?? '', HOME: dir },
    );
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
      PAYBATCH_WEBHOOK_SECRET: secret,
      PAYBATCH_RECEIPTS_DIR: receiptsDir,
      PAYBATCH_REQUEST_TIMEOUT: '2s',
      PAYBATCH_CRASH_LOG: join(dir, 'crashes.log'),
    };
    const ledgerFile = join(dir, 'data', 'paybatch', 'ledger.db');
    const ledger = (fn) => {
      if (!existsSync(ledgerFile)) return fn(null);
      const db = new Sqlite(ledgerFile, { readonly: true, fileMustExist: true });
      db.pragma('busy_timeout = 2000');
      try {
        return fn(db);
      } finally {
        db.close();
      }
    };

    const port = await freePort();
    daemon = new Daemon({ env, port, kills: scenario.kills.daemon });
    daemon.start();
    if (!(await daemon.until(() => daemon.subscribed > 0, 20_000))) throw new Error(`the daemon did not subscribe: ${daemon.tail.join('\n')}`);
    lap('daemon');

    // 1. The sheets: `import --start`, run again after every kill or failure, as a person (or a cron job) would.
    const importKills = [...scenario.kills.imports];
    for (const sheet of scenario.sheets) {
      const file = join(dir, sheet.file);
      writeFileSync(file, sheetCsv(sheet));
      let done = false;
      let last = null;
      for (let run = 1; run <= 10 && !done; run++) {
        const crash = importKills.shift();
        const r = await paybatch(['import', file, '--start', '--yes', '--skip-invalid', '--json'], crash ? { ...env, PAYBATCH_CRASH_AT: crash } : env);
        if (r.hung) violation('commands-finish', `import of ${sheet.file} hung (run ${run})`);
        else if (r.signal === 'SIGKILL') continue;
        else if (r.code === 0) done = true;
        else if (r.code === 3) {
          violation('commands-finish', `import of ${sheet.file} refused (exit 3): ${r.stderr.slice(-800)}`);
          break;
        } else {
          last = r;
          await sleep(200); // the provider was unreachable after the client's retries: try again
        }
      }
      if (!done && !result.violations.length) violation('commands-finish', `import of ${sheet.file} did not finish in 10 runs: exit ${last?.code}: ${last?.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    }

    lap('import');
    await daemon.rearm();
    // 2. A paid event of the wrong amount for a row whose payment may still be in flight.
    if (scenario.forged.wrongAmount) {
      const f = scenario.forged.wrongAmount;
      const target = ledger((db) => pickRoot(db, f.pick, () => true));
      if (target) {
        let amount = target.amount_cents + f.delta;
        if (amount <= 0) amount = target.amount_cents + 1;
        const status = await forge(port, secret, pixEvent(f, target, { amount, isRefund: false, reason: null }));
        result.forged.push({ kind: 'wrong-amount', eventId: f.eventId, identifier: target.identifier, httpStatus: status });
      }
    }

    // 3. The bills, paid from a file; a run cut short by a kill is settled as the README tells a person to.
    lap('forge');
    if (scenario.bills.length) await payBills({ scenario, dir, env, sandbox, daemon, ledger, result, violation });
    lap('bills');
    await daemon.rearm();

    // 4. A false instability refund, correctly signed, for a row the provider paid.
    if (scenario.forged.falseRefund) {
      const f = scenario.forged.falseRefund;
      await settle({ sandbox, daemon, ledger, budgetMs: 10_000, minStep: scenario.staleSeconds + 60, itemsOnly: true });
      const target = ledger((db) => pickRoot(db, f.pick, (it) => it.status === 'paid'));
      if (target) {
        const status = await forge(port, secret, pixEvent(f, target, { amount: target.amount_cents, isRefund: true, reason: f.reason }));
        result.forged.push({ kind: 'false-refund', eventId: f.eventId, identifier: target.identifier, httpStatus: status });
      }
    }

    // 5. The clock moves on until nothing is left to happen: webhooks delivered or given up, returns made, the
    //    daemon with nothing left to do.
    lap('forge');
    const settled = await settle({ sandbox, daemon, ledger, budgetMs: SETTLE_BUDGET_MS, minStep: scenario.staleSeconds + 60 });
    if (!settled.ok) violation('settles', `still open after ${Math.round(SETTLE_BUDGET_MS / 1000)} s: ${settled.why}; daemon log: ${daemon.tail.slice(-3).join(' | ').slice(0, 1200)}`);
    lap('settle');
    await daemon.stop();
    lap('stop');
    for (const e of daemon.exits) violation('commands-finish', `the daemon exited by itself (${e.code ?? e.signal}): ${e.tail.join(' | ').slice(0, 600)}`);

    // 6. The invariants.
    const check = await paybatch(['ledger', 'check', '--json'], env);
    const payments = await sandbox.admin('payments');
    const bills = await sandbox.admin('bills');
    const webhooks = await sandbox.admin('webhooks');
    const batches = await sandbox.admin('batches');
    const snapshot = ledger((db) => readLedger(db));
    result.rows = snapshot.items.filter((i) => i.original_item_id === null).length;
    checkInvariants({ scenario, snapshot, payments, bills, ledgerCheck: check, receiptsDir, forged: result.forged, violation });
    lap('check');
    result.kills = countKills(join(dir, 'crashes.log'));
    result.faults = countFaults(sandbox.log, batches, webhooks, bills);
    for (const f of result.forged) {
      const event = snapshot.events.find((e) => e.event_id === f.eventId);
      f.outcome = f.httpStatus === null ? 'not delivered' : f.httpStatus >= 400 ? 'refused' : !event ? 'lost' : event.quarantine ? 'quarantined' : 'applied';
      f.effect = event?.effect ?? null;
    }
  } catch (e) {
    violation('harness', e instanceof Error ? (e.stack ?? e.message) : String(e));
  } finally {
    await daemon?.stop().catch(() => undefined);
    await sandbox?.stop().catch(() => undefined);
    result.durationMs = Date.now() - t0;
    if (o.keep || (result.violations.length && o.keepFailed)) result.dir = dir;
    else rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

/** The sheet rows (first attempts) of the ledger in line order, and one of those `accept` takes, chosen by `pick` in [0, 1). */
function pickRoot(db, pick, accept) {
  if (!db) return null;
  const roots = db.prepare('SELECT i.*, b.name AS batch_name FROM items i JOIN batches b ON b.id = i.batch_id WHERE i.original_item_id IS NULL ORDER BY i.batch_id, i.line').all().filter(accept);
  return roots.length ? roots[Math.floor(pick * roots.length)] : null;
}

/** A Pix event in the provider's documented shape, for a row of the ledger. */
function pixEvent(f, item, { amount, isRefund, reason }) {
  const to = item.destination_json ? JSON.parse(item.destination_json) : { key: item.key, type: item.key_type };
  const seconds = String(Math.floor(Date.now() / 1000));
  return {
    eventId: f.eventId,
    body: {
      serviceId: 1,
      payload: {
        id: f.pixId,
        eventId: f.eventId,
        serviceId: 1,
        transactionId: f.pixId,
        endToEndId: `E${f.pixId.slice(6, 38).padEnd(31, '0')}`.slice(0, 32),
        identifier: item.identifier,
        amount,
        fee: 0,
        title: isRefund ? 'Pix devolvido' : 'Pix enviado',
        description: item.description,
        timestamp: seconds,
        eventTimestamp: seconds,
        type: isRefund ? 'input' : 'output',
        category: isRefund ? 'pix_in' : 'pix_out',
        transactionStatus: 'approved',
        transactionType: isRefund ? 'credit' : 'debit',
        transactionAccepted: true,
        isRefund,
        to,
        reason,
      },
    },
  };
}

/**
 * Delivers an event to the daemon's receiver signed with the webhook secret the Standard Webhooks way (as one who
 * stole the secret would); retried while the daemon is down (restarting after a kill). The HTTP status, or null.
 */
async function forge(port, secret, { eventId, body }) {
  const text = JSON.stringify(body);
  for (let i = 0; i < 40; i++) {
    const ts = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${eventId}.${ts}.${text}`).digest('base64');
    try {
      const res = await fetch(`http://127.0.0.1:${port}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'webhook-id': eventId, 'webhook-timestamp': ts, 'webhook-signature': `v1,${signature}` },
        body: text,
      });
      await res.arrayBuffer();
      if (res.status < 500) return res.status;
    } catch {
      // the daemon is restarting
    }
    await sleep(100);
  }
  return null;
}

/**
 * Pays the bill file; after a kill or an unknown outcome, does what the README's safety rules tell a person: look
 * at the provider's bill payments for the line; pay again with --force only when it is not there; otherwise wait
 * for the daemon to settle it from the provider's event, then run the same file again.
 */
async function payBills({ scenario, dir, env, sandbox, daemon, ledger, result, violation }) {
  const file = join(dir, 'contas.csv');
  writeFileSync(file, ['codigo;descricao', ...scenario.bills.map((b, i) => `${b.line};Conta ${i + 1}`)].join('\n') + '\n');
  const kills = [...scenario.kills.bills];
  for (let run = 1; run <= 8; run++) {
    const crash = kills.shift();
    const r = await paybatch(['boleto', 'pay', '--file', file, '--yes', '--json'], crash ? { ...env, PAYBATCH_CRASH_AT: crash } : env);
    if (r.hung) {
      violation('commands-finish', `boleto pay --file hung (run ${run})`);
      return;
    }
    if (r.signal !== 'SIGKILL') {
      let doc = null;
      try {
        doc = JSON.parse(r.stdout);
      } catch {
        // exit 1 or 3: no result document
      }
      if (r.code === 0 || (r.code === 4 && doc && doc.counts.unknown === 0 && doc.counts.notAttempted === 0)) return;
      if (r.code === 3 && !/unknown outcome|was being sent/.test(r.stderr + r.stdout)) {
        violation('commands-finish', `boleto pay --file refused (exit 3): ${(r.stderr + r.stdout).slice(-800)}`);
        return;
      }
    }
    // Settle what the ledger has as unknown or as an unfinished intent.
    const open = ledger((db) => (db ? db.prepare("SELECT * FROM bills WHERE status IN ('intent', 'unknown') AND transaction_id IS NULL ORDER BY id").all() : []));
    for (const bill of open) {
      const atProvider = (await sandbox.admin('bills')).bills.filter((b) => b.typefulLine === bill.line);
      if (atProvider.length === 0) {
        // Not at the provider: nothing was paid. Pay it again, forced, as the README says.
        const forced = await paybatch(['boleto', 'pay', bill.line, '--force', '--yes', '--json'], env);
        result.bills.forced += 1;
        if (forced.hung) violation('commands-finish', 'boleto pay --force hung');
      } else {
        // Paid (or scheduled) at the provider: its event settles the ledger. Move the clock to when the payment is
        // made (a scheduled one at the next window) and on through the webhook retries.
        const resolved = () => ledger((db) => db.prepare('SELECT status FROM bills WHERE id = ?').get(bill.id).status);
        for (let i = 0; i < 12 && ['intent', 'unknown'].includes(resolved()); i++) {
          const clock = await sandbox.admin('clock');
          const due = atProvider.map((b) => (b.status === 'scheduled' && b.nextEventAt ? Date.parse(b.nextEventAt) : 0)).reduce((a, b) => Math.max(a, b), 0);
          await sandbox.admin('clock/advance', { seconds: Math.max(600, Math.ceil((due - Date.parse(clock.now)) / 1000) + 60) });
          const after = daemon.passes;
          await daemon.until(() => daemon.passes >= after + 2, 3_000);
        }
        if (['intent', 'unknown'].includes(resolved())) {
          // The provider's events never came (given up): the bill stays reported as unknown; the rest waits for a person.
          result.bills.blocked += 1;
          return;
        }
      }
    }
  }
  violation('commands-finish', 'boleto pay --file did not finish in 8 runs');
}

/**
 * Moves the simulated clock until nothing is left to happen, or the real-time budget runs out: each step jumps to
 * the last moment the sandbox has something planned for (webhook retries, scheduled bills, returns) — at least
 * `minStep` seconds, long enough for items to settle, refunds to come and stale items to wake up — then waits for
 * two daemon passes.
 */
async function settle({ sandbox, daemon, ledger, budgetMs, minStep, itemsOnly = false }) {
  const deadline = Date.now() + budgetMs;
  for (;;) {
    const [clock, hooks, bills] = await Promise.all([sandbox.admin('clock'), sandbox.admin('webhooks'), sandbox.admin('bills')]);
    const planned = [
      ...hooks.deliveries.filter((d) => d.status === 'pending' && d.nextAttemptAt).map((d) => Date.parse(d.nextAttemptAt)),
      ...(itemsOnly ? [] : bills.bills.filter((b) => b.nextEventAt).map((b) => Date.parse(b.nextEventAt))),
    ];
    const last = planned.reduce((a, b) => Math.max(a, b), 0);
    await sandbox.admin('clock/advance', { seconds: Math.max(minStep, Math.ceil((last - Date.parse(clock.now)) / 1000) + 1) });
    // Two whole passes after the clock moved: the first may have started before.
    const after = daemon.passes;
    await daemon.until(() => daemon.passes >= after + 2, 5_000);
    const why = await openWork({ sandbox, daemon, ledger, itemsOnly });
    if (why === null) return { ok: true };
    if (Date.now() > deadline) return { ok: false, why };
  }
}

/** What is still to happen, in words; null when the seed has settled. `itemsOnly`: only the items. */
async function openWork({ sandbox, daemon, ledger, itemsOnly }) {
  if (itemsOnly) {
    const open = ledger((db) => (db ? db.prepare("SELECT count(*) AS n FROM items WHERE status IN ('resolved', 'submitted', 'processing')").get().n : 0));
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
  const unreturned = ledger((db) => db.prepare("SELECT count(*) AS n FROM items WHERE status = 'returned' AND return_action IS NULL").get().n);
  if (unreturned) return `${unreturned} returns waiting for their reason`;
  return null;
}

function readLedger(db) {
  if (!db) return { items: [], batches: [], imports: [], bills: [], alerts: [], events: [] };
  return {
    items: db.prepare('SELECT * FROM items ORDER BY id').all(),
    batches: db.prepare('SELECT * FROM batches ORDER BY id').all(),
    imports: db.prepare('SELECT * FROM imports ORDER BY id').all(),
    bills: db.prepare('SELECT * FROM bills ORDER BY id').all(),
    alerts: db.prepare('SELECT * FROM alerts ORDER BY id').all(),
    events: db.prepare('SELECT * FROM webhook_events').all(),
  };
}

function countKills(file) {
  const kills = {};
  if (!existsSync(file)) return kills;
  for (const phase of readFileSync(file, 'utf8').split('\n').filter(Boolean)) kills[phase] = (kills[phase] ?? 0) + 1;
  return kills;
}

/** The faults the sandbox injected, from its log (HTTP faults) and its inspection routes (items, webhooks, bills). */
function countFaults(log, batches, webhooks, bills) {
  const faults = {};
  const add = (name, n = 1) => n && (faults[name] = (faults[name] ?? 0) + n);
  for (const line of log) {
    const m = /\bfault (\w+):/.exec(line);
    if (m) add(m[1]);
  }
  for (const b of batches.batches) {
    add('failed', b.items.failed ?? 0);
    add('instabilityReturn', b.items.returned ?? 0);
  }
  for (const d of webhooks.deliveries) {
    if (d.duplicate) add('dupWebhook');
    add('webhookAttemptsFailed', Math.max(0, d.attempts - (d.status === 'delivered' ? 1 : 0)));
    if (d.status === 'failed') add('webhookLost');
  }
  add('billReturn', bills.bills.filter((b) => b.status === 'returned').length);
  return faults;
}
