import { sql, type ExpressionBuilder } from 'kysely';
import type { BillRow } from './bill-repository.js';
import { ledgerTime } from './ledger-clock.js';
import type { Ledger } from './ledger.js';
import type { Database } from './schema.js';
import { awaitingRecord } from './work-left.js';

/**
 * A row an alert names: an item, a bill or a quarantined event. `ref` is the row marked once named (an item or bill
 * id, or an event id); the rest is what the alert shows.
 */
export interface ReportRow {
  readonly ref: number | string;
  readonly alertedAt: string | null;
  readonly identifier: string;
  readonly batch: string;
  readonly line: number | null;
  readonly key: string;
  readonly amountCents: number;
  /** The status word, or for rows without one what happened, in English. */
  readonly status: string;
  /** The provider's reason for the status (a Pix rejection or return, a bill's return), as it gave it; null: none given. */
  readonly reason?: string | null;
  /** A bill return's meaning as the ledger recorded it (null: none); present only on a bill's return. */
  readonly returnMeaning?: string | null;
  readonly lastUpdate: string;
  readonly recipient: string | null;
}

/** What an alert marks on the rows it names, so that each is named once. */
export type ReportMark =
  | { readonly table: 'items'; readonly column: 'alerted_at' | 'receipt_unavailable_at' }
  | { readonly table: 'bills'; readonly column: 'alerted_at' | 'news_alerted_at' }
  | { readonly table: 'webhook_events'; readonly column: 'alerted_at' }
  | { readonly table: 'item_corrections'; readonly column: 'alerted_at' }
  | { readonly table: 'record_differences'; readonly column: 'alerted_at' }
  | { readonly table: 'stray_batches'; readonly column: 'alerted_at' }
  | { readonly table: 'batches'; readonly column: 'refusal_alerted_at' };

/**
 * Sent items of started batches still waiting for news, each last updated no earlier than its batch's start: items
 * added days before (a batch started by hand later, or on its `--pay-on` day) have been waiting only since then.
 * An outcome only an event gave, which the provider's item pages do not show, is still waiting for the record.
 */
export async function itemsAwaitingNews(ledger: Ledger): Promise<ReportRow[]> {
  const rows = await ledger.all(
    baseQuery(ledger)
      .select(['batches.started_at', 'items.record_state'])
      .where(awaitingRecord)
      .where('batches.status', '=', 'started')
      .orderBy('items.id'),
  );
  return rows.map((r) => {
    const row = reportRow(r);
    const lastUpdate = r.started_at !== null && r.started_at > r.updated_at ? r.started_at : r.updated_at;
    if (r.status === 'submitted' || r.status === 'processing') return { ...row, lastUpdate };
    // An event's word the record does not show yet: the row says so in one note, its reason inside it.
    const status = `${r.status}${r.reason ? `: ${r.reason}` : ''} (an event's word; the provider's item pages show ${r.record_state ?? 'nothing'})`;
    return { ...row, status, reason: null, lastUpdate };
  });
}

/**
 * An unpaid item that will not be paid again: for a final reason, out of reprocess attempts, or with no reason ever
 * given since before `undecidedBefore`.
 */
function notPaidAgain(o: { maxReprocess: number; undecidedBefore: Date }) {
  return (eb: ExpressionBuilder<Database, 'items' | 'batches'>) =>
    eb.or([
      eb('items.return_action', '=', 'final'),
      eb('items.attempt', '>', o.maxReprocess),
      eb.and([eb('items.return_action', 'is', null), eb('items.status_changed_at', '<', o.undecidedBefore.toISOString())]),
    ]);
}

/**
 * Returns no alert has named, that will not be paid again: for a final reason, out of attempts, or with no reason
 * ever given since before `undecidedBefore` (item pages only, no refund event saying why).
 */
export async function finalReturnsToReport(ledger: Ledger, o: { maxReprocess: number; undecidedBefore: Date }): Promise<ReportRow[]> {
  return itemRows(ledger, (q) =>
    q
      .where('items.status', '=', 'returned')
      .where('items.alerted_at', 'is', null)
      .where(notPaidAgain(o)),
  );
}

