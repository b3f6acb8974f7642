// node bench/follow-up.mjs [--items 10000] [--json] — a sheet followed to the end on a local sandbox.
// Needs the build. Starts `paybatch sandbox serve` (no faults), imports and starts a sheet of `--items` payments
// (split into batches past 10,000), then measures `paybatch daemon --until-settled` (webhooks on, every item settled
// and every receipt saved) against the floor: a bare script that fetches the same receipts from the same sandbox at
// the same concurrency as paybatch (one OAuth token, GET /pix/{pixId}/receipt, decode, write the PDF). Also reports
// the import's wall time and the peak RSS of the import and of the daemon (/usr/bin/time -f %M).
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
const RUN_TIMEOUT_MS = 15 * 60_000;

const { values: args } = parseArgs({ options: { items: { type: 'string', default: '10000' }, json: { type: 'boolean', default: false } } });
const ITEMS = Number(args.items);
if (!(ITEMS > 0 && ITEMS <= 200_000)) throw new Error('--items 1..200000');

const dir = mkdtempSync(join(tmpdir(), 'paybatch-bench-follow-up-'));
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
  const daemon = await measured(await daemonArgs('14m'), env);

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
  if (sandbox) await stopSandbox(sandbox);
  rmSync(dir, { recursive: true, force: true });
}

/** Runs paybatch under /usr/bin/time: wall time, peak RSS, stdout; fails on a non-zero exit. */
function measured(argv, env) {
  return measuredIn(argv, env, join(dir, 'time.txt'), RUN_TIMEOUT_MS);
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
