// node bench/sheet-stream.mjs [rows...] [--json] — `paybatch import --check` at flat memory, and its speed.
// Needs the build (npm run build). For each size (default 10000 100000 1000000) it writes a sheet of valid payments
// (e-mail, CPF, phone and random keys, Brazilian amounts, quoted descriptions) ending in one invalid row, then:
//   1. the offline reject, whole process: `node bin/paybatch.js import <sheet> --check --json` (exit 3, the bad row
//      named) against `node bench/csv-parse-floor.mjs <sheet>` (start node, stream csv-parse, count), each with its
//      peak RSS (/usr/bin/time -f %M);
//   2. rows/s of streamSheet + rowValidator (what --check runs) against a bare csv-parse stream over the same file,
//      interleaved in this process after one warm-up pass each, median of 3 (of 1 at 1M rows): shared machines drift, the ratio less.
import { execFileSync, spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse';
import { cpfFrom } from '../scripts/make-fixtures.mjs';
import { streamSheet } from '../dist/sheet/read-sheet.js';
import { rowValidator } from '../dist/sheet/validate-rows.js';

const BIN = fileURLToPath(new URL('../bin/paybatch.js', import.meta.url));
const sizes = process.argv.slice(2).filter((a) => !a.startsWith('--')).map(Number).filter((n) => n > 0);
const FLOOR = fileURLToPath(new URL('./csv-parse-floor.mjs', import.meta.url));
const SIZES = sizes.length ? sizes : [10_000, 100_000, 1_000_000];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function writeSheet(file, rows) {
  const out = createWriteStream(file);
  const write = async (text) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('\uFEFFNome;Chave;Tipo;Valor;Descrição\r\n');
  for (let i = 0; i < rows; i++) {
    const n = String(100_000_000 + i);
    const amount = `${1 + (i % 4_999)},${String(i % 100).padStart(2, '0')}`;
    switch (i % 4) {
      case 0: await write(`João ${i};${cpfFrom(n.slice(0, 9))};cpf;${amount};Salário ${i}\r\n`); break;
      case 1: await write(`Ana ${i};ana.${i}@exemplo.com.br;email;${amount};"Reembolso; item ${i}"\r\n`); break;
      case 2: await write(`Zé ${i};(11) 9${n.slice(1, 5)}-${n.slice(5, 9)};celular;${amount};Diária ${i}\r\n`); break;
      default: await write(`Bia ${i};7c1e2d3f-4a5b-4c6d-8e7f-${i.toString(16).padStart(12, '0')};aleatoria;${amount};Serviço ${i}\r\n`);
    }
  }
  await write('Ninguém;not-a-key;email;12,34;the one invalid row\r\n');
  out.end();
  await once(out, 'finish');
}

async function bareCsvParse(file) {
  let records = 0;
  const parser = createReadStream(file, { highWaterMark: 256 * 1024 }).pipe(parse({ delimiter: ';', relax_column_count: true, relax_quotes: true }));
  parser.on('data', () => void records++);
  await once(parser, 'end');
  return records - 1;
}

async function readValidate(file) {
  let valid = 0;
  let invalid = 0;
  const { rowCount } = await streamSheet(() => createReadStream(file, { highWaterMark: 256 * 1024 }), file, (head) => {
    const validate = rowValidator(head, { maxItemAmountCents: null });
    return (row) => {
      if (validate(row).valid !== null) valid++;
      else invalid++;
    };
  });
  if (invalid !== 1 || valid + invalid !== rowCount) throw new Error(`expected one invalid row: ${valid} valid, ${invalid} invalid of ${rowCount}`);
  return rowCount;
}

const timed = async (fn) => {
  const t = performance.now();
  const rows = await fn();
  return { rows, ms: performance.now() - t };
};

const dir = mkdtempSync(join(tmpdir(), 'paybatch-sheet-bench-'));
const report = [];
try {
  const env = { ...process.env, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir };
  execFileSync(process.execPath, [BIN, 'config', 'set', 'maxBatchTotal', '100000000000'], { env, stdio: 'ignore' });
  for (const rows of SIZES) {
    const file = join(dir, `sheet-${rows}.csv`);
    await writeSheet(file, rows);
    const timeOut = join(dir, 'time.txt');
    const floorMs = [];
    const checkMs = [];
    let peakMiB = 0;
    let floorPeakMiB = 0;
    for (let i = 0; i < (rows >= 1_000_000 ? 1 : 3); i++) {
      floorMs.push((await timed(async () => Number(execFileSync('/usr/bin/time', ['-f', '%M', '-o', timeOut, process.execPath, FLOOR, file], { encoding: 'utf8' })))).ms);
      floorPeakMiB = Math.max(floorPeakMiB, Number(readFileSync(timeOut, 'utf8').trim().split('\n').at(-1)) / 1024);
      const t = performance.now();
      const check = spawnSync('/usr/bin/time', ['-f', '%M', '-o', timeOut, process.execPath, BIN, 'import', file, '--check', '--json'], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      checkMs.push(performance.now() - t);
      const doc = JSON.parse(check.stdout);
      if (check.status !== 3 || doc.error?.problems?.length !== 1 || doc.error.problems[0].line !== rows + 2) {
        throw new Error(`--check should reject the sheet naming line ${rows + 2} only: exit ${check.status}, ${check.stdout.slice(0, 300)}`);
      }
      peakMiB = Math.max(peakMiB, Number(readFileSync(timeOut, 'utf8').trim().split('\n').at(-1)) / 1024);
    }

    // One unmeasured pass of each first, so the JIT has compiled both before the clock runs.
    await bareCsvParse(file);
    await readValidate(file);
    const bare = [];
    const ours = [];
    for (let i = 0; i < (rows >= 1_000_000 ? 1 : 3); i++) {
      bare.push((await timed(() => bareCsvParse(file))).ms);
      ours.push((await timed(() => readValidate(file))).ms);
    }
    const bareRate = rows / (median(bare) / 1000);
    const oursRate = rows / (median(ours) / 1000);
    report.push({
      rows,
      'check peak RSS MiB': +peakMiB.toFixed(1),
      'csv-parse peak RSS MiB': +floorPeakMiB.toFixed(1),
      'check wall s': +(median(checkMs) / 1000).toFixed(2),
      'csv-parse process s': +(median(floorMs) / 1000).toFixed(2),
      'whole-process ratio': +(median(floorMs) / median(checkMs)).toFixed(2),
      'read+validate rows/s': Math.round(oursRate),
      'bare csv-parse stream rows/s': Math.round(bareRate),
      'read+validate ratio': +(oursRate / bareRate).toFixed(2),
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`node bench/sheet-stream.mjs ${SIZES.join(' ')}`);
console.table(report);
if (process.argv.includes('--json')) console.log(JSON.stringify(report));
