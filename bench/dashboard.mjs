// node bench/dashboard.mjs [--items N] [--runs N] [--json] — the dashboard's API on a ledger holding one batch of N
// items (default 100,000) in several states: `paybatch ui` as users start it, each route asked `runs` times over
// HTTP, the median and the slowest answer reported against the goal of 100 ms. Needs the build (npm run build).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { openLedger } from '../dist/ledger/open-ledger.js';
import { recordImport } from '../dist/ledger/import-repository.js';
import { defaultLedgerFile } from '../dist/config/paths.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const ITEMS = arg('items', 100_000);
const RUNS = arg('runs', 15);
const json = process.argv.includes('--json');
const GOAL_MS = 100;
const BIN = fileURLToPath(new URL('../bin/paybatch.js', import.meta.url));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = mkdtempSync(join(tmpdir(), 'paybatch-bench-ui-'));
const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), LC_ALL: 'pt_BR.UTF-8' };
let ui = null;
try {
  // One batch of ITEMS items, as a payroll import leaves it: most paid, some failed, some still processing.
  const ledger = await openLedger(defaultLedgerFile(env));
  const destination = { accountType: 'checkingAccount', branch: '0001', key: 'k', accountNumber: '1', institutionName: 'b', document: '52998224725', type: 'email', institution: 'i', name: 'n' };
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    line: i + 2, identifier: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, key: `pessoa${i}@exemplo.com.br`, keyType: 'email',
    amountCents: 1_000 + (i % 50_000), description: `Folha ${i}`, sheetName: `Pessoa ${i}`, sheetDocument: null, destination,
  }));
  const { batchIds } = await recordImport(ledger, { fileHash: 'folha', fileName: 'folha.csv', rowCount: ITEMS, batchName: 'Folha', itemCount: ITEMS, items, rejectedCount: 0, now: new Date() });
  const [batch] = batchIds;
  await ledger.db.updateTable('batches').set({ status: 'started' }).where('id', '=', batch).execute();
  await ledger.db.updateTable('items').set({ status: 'paid', record_state: 'paid' }).where('batch_id', '=', batch).where('line', '<', Math.floor(ITEMS * 0.9)).execute();
  await ledger.db.updateTable('items').set({ status: 'failed', record_state: 'failed', reason: 'AC03' }).where('batch_id', '=', batch).where('line', '>=', Math.floor(ITEMS * 0.97)).execute();
  await ledger.db.updateTable('items').set({ status: 'processing' }).where('batch_id', '=', batch).where('line', '>=', Math.floor(ITEMS * 0.9)).where('line', '<', Math.floor(ITEMS * 0.97)).execute();
  await ledger.close();

  ui = spawn(process.execPath, [BIN, 'ui', '--listen', '127.0.0.1:0', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const started = await new Promise((resolve, reject) => {
    let text = '';
    ui.stdout.on('data', (b) => {
      text += b;
      try {
        resolve(JSON.parse(text));
      } catch {
        // not complete yet
      }
    });
    ui.on('exit', (code) => reject(new Error(`paybatch ui exited ${code}`)));
  });
  // The token's URL sets the session cookie; every later request carries it.
  const first = await fetch(started.url, { redirect: 'manual' });
  const cookie = first.headers.get('set-cookie').split(';')[0];
  const origin = new URL(started.url).origin;
  const routes = [
    ['batches', '/api/batches'],
    ['batch detail', `/api/batches/${batch}`],
    ['items, first page', `/api/batches/${batch}/items?offset=0&limit=100`],
    ['items, last page', `/api/batches/${batch}/items?offset=${ITEMS - 100}&limit=100`],
    ['items, failed only', `/api/batches/${batch}/items?status=failed&offset=0&limit=100`],
    ['items, search by name', `/api/batches/${batch}/items?q=pessoa99999&offset=0&limit=100`],
    ['receipts', `/api/receipts?batch=${batch}`],
    ['status', '/api/status'],
  ];
  const rows = [];
  for (const [name, path] of routes) {
    const times = [];
    for (let r = 0; r < RUNS; r++) {
      const t = performance.now();
      const res = await fetch(origin + path, { headers: { cookie } });
      await res.arrayBuffer();
      times.push(performance.now() - t);
      if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
    }
    rows.push({ route: name, path, medianMs: +median(times).toFixed(1), maxMs: +Math.max(...times).toFixed(1), goalMs: GOAL_MS, met: median(times) <= GOAL_MS ? 'yes' : 'no' });
  }
  process.stderr.write(`dashboard API, one batch of ${ITEMS.toLocaleString('en')} items, ${RUNS} requests per route (median / slowest, goal ≤ ${GOAL_MS} ms)\n`);
  for (const r of rows) process.stderr.write(`  ${r.route.padEnd(24)} ${String(r.medianMs).padStart(7)} ms  ${String(r.maxMs).padStart(7)} ms  ${r.met}\n`);
  if (json) process.stdout.write(`${JSON.stringify({ items: ITEMS, runs: RUNS, goalMs: GOAL_MS, rows })}\n`);
} finally {
  ui?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
