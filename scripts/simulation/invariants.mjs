// The invariants a seed must end with, checked against the ledger, the sandbox's own records and the disk.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export const INVARIANTS = {
  'rows-imported': 'every valid sheet row is in the ledger with its amount (and its identifier when the sheet gave one); no rejected row is',
  'paid-once': 'net payments at the provider per sheet row: exactly 1 when the ledger says paid, 0 otherwise (failed for good); nobody paid twice',
  'provider-agrees': "the sandbox's /_sandbox/payments agrees with the ledger item by item; it holds no payment the ledger does not know",
  'settled-or-reported': 'every row ends paid, or failed/returned and named in an alert',
  'one-receipt': 'every paid item has exactly one receipt file, a PDF; no receipt file belongs to no item',
  'alert-once': 'every alert is raised once: nothing is named twice by alerts of the same kind',
  'ledger-check': '`paybatch ledger check --json` is clean (exit 0)',
  'bill-once': 'no bill is paid twice at the provider',
  'bill-agrees': "the ledger's bills agree with the provider's bill payments; returned bills are alerted",
  settles: 'the seed settles: nothing is left to happen within the time budget',
  'commands-finish': 'every command finishes (after kills and faults, run again as a person would)',
  harness: 'the simulation itself ran (a failure here is a bug of the simulation or of the build)',
};

/**
 * `lostBillEvents`: the bodies of the sandbox's bill events it never delivered (given up). A bill whose news was
 * only in such an event cannot agree with the provider — bill payments cannot be looked up through the API — and is
 * accepted when paybatch told a person (a scheduled bill past its date named in a bills-without-news alert) or, for
 * a return, counted in `unseen` (nothing in the API would show it).
 */
