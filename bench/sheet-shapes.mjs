// node bench/sheet-shapes.mjs [rows...] [--large] [--runs N] [--shapes a,b] [--json] — `paybatch import --check` on
// sheets shaped like users' files, each whole process against its floor. Needs the build (npm run build).
// Each shape is written by a seeded generator (the same bytes every run) into a temporary folder, at each size
// (default 10000 and 300000; --large or PAYBATCH_BENCH_LARGE=1 adds 1000000), all rows valid. Then, interleaved,
// median of --runs (default 5; 3 at 1M rows):
//   CSV   `node bin/paybatch.js import <sheet> --check --json` (exit 0, every row counted) against
//         `node bench/csv-parse-floor.mjs <sheet> <delimiter>` (start node, stream csv-parse, count); goal ≥ 0.7×
//   XLSX  the same check against `node bench/exceljs-floor.mjs <workbook>` (exceljs's own streaming reader,
//         options as paybatch reads with, every cell's value touched); goal ≥ 0.8×
// One line per shape and size: the two wall times, the ratio (floor / paybatch: higher is faster; the goal is judged
// on it), the ratio of CPU times (user + system, steadier on a shared machine) and whether the goal holds. The XLSX
// shape runs 100,000 rows in place of larger sizes (a workbook is slow to write and to read).
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { cnpjFrom, cpfFrom, prng } from '../scripts/make-fixtures.mjs';

const BIN = fileURLToPath(new URL('../bin/paybatch.js', import.meta.url));
const CSV_FLOOR = fileURLToPath(new URL('./csv-parse-floor.mjs', import.meta.url));
const XLSX_FLOOR = fileURLToPath(new URL('./exceljs-floor.mjs', import.meta.url));
const XLSX_MAX_ROWS = 100_000;

const FIRST = ['João', 'Maria', 'José', 'Ana', 'Antônio', 'Conceição', 'Sebastião', 'Márcia', 'Luís', 'Fátima', 'André', 'Inês', 'Paulo', 'Carla', 'Bruno', 'Renata'];
const LAST = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Araújo', 'Gonçalves', 'Conceição', 'Lima', 'Pereira', 'Ferreira', 'Rodrigues', 'Gomes'];
const WHAT = ['Salário', 'Reembolso', 'Diária', 'Serviço', 'Comissão', 'Adiantamento', 'Prêmio', 'Frete'];
const ascii = (s) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

/** One row's values, as a generator with `rng` makes them; the shape decides how they are written. */
function rowValues(rng, i, keys, accents) {
  const pick = (xs) => xs[Math.floor(rng() * xs.length)];
  const fold = accents ? (s) => s : ascii;
  const first = fold(pick(FIRST));
  const name = `${first} ${fold(pick(LAST))}`;
  const digits = (n) => {
    let s = '';
    for (let d = 0; d < n; d++) s += Math.floor(rng() * 10);
    return s;
  };
  const type = keys[i % keys.length];
  let key;
  if (type === 'cpf') {
    // The third digit is never 9: such a CPF is no mobile number, so it needs no type column.
    const base = digits(9);
    key = cpfFrom(base[2] === '9' ? `${base.slice(0, 2)}8${base.slice(3)}` : base);
  } else if (type === 'cnpj') key = cnpjFrom(`${digits(8)}0001`);
  else if (type === 'phone') key = `119${digits(8)}`;
  else if (type === 'email') key = `${ascii(first).toLowerCase()}.${i}@exemplo.com.br`;
  else key = `${digits(8)}-${digits(4)}-4${digits(3)}-8${digits(3)}-${i.toString(16).padStart(12, '0')}`;
  // Amounts most often in the tens and hundreds, some in the thousands: R$ 0,01 – R$ 49.999,99.
  const cents = 1 + Math.floor(rng() ** 3 * 4_999_999);
  return { name, type, key, cents, what: `${fold(pick(WHAT))} ${i}`, uuid: `${digits(8)}-${digits(4)}-4${digits(3)}-a${digits(3)}-${digits(12)}` };
}