/** Instability returns an event reported before `before` that the provider's pages have not confirmed, not yet named. */
export async function unconfirmedReturnsToReport(ledger: Ledger, before: Date): Promise<ReportRow[]> {
  return itemRows(ledger, (q) =>
    q
      .where('items.status', '=', 'returned')
      .where('items.return_action', '=', 'reprocess')
      .where('items.return_confirmed_at', 'is', null)
      .where('items.alerted_at', 'is', null)
      .where('items.status_changed_at', '<', before.toISOString()),
  );
}

/**
 * Failed payments no alert has named, as the provider's item pages show them (an event's word alone waits for them):
 * for a final reason, out of reprocess attempts, or with no reason ever given since before `undecidedBefore` (a
 * failure for instability is paid again instead).
 */
export async function failuresToReport(ledger: Ledger, o: { maxReprocess: number; undecidedBefore: Date }): Promise<ReportRow[]> {
  return itemRows(ledger, (q) =>
    q
      .where('items.status', '=', 'failed')
      .where('items.record_state', '=', 'failed')
      .where('items.alerted_at', 'is', null)
      .where(notPaidAgain(o)),
  );
}

/** Items paid before `before` for which no Pix id was ever given (so no receipt can be fetched), not yet reported. */
export async function paidWithoutPixIdToReport(ledger: Ledger, before: Date): Promise<ReportRow[]> {
  return itemRows(ledger, (q) =>
    q
      .where('items.status', '=', 'paid')
      .where('items.pix_id', 'is', null)
      .where('items.receipt_unavailable_at', 'is', null)
      .where('items.status_changed_at', '<', before.toISOString()),
  );
}

/** Items the provider's own record corrected (an event had claimed another state), each correction named once. */
export async function correctionsToReport(ledger: Ledger): Promise<ReportRow[]> {
  const rows = await ledger.all(
    baseQuery(ledger)
      .innerJoin('item_corrections as c', 'c.item_id', 'items.id')
      .select(['c.id as correctionId', 'c.claimed', 'c.recorded', 'c.remote_status as recordWord', 'c.corrected_at'])
      .where('c.alerted_at', 'is', null)
      .orderBy('c.id'),
  );
  return rows.map((r) => ({
    ...reportRow(r),
    ref: r.correctionId,
    alertedAt: null,
    status: `an event said ${r.claimed}; the provider's record shows ${r.recorded} (${r.recordWord}): now ${r.status}`,
    lastUpdate: r.corrected_at,
  }));
}

/** What the comparison of settled batches with their item pages found, that no alert has named yet. */
export async function recordDifferencesToReport(ledger: Ledger): Promise<ReportRow[]> {
  const rows = await ledger.all(
    ledger.db
      .selectFrom('record_differences as d')
      .innerJoin('batches', 'batches.id', 'd.batch_id')
      .leftJoin('items', 'items.identifier', 'd.identifier')
      .select(['d.id', 'd.identifier', 'd.line', 'd.field', 'd.ledger_value', 'd.provider_value', 'd.found_at', 'batches.name as batchName', 'items.key', 'items.amount_cents', 'items.recipient_name'])
      .where('d.alerted_at', 'is', null)
      .orderBy('d.id'),
  );
  return rows.map((d) => ({
    ref: d.id,
    alertedAt: null,
    identifier: d.identifier,
    batch: d.batchName,
    line: d.line,
    key: d.key ?? '',
    amountCents: d.amount_cents ?? 0,
    status: `${d.field}: the ledger has ${d.ledger_value ?? 'nothing'}; the provider's item pages show ${d.provider_value ?? 'nothing'}`,
    lastUpdate: d.found_at,
    recipient: d.recipient_name,
  }));
}

/** Quarantined webhook events that no alert has named yet. */
export async function quarantinedEventsToReport(ledger: Ledger): Promise<ReportRow[]> {
  return (
    await ledger.all(ledger.db.selectFrom('webhook_events').selectAll().where('quarantine', 'is not', null).where('alerted_at', 'is', null).orderBy('received_at'))
  ).map((e) => {
    const payload = ((JSON.parse(e.payload_json) as { payload?: Record<string, unknown> }).payload ?? {}) as Record<string, unknown>;
    return {
      ref: e.event_id,
      alertedAt: null,
      identifier: typeof payload['identifier'] === 'string' ? payload['identifier'] : `event:${e.event_id}`,
      batch: 'webhook events',
      line: null,
      key: '',
      amountCents: typeof payload['amount'] === 'number' ? payload['amount'] : 0,
      status: `quarantined event ${e.event_id}: ${e.quarantine}`,
      lastUpdate: e.received_at,
      recipient: null,
    };
  });
}

