// npm run bench — measures paybatch against raw baselines taken in the same run (shared machines drift, ratios less).
// Needs the build (npm run build; npm ci does it). Prints what it measured and the command to reproduce it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Sqlite from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { readSheet } from '../dist/sheet/read-sheet.js';
import { validateRows } from '../dist/sheet/validate-rows.js';
import { openLedger } from '../dist/ledger/open-ledger.js';
import { recordImport } from '../dist/ledger/import-repository.js';

const BIN = fileURLToPath(new URL('../bin/paybatch.js', import.meta.url));
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
const report = [];
const row = (name, ms, baselineName, baselineMs) =>
  report.push({ measure: name, ms: +ms.toFixed(1), baseline: baselineName, baselineMs: +baselineMs.toFixed(1), ratio: +(ms / baselineMs).toFixed(2) });

// 1. Start-up: `paybatch --version` against an empty node process, interleaved, median of 15.
{
  const node = [];
  const pb = [];
  for (let i = 0; i < 15; i++) {
    node.push(time(() => execFileSync(process.execPath, ['-e', ''])));
    pb.push(time(() => execFileSync(process.execPath, [BIN, '--version'])));
  }
  row('paybatch --version (cold start)', median(pb), "node -e ''", median(node));
}

// 2. Reading and validating a 20,000-row sheet against csv-parse alone on the same bytes.
const ROWS = 20_000;
const lines = ['chave;tipo_chave;valor;descricao'];
for (let i = 1; i <= ROWS; i++) lines.push(`pessoa${i}@exemplo.com.br;email;${1 + (i % 5000)},${String(i % 100).padStart(2, '0')};Pagamento ${i}`);
const bytes = Buffer.from(`${lines.join('\n')}\n`);
{
  const raw = [];
  const ours = [];
  for (let i = 0; i < 5; i++) {
    raw.push(time(() => parse(bytes, { delimiter: ';' })));
    ours.push(time(() => validateRows(readSheet(bytes, 'bench.csv'), { maxItemAmountCents: null })));
  }
  row(`read + validate ${ROWS} rows`, median(ours), 'csv-parse only', median(raw));
}

// 3. Writing an import of 20,000 items to the ledger against raw prepared inserts of the same rows.
{
  const dir = mkdtempSync(join(tmpdir(), 'paybatch-bench-'));
  try {
    const destination = { accountType: 'checkingAccount', branch: '0001', key: 'k', accountNumber: '1', institutionName: 'b', document: 'd', type: 'email', institution: 'i', name: 'n' };
    const items = Array.from({ length: ROWS }, (_, i) => ({ line: i + 2, identifier: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, key: `p${i}@x.com`, keyType: 'email', amountCents: 100 + i, description: `Pagamento ${i}`, sheetName: null, sheetDocument: null, destination }));
    const rawDb = new Sqlite(join(dir, 'raw.db'));
    rawDb.pragma('journal_mode = WAL');
    rawDb.pragma('synchronous = FULL');
    rawDb.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, line INTEGER, identifier TEXT UNIQUE, key TEXT, amount_cents INTEGER, description TEXT, destination_json TEXT)');
    const insert = rawDb.prepare('INSERT INTO items (line, identifier, key, amount_cents, description, destination_json) VALUES (?, ?, ?, ?, ?, ?)');
    const rawMs = time(() => rawDb.transaction(() => { for (const it of items) insert.run(it.line, it.identifier, it.key, it.amountCents, it.description, JSON.stringify(it.destination)); })());
    rawDb.close();
    const ledger = await openLedger(join(dir, 'ledger.db'));
    const oursMs = await timeAsync(async () => recordImport(ledger, { fileHash: 'h', fileName: 'bench.csv', rowCount: ROWS, batchName: 'bench', items, rejectedCount: 0, now: new Date() }));
    await ledger.close();
    row(`ledger: record import of ${ROWS} items`, oursMs, 'raw prepared inserts, one transaction', rawMs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log('npm run bench  (node bench/run.js)');
console.table(report);
if (process.argv.includes('--json')) console.log(JSON.stringify(report));