const group = (reais, mark) => String(reais).replace(/\B(?=(\d{3})+$)/g, mark);
const AMOUNTS = {
  /** 1.234,56 */ grouped: (c) => `${group(Math.floor(c / 100), '.')},${String(c % 100).padStart(2, '0')}`,
  /** 1234,56 */ comma: (c) => `${Math.floor(c / 100)},${String(c % 100).padStart(2, '0')}`,
  /** 1234.56 */ dot: (c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`,
  /** 1,234.56 */ english: (c) => `${group(Math.floor(c / 100), ',')}.${String(c % 100).padStart(2, '0')}`,
  /** R$ 1.234,56 */ currency: (c) => `R$ ${AMOUNTS.grouped(c)}`,
};
// What people type in one sheet: grouped, plain, whole reais, one decimal.
const mixedAmount = (c, i) => (i % 4 === 0 ? AMOUNTS.grouped(c) : i % 4 === 1 ? AMOUNTS.comma(c) : i % 4 === 2 ? `${Math.max(1, Math.floor(c / 100))}` : `${Math.floor(c / 100)},${Math.floor((c % 100) / 10) || 1}`);

const TYPE_WORDS = { cpf: 'CPF', cnpj: 'CNPJ', phone: 'Celular', email: 'E-mail', evp: 'Aleatória' };
const PHONE_MASK = (k) => `(${k.slice(0, 2)}) ${k.slice(2, 7)}-${k.slice(7)}`;
const CPF_MASK = (d) => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
const CNPJ_MASK = (d) => `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;

/**
 * The shapes: how users' files differ (line breaks, byte order mark, quotes, accents, encoding, delimiter, key
 * mixes, amount spellings). `line(v, i)` gives a row's cells; `quote` is which cells are quoted (all, or those that
 * need it), `encoding` how the text is stored.
 */
export const SHAPES = [
  {
    name: 'plain',
    about: 'ASCII, LF, no BOM, no quotes; e-mail/EVP/CPF keys, no type column; 1.234,56',
    eol: '\n', bom: false, encoding: 'utf-8', delimiter: ';', accents: false, keys: ['email', 'evp', 'cpf'],
    header: ['nome', 'chave', 'valor', 'descricao'],
    line: (v) => [v.name, v.key, AMOUNTS.grouped(v.cents), v.what],
  },
  {
    name: 'excel-utf8',
    about: 'BOM, CRLF, accents, quoted descriptions (";" and "" inside); CPF/phone/e-mail/EVP masked, type words',
    eol: '\r\n', bom: true, encoding: 'utf-8', delimiter: ';', accents: true, keys: ['cpf', 'email', 'phone', 'evp'],
    header: ['Nome', 'Chave Pix', 'Tipo', 'Valor (R$)', 'Descrição'],
    line: (v, i) => [v.name, v.type === 'cpf' ? CPF_MASK(v.key) : v.type === 'phone' ? PHONE_MASK(v.key) : v.key, TYPE_WORDS[v.type], AMOUNTS.grouped(v.cents), i % 3 === 0 ? `${v.what}; ref. "${i}"` : v.what],
  },
  {
    name: 'windows-1252',
    about: 'Windows-1252 (Excel pt-BR CSV), CRLF, accents; CNPJ/CPF masked with a document column; R$ 1.234,56',
    eol: '\r\n', bom: false, encoding: 'latin1', delimiter: ';', accents: true, keys: ['cnpj', 'cpf'],
    header: ['Favorecido', 'CPF/CNPJ', 'Chave', 'Tipo de chave', 'Valor', 'Histórico'],
    line: (v, i) => {
      const masked = v.type === 'cpf' ? CPF_MASK(v.key) : CNPJ_MASK(v.key);
      return [v.name, masked, masked, TYPE_WORDS[v.type], i % 2 ? AMOUNTS.currency(v.cents) : AMOUNTS.grouped(v.cents), v.what];
    },
  },
  {
    name: 'all-quoted',
    about: 'every cell quoted (LibreOffice/Google export), LF, UTF-8 accents; +55 phone/e-mail keys; 1234.56',
    eol: '\n', bom: false, encoding: 'utf-8', delimiter: ';', accents: true, keys: ['phone', 'email'], quoteAll: true,
    header: ['nome', 'chave', 'tipo_chave', 'valor', 'descricao'],
    line: (v) => [v.name, v.type === 'phone' ? `+55${v.key}` : v.key, v.type === 'phone' ? 'telefone' : 'email', AMOUNTS.dot(v.cents), v.what],
  },
  {
    name: 'english',
    about: '"," delimiter, LF, ASCII; identifier column; e-mail/EVP/CNPJ/phone; 1234.56, "1,234.56" quoted',
    eol: '\n', bom: false, encoding: 'utf-8', delimiter: ',', accents: false, keys: ['email', 'evp', 'cnpj', 'phone'],
    header: ['identifier', 'name', 'key', 'key_type', 'amount', 'description'],
    line: (v, i) => [v.uuid, v.name, v.type === 'phone' ? `+55${v.key}` : v.key, v.type, i % 2 ? AMOUNTS.english(v.cents) : AMOUNTS.dot(v.cents), v.what],
  },
  {
    name: 'mixed-keys',
    about: 'UTF-8 accents, no BOM, LF, no quotes; CPF/CNPJ/phone/e-mail/EVP digits only; 1.234,56 1234,56 1234 12,5',
    eol: '\n', bom: false, encoding: 'utf-8', delimiter: ';', accents: true, keys: ['cpf', 'cnpj', 'phone', 'email', 'evp'],
    header: ['nome', 'chave', 'tipo', 'valor', 'descrição'],
    line: (v, i) => [v.name, v.key, TYPE_WORDS[v.type], mixedAmount(v.cents, i), v.what],
  },
  {
    name: 'xlsx',
    about: 'XLSX workbook (shared strings, amounts as numbers), CPF/e-mail/EVP/phone with type words',
    xlsx: true, accents: true, keys: ['cpf', 'email', 'evp', 'phone'],
    header: ['Nome', 'Chave', 'Tipo', 'Valor', 'Descrição'],
    line: (v) => [v.name, v.key, TYPE_WORDS[v.type], v.cents / 100, v.what],
  },
];

const SEED = 27;

/** The cell as the shape writes it: quoted when the shape quotes every cell or the cell needs it. */
function cellText(cell, shape) {
  const text = String(cell);
  const needs = text.includes(shape.delimiter) || text.includes('"') || text.includes('\n');
  return shape.quoteAll || needs ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Writes `rows` rows of `shape` to `file` (the same bytes for the same shape and size). `nameOf(key, type)`, when
 * given, names each row's payee in place of a made-up name (the name the provider has for that key, say).
 */
export async function writeShape(file, shape, rows, nameOf = null) {
  // The same sheet, byte for byte, on every run and machine.
  const rng = prng(SEED);
  if (shape.xlsx) {
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: true });
    const sheet = book.addWorksheet('Pagamentos');
    sheet.addRow(shape.header).commit();
    for (let i = 0; i < rows; i++) sheet.addRow(shape.line(rowValues(rng, i, shape.keys, shape.accents), i)).commit();
    sheet.commit();
    await book.commit();
    return;
  }
  const out = createWriteStream(file);
  let buffered = shape.bom ? '\uFEFF' : '';
  const flush = async () => {
    if (!out.write(Buffer.from(buffered, shape.encoding))) await once(out, 'drain');
    buffered = '';
  };
  buffered += shape.header.map((c) => cellText(c, shape)).join(shape.delimiter) + shape.eol;
  for (let i = 0; i < rows; i++) {
    const v = rowValues(rng, i, shape.keys, shape.accents);
    if (nameOf) v.name = nameOf(v.key, v.type);
    buffered += shape.line(v, i).map((c) => cellText(c, shape)).join(shape.delimiter) + shape.eol;
    if (buffered.length > 1 << 16) await flush();
  }
  await flush();
  out.end();
  await once(out, 'finish');
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/**
 * Runs a whole process under /usr/bin/time: its wall time (what the goal is judged on) and its CPU time (user +
 * system; on a shared machine it moves less than the wall time, so its ratio is printed beside).
 */
const timed = (args, o, timeFile) => {
  const t = performance.now();
  const result = spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, process.execPath, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...o });
  const ms = performance.now() - t;
  const [user = 0, system = 0] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
  return { ms, cpuMs: (user + system) * 1000, result };
};