/** Bills returned by their beneficiary that no alert has named yet. */
export async function returnedBillsToReport(ledger: Ledger): Promise<ReportRow[]> {
  return (await ledger.all(ledger.db.selectFrom('bills').selectAll().where('status', '=', 'returned').where('alerted_at', 'is', null).orderBy('id')))
    .map((b) => ({ ...billRow(b, { alertedAt: b.alerted_at, status: 'returned', lastUpdate: b.returned_at ?? b.updated_at }), reason: b.return_reason, returnMeaning: b.return_meaning }));
}

/**
 * Bills still without the provider's news that no alert has named: a payment whose outcome is not known (a lost
 * answer, a run stopped mid-call) since before `unknownBefore`, or a scheduled one whose settle date is before
 * `today` (São Paulo). Bill payments cannot be looked up through the API, so only the provider's statement tells.
 */
export async function billsWithoutNewsToReport(ledger: Ledger, o: { unknownBefore: string; today: string }): Promise<ReportRow[]> {
  return (
    await ledger.all(
      ledger.db
        .selectFrom('bills')
        .selectAll()
        .where('news_alerted_at', 'is', null)
        .where((eb) =>
          eb.or([
            eb.and([eb('status', 'in', ['intent', 'unknown']), eb('updated_at', '<', o.unknownBefore)]),
            eb.and([eb('status', '=', 'scheduled'), eb('settle_date', '<', o.today)]),
          ]),
        )
        .orderBy('id'),
    )
  ).map((b) => {
    const status = b.status === 'scheduled' ? `scheduled for ${b.settle_date}, no word of its payment` : b.status === 'intent' ? 'sent, outcome never recorded' : 'outcome unknown';
    return billRow(b, { alertedAt: b.news_alerted_at, status, lastUpdate: b.updated_at });
  });
}

/** A bill as an alert lists it: by its transaction (or ledger number), its line as the key. */
function billRow(b: BillRow, o: { alertedAt: string | null; status: string; lastUpdate: string }): ReportRow {
  return {
    ref: b.id,
    alertedAt: o.alertedAt,
    identifier: b.transaction_id ?? `bill:${b.id}`,
    batch: 'bills',
    line: null,
    key: b.line,
    amountCents: b.amount_paid_cents ?? b.amount_cents,
    status: o.status,
    lastUpdate: o.lastUpdate,
    recipient: b.beneficiary,
  };
}

async function itemRows(ledger: Ledger, where: (q: ReturnType<typeof baseQuery>) => ReturnType<typeof baseQuery>): Promise<ReportRow[]> {
  return (await ledger.all(where(baseQuery(ledger)).orderBy('items.id'))).map(reportRow);
}

function reportRow(r: BaseRow): ReportRow {
  return {
    ref: r.id,
    alertedAt: r.alerted_at,
    identifier: r.identifier,
    batch: r.batchName,
    line: r.line,
    key: r.key,
    amountCents: r.amount_cents,
    status: r.status,
    reason: r.reason || null,
    lastUpdate: r.updated_at,
    recipient: r.recipient_name,
  };
}

type BaseRow = Awaited<ReturnType<ReturnType<typeof baseQuery>['executeTakeFirstOrThrow']>>;

function baseQuery(ledger: Ledger) {
  return ledger.db
    .selectFrom('items')
    .innerJoin('batches', 'batches.id', 'items.batch_id')
    .select(['items.id', 'items.alerted_at', 'items.identifier', 'batches.name as batchName', 'items.line', 'items.key', 'items.amount_cents', 'items.status', 'items.reason', 'items.updated_at', 'items.recipient_name']);
}


/** Records an alert naming `rows` and marks each row, in one transaction; returns the alert's id. */
/**
 * How long the sending of an alert is claimed for, by the ledger's clock: sending ends within about 11 s, so an
 * alert whose claim ran out is one no live daemon is sending (its sender died, paused or was cut off).
 */
export const SEND_CLAIM_MS = 30_000;

/** An alert's sending as claimed: only the claim's holder records what the channels answered (recordAlertChannels). */
export interface AlertSend {
  readonly alertId: number;
  readonly token: number;
}

