// node bench/follow-up.mjs [--items 10000] [--runs 3] [--json] — a sheet followed to the end on a local sandbox.
// Needs the build. Starts `paybatch sandbox serve` (no faults), imports and starts a sheet of `--items` payments
// (split into batches past 10,000), then measures `paybatch daemon --until-settled` (webhooks on, every item settled
// and every receipt saved) against the floor: a bare script that fetches the same receipts from the same sandbox at
// the same concurrency as paybatch (one OAuth token, GET /pix/{pixId}/receipt, decode, write the PDF). Also reports
// the import's wall time and the peak RSS of the import and of the daemon (/usr/bin/time -f %M).
// Each of `--runs` runs has its own sandbox and ledger; the ratio of each is measured within it, and the run with the
// median ratio is the result (the goal reads the median of three). A run may take up to 15 min, or 15 ms an item
// past that (100,000 items: 25 min); a 100,000-item run takes ~20 min on a quiet 2-core machine, floor included.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import Sqlite from 'better-sqlite3';
import { Pool } from 'undici';
import { daemonArgs, measured as measuredIn, paybatchEnv, startSandbox, stopSandbox } from './sandbox-run.mjs';

/** What paybatch's receipt fetching uses (src/engine/follow-up/fetch-receipts.ts), so both sides have the same concurrency. */
const RECEIPT_CONCURRENCY = 4;

const { values: args } = parseArgs({ options: { items: { type: 'string', default: '10000' }, runs: { type: 'string', default: '3' }, json: { type: 'boolean', default: false } } });
const ITEMS = Number(args.items);
const RUNS = Number(args.runs);
if (!(ITEMS > 0 && ITEMS <= 200_000)) throw new Error('--items 1..200000');
if (!(Number.isInteger(RUNS) && RUNS >= 1 && RUNS <= 9)) throw new Error('--runs 1..9');
const RUN_TIMEOUT_MS = Math.max(15 * 60_000, ITEMS * 15);
/** The daemon's own --timeout, a minute inside the run's. */
const DAEMON_TIMEOUT = `${Math.floor(RUN_TIMEOUT_MS / 60_000) - 1}m`;

const reports = [];
for (let r = 0; r < RUNS; r++) reports.push({ run: r + 1, ...(await oneRun()) });
const byRatio = [...reports].sort((a, b) => a.ratio - b.ratio);
const median = byRatio[Math.floor((byRatio.length - 1) / 2)];
console.log(`node bench/follow-up.mjs --items ${ITEMS} --runs ${RUNS}`);
console.table(reports);
console.log(`followed to settled with receipts / bare receipt fetching: ${median.ratio}x (the median of ${RUNS} runs: run ${median.run}; goal <= 1.3x)`);
if (args.json) console.log(JSON.stringify({ ...median, runs: RUNS, ratios: reports.map((x) => x.ratio) }));

/** One run in a folder of its own: a fresh sandbox and ledger, the daemon, then the floor. */
async function oneRun() {
  const dir = mkdtempSync(join(tmpdir(), 'paybatch-bench-follow-up-'));
  const measured = (argv, env) => measuredIn(argv, env, join(dir, 'time.txt'), RUN_TIMEOUT_MS);
  let sandbox;
  try {
    sandbox = await startSandbox(join(dir, 'provider.db'));
    const env = paybatchEnv(dir, sandbox.ready);
    const sheet = join(dir, 'folha.csv');
    const lines = ['chave;tipo_chave;valor;descricao'];
    for (let i = 1; i <= ITEMS; i++) lines.push(`pessoa${i}@exemplo.com.br;email;${1 + (i % 900)},${String(i % 100).padStart(2, '0')};Pagamento ${i}`);
    writeFileSync(sheet, `${lines.join('\n')}\n`);

    const imported = await measured(['import', sheet, '--start', '--yes', '--json'], env);
    const importDoc = JSON.parse(imported.stdout);
    const daemon = await measured(await daemonArgs(DAEMON_TIMEOUT), env);

    const ledger = new Sqlite(join(dir, 'data', 'paybatch', 'ledger.db'), { readonly: true });
    const items = ledger.prepare("SELECT status, pix_id, receipt_path FROM items WHERE original_item_id IS NULL AND attempt = 1").all();
    ledger.close();
    const paid = items.filter((i) => i.status === 'paid');
    if (paid.length !== ITEMS || paid.some((i) => !i.receipt_path)) throw new Error(`expected ${ITEMS} paid items with receipts: ${paid.length} paid, ${paid.filter((i) => i.receipt_path).length} with receipts`);

    const floorMs = await fetchReceiptsBare(sandbox.ready, paid.map((i) => i.pix_id), join(dir, 'floor'));
    return {
      items: ITEMS,
      batches: importDoc.batches.length,
      importSeconds: +(imported.ms / 1000).toFixed(2),
      importPeakMiB: imported.peakMiB,
      followUpSeconds: +(daemon.ms / 1000).toFixed(2),
      daemonPeakMiB: daemon.peakMiB,
      floorSeconds: +(floorMs / 1000).toFixed(2),
      ratio: +(daemon.ms / floorMs).toFixed(2),
    };
  } finally {
    // Gone before the next run starts, so runs do not overlap.
    if (sandbox) await stopSandbox(sandbox);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The floor: one token, then every receipt fetched, decoded and written, RECEIPT_CONCURRENCY at a time. */
async function fetchReceiptsBare(ready, pixIds, out) {
  mkdirSync(out, { recursive: true });
  const t = performance.now();
  const tokenRes = await fetch(ready.tokenUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'service-apikey': ready.apiKey,
      authorization: `Basic ${Buffer.from(`${ready.clientId}:${ready.clientSecret}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  });
  if (!tokenRes.ok) throw new Error(`token: ${tokenRes.status} ${await tokenRes.text()}`);
  const { access_token: token } = await tokenRes.json();
  const base = new URL(ready.url);
  const pool = new Pool(base.origin, { connections: RECEIPT_CONCURRENCY });
  let next = 0;
  const worker = async () => {
    while (next < pixIds.length) {
      const pixId = pixIds[next++];
      const res = await pool.request({ method: 'GET', path: `${base.pathname.replace(/\/$/, '')}/pix/${pixId}/receipt`, headers: { authorization: `Bearer ${token}`, 'service-apikey': ready.apiKey } });
      const body = await res.body.json();
      if (res.statusCode !== 200) throw new Error(`receipt ${pixId}: ${res.statusCode}`);
      writeFileSync(join(out, `${pixId}.pdf`), Buffer.from(body.base64, 'base64'));
    }
  };
  await Promise.all(Array.from({ length: RECEIPT_CONCURRENCY }, worker));
  await pool.close();
  return performance.now() - t;
}
