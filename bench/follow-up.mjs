// node bench/follow-up.mjs [--items 10000] [--json] — a sheet followed to the end on a local sandbox.
// Needs the build. Starts `paybatch sandbox serve` (no faults), imports and starts a sheet of `--items` payments
// (split into batches past 10,000), then measures `paybatch daemon --until-settled` (webhooks on, every item settled
// and every receipt saved) against the floor: a bare script that fetches the same receipts from the same sandbox at
// the same concurrency as paybatch (one OAuth token, GET /pix/{pixId}/receipt, decode, write the PDF). Also reports
// the import's wall time and the peak RSS of the import and of the daemon (/usr/bin/time -f %M).
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import Sqlite from 'better-sqlite3';
import { Pool } from 'undici';

const BIN = fileURLToPath(new URL('../bin/paybatch.js', import.meta.url));
/** What paybatch's receipt fetching uses (src/engine/follow-up/fetch-receipts.ts), so both sides have the same concurrency. */
const RECEIPT_CONCURRENCY = 4;
const RUN_TIMEOUT_MS = 15 * 60_000;
const run = promisify(execFile);

const { values: args } = parseArgs({ options: { items: { type: 'string', default: '10000' }, json: { type: 'boolean', default: false } } });
const ITEMS = Number(args.items);
if (!(ITEMS > 0 && ITEMS <= 200_000)) throw new Error('--items 1..200000');

const dir = mkdtempSync(join(tmpdir(), 'paybatch-bench-follow-up-'));
let sandbox;
try {
  sandbox = await startSandbox(join(dir, 'provider.db'));
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_DATA_HOME: join(dir, 'data'),
    NO_COLOR: '1',
    PAYBATCH_BASE_URL: sandbox.ready.url,
    PAYBATCH_PIX_AMOUNT_UNIT: 'cents',
    PAYBATCH_BILL_AMOUNT_UNIT: 'reais',
    PAYBATCH_TOKEN_URL: sandbox.ready.tokenUrl,
    PAYBATCH_API_KEY: sandbox.ready.apiKey,
    PAYBATCH_CLIENT_ID: sandbox.ready.clientId,
    PAYBATCH_CLIENT_SECRET: sandbox.ready.clientSecret,
    PAYBATCH_WEBHOOK_SECRET: 'bench-webhook-secret',
    PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts'),
    PAYBATCH_MAX_BATCH_TOTAL: '100000000000',
  };
  const sheet = join(dir, 'folha.csv');
  const lines = ['chave;tipo_chave;valor;descricao'];
  for (let i = 1; i <= ITEMS; i++) lines.push(`pessoa${i}@exemplo.com.br;email;${1 + (i % 900)},${String(i % 100).padStart(2, '0')};Pagamento ${i}`);
  writeFileSync(sheet, `${lines.join('\n')}\n`);

  const imported = await measured(['import', sheet, '--start', '--yes', '--json'], env);
  const importDoc = JSON.parse(imported.stdout);
  const port = await freePort();
  const daemon = await measured(
    ['daemon', '--listen', `127.0.0.1:${port}`, '--public-url', `http://127.0.0.1:${port}/webhooks`, '--interval', '1', '--until-settled', '--timeout', '14m', '--log-format', 'json'],
    env,
  );

  const ledger = new Sqlite(join(dir, 'data', 'paybatch', 'ledger.db'), { readonly: true });
  const items = ledger.prepare("SELECT status, pix_id, receipt_path FROM items WHERE original_item_id IS NULL AND attempt = 1").all();
  ledger.close();
  const paid = items.filter((i) => i.status === 'paid');
  if (paid.length !== ITEMS || paid.some((i) => !i.receipt_path)) throw new Error(`expected ${ITEMS} paid items with receipts: ${paid.length} paid, ${paid.filter((i) => i.receipt_path).length} with receipts`);

  const floorMs = await fetchReceiptsBare(sandbox.ready, paid.map((i) => i.pix_id), join(dir, 'floor'));
  const report = {
    items: ITEMS,
    batches: importDoc.batches.length,
    importSeconds: +(imported.ms / 1000).toFixed(2),
    importPeakMiB: imported.peakMiB,
    followUpSeconds: +(daemon.ms / 1000).toFixed(2),
    daemonPeakMiB: daemon.peakMiB,
    floorSeconds: +(floorMs / 1000).toFixed(2),
    ratio: +(daemon.ms / floorMs).toFixed(2),
  };
  console.log(`node bench/follow-up.mjs --items ${ITEMS}`);
  console.table([report]);
  console.log(`followed to settled with receipts / bare receipt fetching: ${report.ratio}x (goal <= 1.3x)`);
  if (args.json) console.log(JSON.stringify(report));
} finally {
  sandbox?.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}

/** Runs paybatch under /usr/bin/time: wall time, peak RSS, stdout; fails on a non-zero exit. */
async function measured(argv, env) {
  const timeFile = join(dir, 'time.txt');
  const t = performance.now();
  const { stdout } = await run('/usr/bin/time', ['-f', '%M', '-o', timeFile, process.execPath, BIN, ...argv], { env, maxBuffer: 256 * 1024 * 1024, timeout: RUN_TIMEOUT_MS });
  const ms = performance.now() - t;
  return { ms, stdout, peakMiB: +(Number(readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)) / 1024).toFixed(1) };
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

function startSandbox(state) {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--json', '--port', '0', '--state', state, '--speed', '1000', '--seed', '3'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start: ${text}`)), 30_000);
    child.stdout.on('data', (b) => {
      text += b;
      try {
        const ready = JSON.parse(text);
        clearTimeout(timer);
        resolve({ child, ready });
      } catch {
        // the ready document is not complete yet
      }
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}: ${text}`)));
  });
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
