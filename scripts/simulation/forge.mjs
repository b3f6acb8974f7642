// A Byzantine provider: correctly signed false Pix events of every kind (scenario.mjs FORGED_KINDS), written in the
// seed's dialect by the sandbox's own event builder and signed by the dialect's own proof, aimed at real items.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Sqlite from 'better-sqlite3';
import { PIX_REASONS } from '../../dist/domain/reasons.js';
import { dialectOf } from '../../dist/sandbox/dialect.js';
import { acceptedTransactionId, endToEndId, pixEvent } from '../../dist/sandbox/pix-events.js';

/** The ISPB a forger writes into end-to-end ids: not the sandbox's (99999999), so they are never the record's. */
const FORGER_ISPB = '66666666';

/**
 * The provider's own record of Pix items, read from the sandbox's state file (readable while it runs: WAL): what
 * each item is (status), what it was drawn to become (plan: paid, failed, instabilityRejection, stale,
 * instabilityReturn), its ids, amount and batch.
 */
export function providerItems(stateFile) {
  const db = new Sqlite(stateFile, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 2000');
    return db.prepare('SELECT * FROM items ORDER BY seq').all();
  } finally {
    db.close();
  }
}

/** A ledger item's state as the provider's stored status says it (the store keeps paybatch's words). */
export const recordState = (status) => ({ waiting: 'submitted', processing: 'processing', paid: 'paid', failed: 'failed', returned: 'returned' })[status] ?? status;

const SETTLED = new Set(['paid', 'failed', 'returned']);
const willFail = (p) => p.plan === 'failed' || p.plan === 'instabilityRejection';
const willPay = (p) => p.plan === 'paid' || p.plan === 'stale' || p.plan === 'instabilityReturn';

/**
 * The item a forged event of kind `f.kind` is aimed at, among the ledger's items the provider holds, in the order of
 * preference of its kind (the first list that is not empty), chosen by `f.pick`, leaving out the items of `taken`
 * (ledger ids) while others are left; null when the ledger holds none.
 * Each candidate is { item (ledger row), record (the provider's item) }.
 */
export function pickTarget(f, ledgerItems, records, taken = new Set()) {
  const byIdentifier = new Map(records.map((p) => [p.identifier, p]));
  const every = ledgerItems.flatMap((item) => (byIdentifier.has(item.identifier) ? [{ item, record: byIdentifier.get(item.identifier) }] : []));
  // One false event per item while others are left, so that what becomes of an item tells of one event.
  const fresh = every.filter((c) => !taken.has(c.item.id));
  const all = fresh.length ? fresh : every;
  const open = (c) => !SETTLED.has(c.item.status);
  const lists = {
    // Paid, for an item still processing or one the provider fails.
    'false-paid': [(c) => willFail(c.record) && open(c), (c) => willFail(c.record), (c) => c.record.status === 'processing', open],
    // Rejected for instability, for an item the provider pays.
    'false-failed': [(c) => willPay(c.record) && open(c), (c) => c.record.status === 'paid', (c) => willPay(c.record)],
    // An instability refund of a payment that stands (late: the ledger has it paid too).
    'false-refund': [(c) => c.record.plan === 'paid' && c.record.status === 'paid' && (f.moment === 'early' || c.item.status === 'paid'), (c) => c.record.plan === 'paid'],
    'wrong-amount': [() => true],
    // Ids the provider never gave, best before the payment's own news brought the real ones.
    'wrong-e2e': [(c) => willPay(c.record) && c.item.pix_id === null, (c) => willPay(c.record)],
    'foreign-identifier': [() => true],
    // Accepted for processing: must never make an item paid.
    'accepted-processing': [(c) => willFail(c.record) && open(c), open, (c) => willFail(c.record)],
  }[f.kind];
  for (const accept of [...lists, () => true]) {
    const found = all.filter(accept);
    if (found.length) return found[Math.floor(f.pick * found.length)];
  }
  return null;
}

/**
 * The forged event for a target, in the dialect's words: { eventId, body (text), claim, identifier, description }.
 * `claim`: the state it claims for the item ('paid', 'failed', 'returned', 'processing'), null when it should be
 * kept aside (an amount or key that is not the item's) or is about no item of the ledger.
 */
