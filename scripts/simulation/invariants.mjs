// The invariants a seed must end with, checked against the ledger, the sandbox's own records and the disk.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { recordState } from './forge.mjs';

/** paybatch's default maxReprocess: new attempts for a payment unpaid for instability. */
const MAX_REPROCESS = 3;

export const INVARIANTS = {
  'rows-imported': 'every valid sheet row is in the ledger with its amount (and its identifier when the sheet gave one); no rejected row is',
  'paid-once': 'net payments at the provider per sheet row: exactly 1 when the ledger says paid, 0 otherwise (failed for good); nobody paid twice',
  'provider-agrees': "the sandbox's /_sandbox/payments agrees with the ledger item by item; it holds no payment the ledger does not know",
  'settled-or-reported': 'every row ends paid, or failed/returned and named in an alert',
  'one-receipt': 'every paid item has exactly one receipt file, a PDF (in the spec dialect, whose pages carry no Pix id, or one named in a receipts-unavailable alert); no receipt file belongs to no item, or to an item never paid',
  'record-agrees': "the ledger equals the provider's record (the sandbox's items) item by item, state, amount and ids, so in count and centavos per state; the provider holds no item under way or settled that the ledger does not",
  'final-reconciliation': "`paybatch reconcile --json` after the seed settled finds the ledger and the provider's item pages agreeing (exit 0), and the pages' count and centavos per state are the sandbox's own record",
  'disagreement-alerted': 'every correction of the ledger by the record (item_corrections) and every event kept aside (quarantined) was alerted',
  'forged-converges': "every correctly signed false event ends where the provider's record says: its item's state and ids are the record's (never paid on an event's word); one with another amount, key or identifier is never applied; one the record contradicts was corrected or set aside, and alerted",
  'reprocess-once': 'every payment the provider left unpaid for instability (returned, or rejected, for AB03/AB09/AB11/ED05) is paid again by exactly one new attempt while attempts last; no other payment gets a new attempt',
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
export function checkInvariants({
  scenario,
  snapshot,
  payments,
  bills,
  records = [],
  reconciled = null,
  forged = [],
  lostBillEvents = [],
  ledgerCheck,
  receiptsDir,
  violation,
  unseen = { billReturns: 0, billsAlerted: 0 },
  reprocessed = { returns: 0, rejections: 0, reasonUnknown: 0 },
}) {
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
    if (it.receipt_path && it.status !== 'paid' && it.status !== 'returned') violation('one-receipt', `${it.identifier} is ${it.status} and has a receipt: ${it.receipt_path}`);
    if (it.status !== 'paid') continue;
    // The spec dialect's pages never carry the Pix id: a payment whose events were all lost has none to fetch by.
    if (!it.receipt_path && scenario.dialect === 'spec' && it.pix_id === null && it.receipt_unavailable_at !== null) continue;
    if (!it.receipt_path) violation('one-receipt', `${it.identifier} is paid and has no receipt${it.pix_id ? ` (Pix id ${it.pix_id})` : ''}`);
    else if (!existsSync(it.receipt_path)) violation('one-receipt', `${it.identifier}: its receipt ${it.receipt_path} is not on disk`);
    else if (readFileSync(it.receipt_path).subarray(0, 5).toString('latin1') !== '%PDF-') violation('one-receipt', `${it.identifier}: ${it.receipt_path} is not a PDF`);
  }
  for (const file of pdfFiles(receiptsDir)) {
    // Bill documents (scheduling, payment, return: one file each) live in a profile's bills/ folder.
    if (relative(receiptsDir, file).split(sep).includes('bills')) continue;
    if (!referenced.has(file)) violation('one-receipt', `${relative(receiptsDir, file)} is the receipt of no item (a second receipt?)`);
  }

  checkRecord({ snapshot, records, reconciled, violation });
  checkForged({ snapshot, records, forged, violation });
  checkReprocess({ snapshot, records, violation, reprocessed });

  // disagreement-alerted
  for (const c of snapshot.corrections ?? []) {
    if (c.alerted_at === null) violation('disagreement-alerted', `item #${c.item_id} was corrected from ${c.claimed} to ${c.recorded} (page: ${c.remote_status}) and no alert named it`);
  }
  for (const e of snapshot.events) {
    if (e.quarantine !== null && e.alerted_at === null) violation('disagreement-alerted', `event ${e.event_id} was kept aside (${e.quarantine}) and no alert named it`);
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

const tally = (rows) => {
  const t = {};
  for (const { state, cents } of rows) {
    t[state] ??= { count: 0, cents: 0 };
    t[state].count += 1;
    t[state].cents += cents;
  }
  return Object.fromEntries(Object.entries(t).sort(([a], [b]) => a.localeCompare(b)));
};
/** A tally of `paybatch reconcile --json` ({ state: { count, cents } }) in tally()'s order and shape. */
const sorted = (t) => Object.fromEntries(Object.entries(t).sort(([a], [b]) => a.localeCompare(b)).map(([s, v]) => [s, { count: v.count, cents: v.cents }]));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const show = (t) => Object.entries(t).map(([s, v]) => `${s} ${v.count}/${v.cents}`).join(', ') || 'none';

/** record-agrees, final-reconciliation: the ledger against the provider's own record (the sandbox's items). */
function checkRecord({ snapshot, records, reconciled, violation }) {
  const { items, batches } = snapshot;
  const remoteOf = new Map(batches.map((b) => [b.id, b.remote_id]));
  const recordOf = new Map(records.map((p) => [p.identifier, p]));
  const held = new Set(items.map((i) => i.identifier));
  const sent = items.filter((i) => remoteOf.get(i.batch_id));
  for (const it of items) {
    const rec = recordOf.get(it.identifier);
    const where = `${it.identifier} (row ${it.line ?? '?'}, attempt ${it.attempt})`;
    if (!remoteOf.get(it.batch_id)) {
      if (rec && rec.status !== 'waiting') violation('record-agrees', `${where}: its batch was never sent, yet the provider has it ${rec.status}`);
      continue;
    }
    if (!rec) {
      violation('record-agrees', `${where}: ledger ${it.status}, the provider does not hold it`);
      continue;
    }
    if (rec.batch_id !== remoteOf.get(it.batch_id)) violation('record-agrees', `${where}: in batch ${remoteOf.get(it.batch_id)} in the ledger, ${rec.batch_id} at the provider`);
    if (recordState(rec.status) !== it.status) violation('record-agrees', `${where}: ledger ${it.status}, provider ${rec.status}${it.reason ? ` (ledger reason ${it.reason})` : ''}`);
    if (rec.amount !== it.amount_cents) violation('record-agrees', `${where}: ${it.amount_cents} centavos in the ledger, ${rec.amount} at the provider`);
    if ((it.status === 'paid' || it.status === 'returned') && rec.pix_id !== null) {
      if (it.pix_id !== null && it.pix_id !== rec.pix_id) violation('record-agrees', `${where}: Pix id ${it.pix_id} in the ledger, ${rec.pix_id} at the provider`);
      if (it.end_to_end_id !== null && rec.end_to_end_id !== null && it.end_to_end_id !== rec.end_to_end_id) violation('record-agrees', `${where}: end-to-end id ${it.end_to_end_id} in the ledger, ${rec.end_to_end_id} at the provider`);
    }
  }
  for (const rec of records) {
    if (!held.has(rec.identifier) && rec.status !== 'waiting') violation('record-agrees', `the provider has ${rec.identifier} ${rec.status} (${rec.amount} centavos), which the ledger does not hold`);
  }
  const ledgerTally = tally(sent.map((i) => ({ state: i.status, cents: i.amount_cents })));
  const recordTally = tally(records.filter((p) => held.has(p.identifier)).map((p) => ({ state: recordState(p.status), cents: p.amount })));
  if (!same(ledgerTally, recordTally)) violation('record-agrees', `count/centavos per state: ledger ${show(ledgerTally)}; provider ${show(recordTally)}`);

  if (reconciled === null) return;
  let doc = null;
  try {
    doc = JSON.parse(reconciled.stdout);
  } catch {
    // no document: reported below
  }
  if (reconciled.code !== 0 || !doc) {
    const diffs = (doc?.batches ?? []).flatMap((b) => b.differences.map((d) => `batch #${b.batchId} ${d.identifier}: ${d.field} ledger ${d.ledger}, provider ${d.provider}`));
    violation('final-reconciliation', `paybatch reconcile exited ${reconciled.code ?? reconciled.signal}${diffs.length ? `: ${diffs.slice(0, 6).join('; ')}${diffs.length > 6 ? ` (+${diffs.length - 6})` : ''}` : `: ${(reconciled.stderr || reconciled.stdout).slice(-400)}`}`);
    if (!doc) return;
  }
  for (const b of doc.batches) {
    const own = tally(records.filter((p) => p.batch_id === b.remoteId).map((p) => ({ state: recordState(p.status), cents: p.amount })));
    const pages = sorted(b.provider);
    const mine = sorted(b.ledger);
    if (!same(pages, own)) violation('final-reconciliation', `batch #${b.batchId}: the item pages read ${show(pages)}, the provider's record holds ${show(own)}`);
    if (!same(mine, pages)) violation('final-reconciliation', `batch #${b.batchId}: ledger ${show(mine)}, item pages ${show(pages)}`);
  }
}

/** The reasons apply-event.ts gives an event it keeps aside as it arrives. */
const ON_ARRIVAL = /^(amount |the destination key|the item's batch)/;

/**
 * forged-converges: each false event, with what became of it: `outcome` (refused, quarantined on arrival, applied,
 * no effect), `effect` as the ledger recorded it, `converged` (its item ends as the record says) and `alerted`
 * (a disagreement it caused was named by an alert; null when it caused none).
 */
function checkForged({ snapshot, records, forged, violation }) {
  const recordOf = new Map(records.map((p) => [p.identifier, p]));
  const byId = new Map(snapshot.items.map((i) => [i.id, i]));
  for (const f of forged) {
    const event = snapshot.events.find((e) => e.event_id === f.eventId);
    f.effect = event?.effect ?? null;
    f.outcome =
      f.httpStatus === null ? 'not delivered'
      : f.httpStatus >= 400 ? 'refused'
      : !event ? 'lost'
      // Kept aside on arrival (apply-event.ts disagreementOf: amount, key, a batch never started), or applied and set
      // aside later, when the item page or the receipt endpoint contradicted it (quarantineEvent rewrites the effect).
      : event.quarantine !== null && ON_ARRIVAL.test(event.quarantine) ? 'quarantined'
      : event.quarantine !== null ? 'set aside'
      : /^item /.test(event.effect) ? 'applied'
      : 'no effect';
    const where = `false event ${f.kind} (${f.description}) ${f.eventId} for ${f.identifier}`;
    if (f.outcome === 'not delivered' || f.outcome === 'lost') violation('forged-converges', `${where}: ${f.outcome} (HTTP ${f.httpStatus})`);
    if (f.claim === null && (f.outcome === 'applied' || f.outcome === 'set aside')) violation('forged-converges', `${where} was applied: ${f.effect}`);
    if (f.kind === 'accepted-processing' && /^item paid/.test(f.effect ?? '')) violation('forged-converges', `${where} made its item paid`);
    const item = byId.get(f.targetId);
    const rec = item && recordOf.get(item.identifier);
    if (!item || !rec) {
      f.converged = null;
      continue;
    }
    const idsAgree = !(item.status === 'paid' || item.status === 'returned') || rec.pix_id === null || ((item.pix_id === null || item.pix_id === rec.pix_id) && (item.end_to_end_id === null || rec.end_to_end_id === null || item.end_to_end_id === rec.end_to_end_id));
    f.converged = item.status === recordState(rec.status) && idsAgree;
    if (!f.converged) violation('forged-converges', `${where}: its item ends ${item.status} (Pix id ${item.pix_id}), the provider's record ${rec.status} (Pix id ${rec.pix_id}); effect: ${f.effect}`);
    // A claim the record contradicts, once applied, must have been corrected or set aside, and alerted.
    f.alerted = null;
    if (f.outcome === 'set aside') f.alerted = event.alerted_at !== null;
    else if (f.outcome === 'applied' && !consistent(f.claim, recordState(rec.status))) {
      const corrections = (snapshot.corrections ?? []).filter((c) => c.item_id === item.id && c.claimed === f.claim);
      f.alerted = corrections.some((c) => c.alerted_at !== null);
      if (!f.alerted) violation('forged-converges', `${where} was applied (${f.effect}), the record says ${rec.status}, and no correction or quarantine of it was alerted`);
    } else if (f.outcome === 'quarantined') f.alerted = event.alerted_at !== null;
    // Kept aside and not alerted: reported by disagreement-alerted.
  }
}

/** Whether what an event claimed can be true of a payment the record ends with: a returned payment was paid first. */
const consistent = (claim, recorded) => claim === recorded || claim === 'processing' || (claim === 'paid' && recorded === 'returned');

/** reprocess-once: new attempts exactly for the payments the provider left unpaid for instability. */
function checkReprocess({ snapshot, records, violation, reprocessed }) {
  const { items } = snapshot;
  const recordOf = new Map(records.map((p) => [p.identifier, p]));
  for (const it of items) {
    const rec = recordOf.get(it.identifier);
    if (!rec) continue;
    const root = it.original_item_id ?? it.id;
    const next = items.filter((n) => n.original_item_id === root && n.attempt === it.attempt + 1);
    const returned = rec.status === 'returned' && rec.plan === 'instabilityReturn';
    const rejected = rec.status === 'failed' && rec.plan === 'instabilityRejection';
    const where = `${it.identifier} (row ${it.line ?? '?'}, attempt ${it.attempt}; provider ${rec.status}${rec.reason ? `, ${rec.reason}` : ''})`;
    if (returned || rejected) {
      // The reason is only in the refund (or rejection) event where the pages do not show it (the spec dialect): with
      // that event lost, paybatch cannot tell instability and must not pay again on a guess, but report the item.
      const unknownReason = it.reason === null && it.return_action === null;
      const expected = it.attempt <= MAX_REPROCESS && !unknownReason ? 1 : 0;
      if (next.length !== expected) violation('reprocess-once', `${where}: ${next.length} new attempts, expected ${expected}`);
      if (unknownReason && it.alerted_at === null) violation('reprocess-once', `${where}: the reason never reached the ledger, and no alert named it`);
      if (unknownReason) reprocessed.reasonUnknown += 1;
      else if (returned) reprocessed.returns += next.length;
      else reprocessed.rejections += next.length;
    } else if (next.length) violation('reprocess-once', `${where}: paid again (${next.map((n) => n.identifier).join(', ')}) though the provider did not leave it unpaid for instability`);
  }
}