export function checkInvariants({ scenario, snapshot, payments, bills, lostBillEvents = [], ledgerCheck, receiptsDir, violation, unseen = { billReturns: 0, billsAlerted: 0 } }) {
  const { items, batches, imports } = snapshot;
  const byIdentifier = new Map(payments.payments.map((p) => [p.identifier, p]));
  const itemByIdentifier = new Map(items.map((i) => [i.identifier, i]));
  const attemptsOf = (root) => items.filter((i) => i.id === root.id || i.original_item_id === root.id).sort((a, b) => a.attempt - b.attempt);

  // rows-imported
  for (const sheet of scenario.sheets) {
    const imp = imports.find((i) => i.file_name.endsWith(sheet.file));
    const batchIds = new Set(batches.filter((b) => imp && b.import_id === imp.id).map((b) => b.id));
    const roots = new Map(items.filter((i) => batchIds.has(i.batch_id) && i.original_item_id === null).map((i) => [i.line, i]));
    sheet.rows.forEach((row, index) => {
      const line = index + 2;
      const root = roots.get(line);
      if (row.expect === 'pay') {
        if (!root) violation('rows-imported', `${sheet.file}:${line} (${row.key}) is not in the ledger`);
        else if (root.amount_cents !== row.cents) violation('rows-imported', `${sheet.file}:${line} amount ${root.amount_cents} in the ledger, ${row.cents} in the sheet`);
        else if (row.identifier && root.identifier.toLowerCase() !== row.identifier.toLowerCase()) violation('rows-imported', `${sheet.file}:${line} identifier ${root.identifier}, the sheet says ${row.identifier}`);
      } else {
        if (root) violation('rows-imported', `${sheet.file}:${line} (${row.why}) was imported as ${root.identifier}`);
        if (row.identifier && byIdentifier.has(row.identifier)) violation('paid-once', `${sheet.file}:${line} (${row.why}) was paid at the provider`);
      }
    });
  }

  // paid-once, settled-or-reported
  if (payments.paidMoreThanOnce.length) {
    violation('paid-once', `the provider paid identifiers more than once: ${payments.paidMoreThanOnce.map((p) => `${p.identifier} ×${p.paid}`).join(', ')}`);
  }
  for (const root of items.filter((i) => i.original_item_id === null)) {
    const attempts = attemptsOf(root);
    const last = attempts.at(-1);
    const net = attempts.reduce((s, a) => s + (byIdentifier.get(a.identifier)?.paid ?? 0) - (byIdentifier.get(a.identifier)?.refunded ?? 0), 0);
    const expected = last.status === 'paid' ? 1 : 0;
    const where = `row ${root.line ?? '?'} of batch #${root.batch_id} (${root.identifier})`;
    if (net !== expected) {
      const trail = attempts.map((a) => `${a.identifier.slice(0, 8)}: ledger ${a.status}, provider paid ${byIdentifier.get(a.identifier)?.paid ?? 0} refunded ${byIdentifier.get(a.identifier)?.refunded ?? 0}`).join('; ');
      violation('paid-once', `${where}: net ${net} payments at the provider, expected ${expected} (${trail})`);
    }
    if (last.status === 'paid') continue;
    if (last.status === 'failed' || last.status === 'returned') {
      if (last.alerted_at === null) violation('settled-or-reported', `${where}: ${last.status}${last.return_action ? ` (${last.return_action})` : ''} and named in no alert`);
    } else violation('settled-or-reported', `${where}: still ${last.status}`);
  }

  // provider-agrees
  for (const it of items) {
    const p = byIdentifier.get(it.identifier);
    const paid = p?.paid ?? 0;
    const refunded = p?.refunded ?? 0;
    const ok =
      it.status === 'paid' ? paid === 1 && refunded === 0
      : it.status === 'returned' ? paid === 1 && refunded === 1
      : it.status === 'failed' || it.status === 'rejected' || it.status === 'resolved' ? paid === 0
      : true; // submitted/processing: reported by settled-or-reported
    if (!ok) violation('provider-agrees', `${it.identifier} (row ${it.line ?? '?'}, attempt ${it.attempt}): ledger ${it.status}, provider paid ${paid} refunded ${refunded}`);
  }
  for (const p of payments.payments) {
    if (!itemByIdentifier.has(p.identifier)) violation('provider-agrees', `the provider paid ${p.identifier} (${p.amountCents} centavos), which the ledger does not know`);
  }

  // one-receipt
  const referenced = new Set();
  for (const it of items) {
    if (it.receipt_path) referenced.add(it.receipt_path);
    if (it.status !== 'paid') continue;
    if (!it.receipt_path) violation('one-receipt', `${it.identifier} is paid and has no receipt`);
    else if (!existsSync(it.receipt_path)) violation('one-receipt', `${it.identifier}: its receipt ${it.receipt_path} is not on disk`);
    else if (readFileSync(it.receipt_path).subarray(0, 5).toString('latin1') !== '%PDF-') violation('one-receipt', `${it.identifier}: ${it.receipt_path} is not a PDF`);
  }
  for (const file of pdfFiles(receiptsDir)) {
    // Bill documents (scheduling, payment, return: one file each) live in a profile's bills/ folder.
    if (relative(receiptsDir, file).split(sep).includes('bills')) continue;
    if (!referenced.has(file)) violation('one-receipt', `${relative(receiptsDir, file)} is the receipt of no item (a second receipt?)`);
  }

  // alert-once
  const named = new Map();
  for (const a of snapshot.alerts) {
    for (const entry of JSON.parse(a.items_json)) {
      const key = `${a.kind} ${entry.identifier}${a.kind === 'quarantined-events' ? ` ${entry.status}` : ''}`;
      named.set(key, (named.get(key) ?? 0) + 1);
    }
  }
  for (const [key, n] of named) if (n > 1) violation('alert-once', `${key} named by ${n} alerts`);

  // ledger-check
  if (ledgerCheck.code !== 0) {
    let detail = `exit ${ledgerCheck.code ?? ledgerCheck.signal}`;
    try {
      const doc = JSON.parse(ledgerCheck.stdout);
      const parts = [];
      if (doc.integrity?.length) parts.push(`integrity: ${doc.integrity.join('; ')}`);
      const open = (doc.openCalls ?? []).filter((c) => !c.settledByRetry);
      if (open.length) parts.push(`calls without outcome: ${open.map((c) => `${c.operation} ${c.subject}`).join(', ')}`);
      if (doc.strayCalls?.length) parts.push(`stray calls: ${doc.strayCalls.map((c) => `${c.operation} ${c.subject}: ${c.problem}`).join(', ')}`);
      if (doc.paidTwice?.length) parts.push(`paid twice: ${doc.paidTwice.map((p) => p.identifiers.join('+')).join(', ')}`);
      if (doc.batchMismatches?.length) parts.push(`batch totals: ${doc.batchMismatches.map((b) => `#${b.batchId}`).join(', ')}`);
      for (const [k, v] of Object.entries(doc)) {
        if (!['integrity', 'calls', 'openCalls', 'strayCalls', 'paidTwice', 'batches', 'batchMismatches', 'clean'].includes(k) && Array.isArray(v) && v.length) parts.push(`${k}: ${JSON.stringify(v).slice(0, 300)}`);
      }
      detail += `: ${parts.join('; ') || 'not clean'}`;
    } catch {
      detail += `: ${(ledgerCheck.stderr || ledgerCheck.stdout).slice(-500)}`;
    }
    violation('ledger-check', detail);
  }

  // bill-once, bill-agrees
  const providerBills = bills.bills;
  const byLine = new Map();
  for (const b of providerBills) byLine.set(b.typefulLine, [...(byLine.get(b.typefulLine) ?? []), b]);
  for (const [line, paid] of byLine) {
    if (paid.length > 1) violation('bill-once', `line ${line} paid ${paid.length} times at the provider: ${paid.map((b) => `${b.transactionId} ${b.status}`).join(', ')}`);
  }
  for (const b of providerBills) {
    const mine = snapshot.bills.find((l) => l.transaction_id === b.transactionId);
    const unresolved = snapshot.bills.find((l) => l.transaction_id === null && ['intent', 'unknown'].includes(l.status) && l.line === b.typefulLine);
    if (!mine && !unresolved) violation('bill-agrees', `the provider paid bill ${b.typefulLine} (${b.transactionId}, ${b.status}), which the ledger does not know`);
    else if (mine && mine.status !== b.status) {
      const lost = lostBillEvents.some((body) => body.includes(b.transactionId));
      if (lost && mine.status === 'scheduled' && mine.news_alerted_at !== null) unseen.billsAlerted += 1;
      else if (lost && mine.status === 'paid' && b.status === 'returned') unseen.billReturns += 1;
      else violation('bill-agrees', `bill #${mine.id} (${b.transactionId}): ledger ${mine.status}, provider ${b.status}${lost ? ' (its event was given up)' : ''}`);
    }
  }
  for (const l of snapshot.bills) {
    if (l.transaction_id && !providerBills.some((b) => b.transactionId === l.transaction_id)) violation('bill-agrees', `bill #${l.id} has transaction ${l.transaction_id}, which the provider does not know`);
    if (l.status === 'returned' && l.alerted_at === null) violation('bill-agrees', `bill #${l.id} was returned and named in no alert`);
  }
}

function pdfFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...pdfFiles(path));
    else if (e.name.endsWith('.pdf')) out.push(path);
  }
  return out;
}
