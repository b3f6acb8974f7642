// A seed's scenario: the sheets, the bills, the sandbox's faults, where paybatch is killed and which events are
// forged. Pure: the same seed always gives the same scenario (every draw comes from scripts/simulation/random.mjs).
import { createHash } from 'node:crypto';
import { cnpjCheckDigits } from '../../dist/domain/cnpj.js';
import { cpfCheckDigits } from '../../dist/domain/cpf.js';
import { checkPixKey } from '../../dist/domain/pix-key.js';
import { destinationForKey, missingByRule } from '../../dist/sandbox/key-directory.js';
import { bankSlipLine, collectionSlipLine } from './boleto.mjs';
import { stream } from './random.mjs';

/** Every kill phase of src/engine/crash-point.ts, and which paybatch command reaches it in the simulation. */
export const PHASES = ['lookup', 'import-write', 'items-chunk', 'start', 'reprocess', 'receipt-write', 'bill-intent', 'bill-outcome'];

/** The sandbox's dialects (src/sandbox/dialect.ts): seed % 3 picks one, so any run of seeds covers all three alike. */
export const DIALECTS = ['paybatch', 'spec', 'iso'];

/**
 * The kinds of correctly signed false events a Byzantine provider sends (see forgedOf), each aimed at a real item:
 * - false-paid: paid, for an item still processing or one the provider fails;
 * - false-failed: rejected for instability (AB09 and kin), for an item the provider pays;
 * - false-refund: an instability refund of an item the provider paid and keeps paid;
 * - wrong-amount: paid, for another amount;
 * - wrong-e2e: paid, with a Pix id and an end-to-end id the provider never gave;
 * - foreign-identifier: paid, for an identifier the ledger does not hold (another account's), or for a real item
 *   with the amount and key of another batch's item;
 * - accepted-processing: PROCESSING with transactionAccepted true (accepted, not paid), for an item not paid.
 */
export const FORGED_KINDS = ['false-paid', 'false-failed', 'false-refund', 'wrong-amount', 'wrong-e2e', 'foreign-identifier', 'accepted-processing'];

/**
 * Moments where the sandbox's simulated clock starts (São Paulo), each at least an hour from a bank window's edge:
 * bills are paid at once in the first, scheduled for the next morning in the second, for Monday in the third.
 */
const START_TIMES = ['2025-03-11T10:00:00-03:00', '2025-03-12T23:00:00-03:00', '2025-03-15T14:00:00-03:00'];
const AREA_CODES = ['11', '21', '31', '41', '51', '61', '71', '81', '85', '19', '27', '48', '62', '92'];
const DOMAINS = ['exemplo.com.br', 'gmail.com', 'uol.com.br', 'empresa.com'];
const DESCRIPTIONS = ['Salário', 'Comissão de vendas', 'Reembolso', 'Frete', 'Diárias de obra', 'Honorários', ''];