/** Records an alert and marks the rows it names, in one transaction, the alert's sending claimed by this daemon. */
export async function recordAlert(
  ledger: Ledger,
  o: { kind: string; title: string; summary: string; rows: readonly ReportRow[]; itemsJson: string; mark: ReportMark | null; at: Date },
): Promise<AlertSend> {
  const at = o.at.toISOString();
  return ledger.transaction(async (tx) => {
    const alert = await tx.first(
      tx.db.insertInto('alerts').values({
        kind: o.kind,
        fingerprint: o.rows.map((i) => i.identifier).sort().join(','),
        title: o.title,
        summary: o.summary,
        items_json: o.itemsJson,
        created_at: at,
        last_sent_at: at,
        channels_json: null,
        acked_at: null,
        send_token: 1,
        send_until: ledgerTime(tx, o.at, SEND_CLAIM_MS),
      }).returning('id'),
    );
    const mark = o.mark;
    const key = mark?.table === 'webhook_events' ? 'event_id' : 'id';
    for (const row of mark ? o.rows : []) {
      await tx.run(sql`UPDATE ${sql.table(mark!.table)} SET ${sql.ref(mark!.column)} = ${at} WHERE ${sql.ref(key)} = ${row.ref}`);
    }
    return { alertId: alert!.id, token: 1 };
  });
}

/**
 * Open alerts with no channel result whose sending claim ran out by the ledger's clock: the daemon that raised each
 * stopped, paused or was cut off before it recorded what the channels said. (An alert of an older paybatch, with no
 * claim, counts once it is older than the claim.)
 */
export async function unsentAlerts(ledger: Ledger, hostNow: Date): Promise<{ id: number; kind: string; title: string; summary: string; itemsJson: string; createdAt: string; token: number }[]> {
  const now = ledgerTime(ledger, hostNow);
  const rows = await ledger.all(
    ledger.db.selectFrom('alerts').select(['id', 'kind', 'title', 'summary', 'items_json', 'created_at', 'send_token'])
      .where('channels_json', 'is', null).where('acked_at', 'is', null)
      .where((eb) => eb.or([eb('send_until', '<', now), eb.and([eb('send_until', 'is', null), eb('created_at', '<', ledgerTime(ledger, hostNow, -SEND_CLAIM_MS))])]))
      .orderBy('id'),
  );
  return rows.map((r) => ({ id: r.id, kind: r.kind, title: r.title, summary: r.summary, itemsJson: r.items_json, createdAt: r.created_at, token: Number(r.send_token) }));
}

/** Claims the sending of an unsent alert again, for this daemon; null when another daemon claimed it first. */
export async function claimAlertSend(ledger: Ledger, alert: { id: number; token: number }, hostNow: Date): Promise<AlertSend | null> {
  const token = alert.token + 1;
  const { changes } = await ledger.run(
    ledger.db.updateTable('alerts').set({ send_token: token, send_until: ledgerTime(ledger, hostNow, SEND_CLAIM_MS) })
      .where('id', '=', alert.id).where('send_token', '=', alert.token).where('channels_json', 'is', null),
  );
  return changes === 1 ? { alertId: alert.id, token } : null;
}

/**
 * Records what the channels answered for a send. The holder of the send's claim records its answer unless a success
 * is recorded already; a daemon that lost the claim (it paused or was cut off past it, and another sent the alert
 * again) records only a success, over a failure or nothing: the successful result is the one kept. True when recorded.
 */
export async function recordAlertChannels(ledger: Ledger, send: AlertSend, results: readonly { ok: boolean }[], resultsJson: string): Promise<boolean> {
  const succeeded = results.length > 0 && results.every((r) => r.ok);
  const { changes } = await ledger.run(
    ledger.db.updateTable('alerts').set({ channels_json: resultsJson }).where('id', '=', send.alertId)
      .where((eb) => (succeeded ? eb.or([eb('channels_json', 'is', null), eb('channels_json', 'like', '%"ok":false%')]) : eb.and([eb('send_token', '=', send.token), eb('channels_json', 'is', null)]))),
  );
  return changes === 1;
}

/** Whether an alert of `kind` was raised at or after `since` (ISO): not to be raised again yet. */
export async function alertedSince(ledger: Ledger, kind: string, since: string): Promise<boolean> {
  const row = await ledger.first(ledger.db.selectFrom('alerts').select('id').where('kind', '=', kind).where('created_at', '>=', since).limit(1));
  return row !== undefined;
}