/** The goal of a shape's ratio (floor time / paybatch time). */
export const goalOf = (shape) => (shape.xlsx ? 0.8 : 0.7);

/** Measures every shape at every size; returns one report row per shape and size. */
export function sizesFrom(argv, env) {
  const listed = argv.filter((a) => /^\d+$/.test(a)).map(Number);
  const large = argv.includes('--large') || env.PAYBATCH_BENCH_LARGE === '1';
  return { sizes: listed.length ? listed : large ? [10_000, 300_000, 1_000_000] : [10_000, 300_000], large };
}

async function main() {
  const argv = process.argv.slice(2);
  const option = (name) => {
    const at = argv.indexOf(name);
    return at < 0 ? undefined : argv.splice(at, 2)[1];
  };
  const runsOption = option('--runs');
  const only = option('--shapes')?.split(',');
  const { sizes, large } = sizesFrom(argv, process.env);
  const shapes = only ? SHAPES.filter((s) => only.includes(s.name)) : SHAPES;
  const dir = mkdtempSync(join(tmpdir(), 'paybatch-shapes-'));
  const report = [];
  try {
    const env = { ...process.env, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir };
    execFileSync(process.execPath, [BIN, 'config', 'set', 'maxBatchTotal', '100000000000'], { env, stdio: 'ignore' });
    for (const shape of shapes) {
      // A workbook is measured at 100,000 rows in place of larger sizes.
      for (const rows of new Set(sizes.map((n) => (shape.xlsx ? Math.min(n, XLSX_MAX_ROWS) : n)))) {
        const file = join(dir, `${shape.name}-${rows}.${shape.xlsx ? 'xlsx' : 'csv'}`);
        await writeShape(file, shape, rows);
        const floorArgs = shape.xlsx ? [XLSX_FLOOR, file] : [CSV_FLOOR, file, shape.delimiter];
        const runs = Number(runsOption ?? (rows >= 1_000_000 ? 3 : 5));
        const timeFile = join(dir, 'time.txt');
        const floorMs = [];
        const checkMs = [];
        const floorCpu = [];
        const checkCpu = [];
        for (let i = 0; i < runs; i++) {
          const floor = timed(floorArgs, {}, timeFile);
          if (floor.result.status !== 0 || Number(floor.result.stdout) !== rows) throw new Error(`${shape.name}: the floor counted ${floor.result.stdout.trim()} rows, not ${rows}: ${floor.result.stderr.slice(0, 400)}`);
          floorMs.push(floor.ms);
          floorCpu.push(floor.cpuMs);
          const check = timed([BIN, 'import', file, '--check', '--json'], { env }, timeFile);
          const doc = check.result.status === 0 ? JSON.parse(check.result.stdout) : null;
          if (doc?.rows !== rows) throw new Error(`${shape.name}: --check should pass all ${rows} rows: exit ${check.result.status}, ${check.result.stdout.slice(0, 400)}${check.result.stderr.slice(0, 400)}`);
          checkMs.push(check.ms);
          checkCpu.push(check.cpuMs);
        }
        const ratio = median(floorMs) / median(checkMs);
        report.push({
          shape: shape.name,
          rows,
          MiB: +(statSync(file).size / 2 ** 20).toFixed(1),
          'check s': +(median(checkMs) / 1000).toFixed(3),
          floor: shape.xlsx ? 'exceljs stream' : 'csv-parse',
          'floor s': +(median(floorMs) / 1000).toFixed(3),
          ratio: +ratio.toFixed(2),
          'cpu ratio': +(median(floorCpu) / median(checkCpu)).toFixed(2),
          goal: `≥ ${goalOf(shape)}×`,
          met: ratio >= goalOf(shape) ? 'yes' : 'no',
        });
        rmSync(file, { force: true });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const commands = `node bench/sheet-shapes.mjs ${sizes.join(' ')}`;
  console.log(`${commands}  (paybatch: node bin/paybatch.js import <sheet> --check --json; floors: node bench/csv-parse-floor.mjs <sheet> <delimiter>, node bench/exceljs-floor.mjs <workbook>)`);
  if (!large) console.log('1,000,000-row shapes are opt-in: --large or PAYBATCH_BENCH_LARGE=1');
  for (const shape of shapes) console.log(`  ${shape.name}: ${shape.about}`);
  console.table(report);
  for (const r of report) console.log(`sheet shape ${r.shape} ${r.rows} rows: ratio ${r.ratio} (paybatch ${r['check s']} s, ${r.floor} ${r['floor s']} s; CPU time ratio ${r['cpu ratio']}), goal ${r.goal} ${r.met === 'yes' ? 'met' : 'NOT met'}`);
  if (process.argv.includes('--json')) console.log(JSON.stringify({ large, rows: report }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