export function forgedEvent(f, target, { dialect, records, seed, nowMs }) {
  const d = dialectOf(dialect);
  const style = d.pixEvents;
  const record = target.record;
  const reasonOf = (code) => d.pixReason(PIX_REASONS.find((r) => r.code === code));
  const forgedIds = { pixId: f.pixId, transactionId: `${f.pixId.slice(6)}-tx`, endToEndId: endToEndId(FORGER_ISPB, nowMs, f.pixId.slice(6)) };
  const realIds = record.pix_id && record.end_to_end_id ? { pixId: record.pix_id, transactionId: acceptedTransactionId(record.pix_id), endToEndId: record.end_to_end_id } : null;
  const base = { eventId: f.eventId, balanceAfter: 1_000_000_000 - record.amount, at: nowMs, reason: null };
  let item = record;
  let outcome;
  let claim;
  let status = null;
  let description;
  switch (f.kind) {
    case 'false-paid':
      outcome = { ...base, kind: 'paid', ...((f.realIds && realIds) || forgedIds) };
      claim = 'paid';
      description = `paid (${f.realIds && realIds ? "the item's own ids" : 'forged ids'})`;
      break;
    case 'false-failed':
      outcome = { ...base, kind: 'rejected', ...(realIds ?? forgedIds), reason: reasonOf(f.reason) };
      claim = 'failed';
      description = `rejected ${f.reason}`;
      break;
    case 'false-refund':
      outcome = { ...base, kind: 'refund', ...forgedIds, reason: reasonOf(f.reason) };
      claim = 'returned';
      description = `refund ${f.reason}`;
      break;
    case 'wrong-amount': {
      let amount = record.amount + f.delta;
      if (amount <= 0) amount = record.amount + 1;
      item = { ...record, amount };
      outcome = { ...base, kind: 'paid', ...(realIds ?? forgedIds) };
      claim = null;
      description = `paid ${amount} centavos, the item is of ${record.amount}`;
      break;
    }
    case 'wrong-e2e':
      outcome = { ...base, kind: 'paid', ...forgedIds };
      claim = 'paid';
      description = 'paid with a forged Pix id and end-to-end id';
      break;
    case 'foreign-identifier': {
      const others = records.filter((p) => p.batch_id !== record.batch_id);
      if (f.variant === 'other-batch' && others.length) {
        // The real item's identifier, with the amount, key and (where the dialect shows them) ids of another batch's item.
        const other = others[Math.floor(f.other * others.length)];
        item = { ...record, id: other.id, batch_id: other.batch_id, amount: other.amount, key_norm: other.key_norm, key_type: other.key_type, to_json: other.to_json };
        description = `paid, the amount and key of another batch's item`;
      } else {
        // Another account's payment: an identifier the ledger does not hold.
        item = { ...record, identifier: f.identifier, account: `another-account-${seed}` };
        description = 'paid, an identifier of another account';
      }
      outcome = { ...base, kind: 'paid', ...forgedIds };
      claim = null;
      break;
    }
    case 'accepted-processing':
      outcome = { ...base, kind: 'accepted', ...(realIds ?? forgedIds) };
      // Where the dialect never tells acceptance its status word for it is the paid one: the processing word instead.
      status = style.accepted ? null : 'processing';
      claim = 'processing';
      description = 'accepted for processing (PROCESSING, transactionAccepted true)';
      break;
    default:
      throw new Error(`unknown forged kind ${f.kind}`);
  }
  const body = pixEvent(item, outcome, style);
  if (status !== null) body.payload.transactionStatus = status;
  return { eventId: f.eventId, text: JSON.stringify(body), claim, identifier: item.identifier, description };
}

/**
 * Delivers a forged event to the daemon's receiver with the dialect's proof of the webhook secret (as one who stole
 * the secret would); retried while the daemon is down (restarting after a kill). The HTTP status, or null.
 */
export async function deliver(port, dialect, secret, { eventId, text }) {
  const d = dialectOf(dialect);
  // Tried every 20 ms for up to 20 s: an event aimed before the daemon starts lands as soon as its receiver listens.
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const realNow = Date.now();
    const headers = d.deliveryHeaders({ secret, eventId, timestampSeconds: Math.floor(realNow / 1000), timestampMs: realNow, nonce: randomBytes(16).toString('hex'), body: text });
    try {
      const res = await fetch(`http://127.0.0.1:${port}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'paybatch-sandbox', ...headers },
        body: text,
      });
      await res.arrayBuffer();
      if (res.status < 500) return res.status;
    } catch {
      // the daemon is (re)starting
    }
    await sleep(20);
  }
  return null;
}