const maskCpf = (d) => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
const maskCnpj = (d) => `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;
const brl = (cents, grouped) => {
  const whole = String(Math.floor(cents / 100));
  return `${grouped ? whole.replace(/\B(?=(\d{3})+$)/g, '.') : whole},${String(cents % 100).padStart(2, '0')}`;
};

/** The whole scenario of a seed, as plain data (JSON): what runSeed plays and what the invariants check against. */
export function buildScenario(seed) {
  const top = stream(seed, 'top');
  const scenario = {
    seed,
    dialect: DIALECTS[seed % DIALECTS.length],
    speed: top.pick([500, 1000, 2000]),
    startTime: top.pick(START_TIMES),
    webhookAttempts: top.int(2, 8),
    staleSeconds: top.pick([60, 300, 900]),
    // The daemon runs all along (as under systemd), or is started once the sheets are imported.
    daemonDuringImport: top.chance(0.5),
    faults: faultsOf(seed),
    sheets: sheetsOf(seed),
    bills: billsOf(seed),
    kills: null,
    forged: forgedOf(seed),
  };
  scenario.kills = killsOf(seed, scenario);
  // A false paid or accepted event is aimed at an item the provider rejects: make sure there are some.
  if (scenario.forged.some((f) => f.kind === 'false-paid' || f.kind === 'accepted-processing')) scenario.faults.failed = Math.max(scenario.faults.failed, 0.15);
  scenario.digest = createHash('sha256').update(JSON.stringify(scenario)).digest('hex').slice(0, 12);
  return scenario;
}

/** The sandbox's faults at random rates; each fault is on in some seeds and off in others. */
function faultsOf(seed) {
  const r = stream(seed, 'faults');
  const on = (p, max) => (r.chance(p) ? r.rate(0.005, max) : 0);
  return {
    // Communication: retried by paybatch with the same identifiers (429 and timeouts cost real seconds: kept rare).
    http5xx: on(0.5, 0.08),
    reset: on(0.4, 0.05),
    lostResponse: on(0.5, 0.06),
    r429: on(0.15, 0.015),
    timeout: on(0.1, 0.01),
    // Webhooks: duplicated, reordered, refused (and lost once the attempts run out).
    dupWebhook: on(0.6, 0.4),
    reorderWebhook: on(0.6, 0.4),
    webhookDown: on(0.6, 0.5),
    // Items: stale, returned for instability (reprocessed), rejected.
    stale: on(0.3, 0.1),
    instabilityReturn: on(0.75, 0.3),
    failed: on(0.5, 0.12),
    billReturn: on(0.4, 0.5),
    // Rejected for instability of the scheme (AB03, AB09, AB11, ED05): paid again once the item page shows it.
    instabilityRejection: on(0.4, 0.1),
  };
}

export function faultSpec(faults) {
  return Object.entries(faults)
    .filter(([, rate]) => rate > 0)
    .map(([name, rate]) => `${name}=${rate}`)
    .join(',');
}

/** One or two sheets of tens of rows: valid keys of every type, and now and then rows that must not be paid. */
function sheetsOf(seed) {
  const r = stream(seed, 'sheets');
  const used = new Set();
  const count = r.chance(0.2) ? 2 : 1;
  const sheets = [];
  for (let s = 0; s < count; s++) {
    const rows = [];
    const size = r.int(3, 15);
    for (let i = 0; i < size; i++) rows.push(validRow(r, used));
    // A key paid twice in one sheet, for another amount: both rows are paid.
    if (rows.length > 2 && r.chance(0.3)) {
      const twin = r.pick(rows);
      rows.push({ ...twin, cents: twin.cents + r.int(1, 500), identifier: null, description: 'Segunda parcela' });
    }
    // Rows that must never be paid: a key that does not exist, another person's document, an invalid CPF.
    if (r.chance(0.3)) rows.push({ key: `nobody.${r.digits(5)}@${r.pick(DOMAINS)}`, type: 'email', cents: r.int(1000, 90000), expect: 'rejected', why: 'key does not exist' });
    if (r.chance(0.2)) {
      const row = cpfRow(r, used);
      const base = r.digits(8) + '1';
      rows.push({ ...row, document: maskCpf(base + cpfCheckDigits(base)), expect: 'rejected', why: 'document of another person' });
    }
    if (r.chance(0.2)) {
      const base = r.digits(9);
      const good = cpfCheckDigits(base);
      const bad = String((Number(good[1]) + 1) % 10);
      rows.push({ key: maskCpf(base + good[0] + bad), type: 'cpf', cents: r.int(1000, 90000), expect: 'rejected', why: 'invalid CPF' });
    }
    const ordered = r.shuffle(rows).map((row) => ({
      description: r.pick(DESCRIPTIONS),
      identifier: r.chance(0.3) ? r.uuid() : null,
      named: r.chance(0.5),
      grouped: r.chance(0.5),
      expect: 'pay',
      ...row,
    }));
    sheets.push({ file: `folha-${s + 1}.csv`, rows: ordered });
  }
  return sheets;
}

function fresh(r, used, make) {
  for (;;) {
    const { key, type } = make();
    const check = checkPixKey(key, type);
    if (!check.valid || used.has(check.normalized) || missingByRule(check.normalized, type)) continue;
    used.add(check.normalized);
    return { key, type, normalized: check.normalized };
  }
}

function cpfRow(r, used) {
  const k = fresh(r, used, () => {
    const base = r.digits(9);
    const cpf = base + cpfCheckDigits(base);
    return { key: r.chance(0.5) ? maskCpf(cpf) : cpf, type: 'cpf' };
  });
  return { ...k, cents: amount(r), document: r.chance(0.3) ? maskCpf(k.normalized) : null };
}

function amount(r) {
  return r.chance(0.6) ? r.int(10, 3000) * 100 : r.int(100, 500000);
}

function validRow(r, used) {
  const kind = r.pick(['cpf', 'cpf', 'email', 'email', 'phone', 'evp', 'cnpj']);
  if (kind === 'cpf') return cpfRow(r, used);
  const k = fresh(r, used, () => {
    switch (kind) {
      case 'email':
        return { key: `pessoa.${r.hex(6)}@${r.pick(DOMAINS)}`, type: 'email' };
      case 'phone':
        return { key: `(${r.pick(AREA_CODES)}) 9${r.digits(4)}-${r.digits(4)}`, type: 'phone' };
      case 'evp':
        return { key: r.uuid(), type: 'evp' };
      default: {
        const base = `${r.digits(8)}0001`;
        return { key: maskCnpj(base + cnpjCheckDigits(base)), type: 'cnpj' };
      }
    }
  });
  return { ...k, cents: amount(r), document: kind === 'cnpj' && r.chance(0.5) ? maskCnpj(k.normalized) : null };
}

/** The CSV text of a sheet (UTF-8, `;`, Brazilian decimals), with the optional columns people use. */
export function sheetCsv(sheet) {
  const lines = ['chave;tipo_chave;valor;descricao;identificador;nome;documento'];
  for (const row of sheet.rows) {
    const owner = row.expect === 'pay' && row.named ? destinationForKey(row.normalized, row.type).name : '';
    lines.push([row.key, row.type, brl(row.cents, row.grouped), row.description ?? '', row.identifier ?? '', owner, row.document ?? ''].join(';'));
  }
  return `${lines.join('\n')}\n`;
}

/** Up to three bills: bank slips and utility bills, some of them returned by their beneficiary (code ending 77NN). */
function billsOf(seed) {
  const r = stream(seed, 'bills');
  const count = r.pick([0, 0, 0, 1, 1, 2, 3]);
  const bills = [];
  const tails = new Set();
  while (bills.length < count) {
    const scripted = r.chance(0.2);
    const tail = scripted ? `77${String(r.int(1, 21)).padStart(2, '0')}` : r.digits(4);
    if (tail === '0404' || (!scripted && tail.startsWith('77')) || tails.has(tail)) continue;
    tails.add(tail);
    const cents = r.int(1000, 250000);
    const { line, barcode } = r.chance(0.6)
      ? bankSlipLine({ bank: r.pick(['237', '341', '001', '104']), dueDate: new Date(Date.UTC(2025, 2, 11 + r.int(-8, 20))).toISOString().slice(0, 10), cents, free: r.digits(21) + tail })
      : collectionSlipLine({ segment: r.pick([2, 3]), cents, company: r.digits(4), free: r.digits(21) + tail });
    bills.push({ line, barcode, cents, scriptedReturn: scripted });
  }
  return bills;
}

/**
 * Where paybatch is killed: phases drawn for each command, each with the count of its call that kills. A kill that
 * the run never reaches (a 3rd chunk of a one-chunk batch) simply does not happen; the report counts the kills
 * that landed, by phase.
 */
function killsOf(seed, scenario) {
  const r = stream(seed, 'kills');
  const keys = Math.min(...scenario.sheets.map((s) => new Set(s.rows.filter((x) => x.expect !== 'rejected' || x.why !== 'invalid CPF').map((x) => x.key)).size));
  const importKill = () =>
    r.pick([
      () => `lookup:${r.int(1, Math.max(1, keys))}`,
      () => 'import-write:1',
      () => `items-chunk:${r.int(1, 2)}`,
      () => 'start:1',
    ])();
  const imports = [];
  const n = r.pick([0, 1, 1, 2]);
  for (let i = 0; i < n; i++) imports.push(importKill());
  const bills = scenario.bills.length && r.chance(0.5) ? [`${r.pick(['bill-intent', 'bill-outcome'])}:${r.int(1, scenario.bills.length)}`] : [];
  const daemon = [];
  const d = r.pick([0, 1, 1, 1, 2]);
  for (let i = 0; i < d; i++) {
    daemon.push(
      r.pick([
        () => `receipt-write:${r.int(1, 12)}`,
        () => `receipt-write:${r.int(1, 3)}`,
        () => `reprocess:${r.int(1, 2)}`,
        () => `reprocess:1`,
        () => `items-chunk:${r.int(1, 2)}`,
        () => 'start:1',
      ])(),
    );
  }
  return { imports, bills, daemon };
}

/**
 * Correctly signed false events (FORGED_KINDS), each kind sent in some seeds and not others, at a moment drawn for
 * it: `early` right after the sheets are in (items still under way), `late` once the items settled. `pick` in [0, 1)
 * chooses the target among the items that fit the kind (run-seed.mjs pickTarget); ids are the forger's own.
 */
function forgedOf(seed) {
  const r = stream(seed, 'forged');
  const forged = [];
  for (const kind of FORGED_KINDS) {
    if (!r.chance(0.4)) continue;
    const f = { kind, moment: r.pick(['early', 'early', 'late']), pick: r.next(), eventId: `forged-${r.hex(16)}`, pixId: `FORGED${r.hex(20)}` };
    if (kind === 'false-paid') f.realIds = r.chance(0.5);
    if (kind === 'false-failed') f.reason = r.pick(['AB09', 'AB09', 'AB03', 'AB11', 'ED05']);
    // A false refund is mostly of a payment that stands (late); early, the payment may not be made yet.
    if (kind === 'false-refund') Object.assign(f, { reason: r.pick(['AB03', 'AB03', 'AB09', 'ED05']), moment: r.chance(0.3) ? 'early' : 'late' });
    if (kind === 'wrong-amount') f.delta = r.pick([-1, 1, 100, -100, 99_999]);
    if (kind === 'foreign-identifier') {
      f.variant = r.pick(['unknown', 'unknown', 'other-batch']);
      f.identifier = r.uuid();
      f.other = r.next();
    }
    forged.push(f);
  }
  return forged;
}
