import type { Alert, AlertItem, ChannelResult } from '../alerts/alert.js';
import { formatDuration } from '../domain/duration.js';
import type { Settings } from '../config/settings.js';
import type { Ledger } from '../ledger/open-ledger.js';

export interface AttentionDeps {
  readonly ledger: Ledger;
  readonly now: () => Date;
  readonly settings: Pick<Settings, 'staleAfter' | 'alertAfter' | 'alertRepeat' | 'maxReprocess' | 'receiptWait'>;
  /** Sends an alert through the configured channels (the log and `paybatch alerts` always hold it). */
  readonly send: (alert: Alert) => Promise<readonly ChannelResult[]>;
  readonly profile: string;
  readonly sandbox: boolean;
}

export interface AttentionResult {
  readonly alerts: readonly Alert[];
  /** Items without news for staleAfter (already refreshed by the pass's reconciliation). */
  readonly stale: number;
}

/** What an alert names; `itemId` is the row marked as named (an item or bill id, or a webhook event id). */
type Candidate = AlertItem & { readonly itemId: number | string; readonly alertedAt: string | null };

/**
 * Decides what support must hear about and sends it, one alert per kind listing all its items: payments still
 * without news after `alertAfter`, returns that will not be reprocessed, failed payments, returned bills.
 * Each item is named in one alert; a payment still without news is named again only after `alertRepeat`.
 */
export async function raiseAlerts(deps: AttentionDeps): Promise<AttentionResult> {
  const { ledger, settings } = deps;
  const now = deps.now();
  const ago = (s: number) => new Date(now.getTime() - s * 1000).toISOString();

  const waiting = candidates(ledger, (q) => q.where('items.status', 'in', ['submitted', 'processing']).where('batches.status', '=', 'started'));
  const stale = waiting.filter((c) => c.lastUpdate < ago(settings.staleAfter));
  const overdue = waiting.filter((c) => c.lastUpdate < ago(settings.alertAfter));
  const repeatBefore = ago(settings.alertRepeat);
  const due = overdue.filter((c) => c.alertedAt === null || c.alertedAt < repeatBefore);
  const alerts: Alert[] = [];
  if (due.length) {
    alerts.push(await raise(deps, 'stale-items', `${due.length} Pix payments without news`, `No update from the provider for over ${formatDuration(settings.alertAfter)}, even after asking for the item pages again at every pass.`, due));
  }
  const finalReturns = candidates(ledger, (q) =>
    q
      .where('items.status', '=', 'returned')
      .where('items.alerted_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb('items.return_action', '=', 'final'),
          eb('items.attempt', '>', settings.maxReprocess),
          // Returned with no reason ever given (item pages only, no refund event): nothing tells it may be paid again.
          eb.and([eb('items.return_action', 'is', null), eb('items.status_changed_at', '<', ago(settings.receiptWait))]),
        ]),
      ),
  );
  if (finalReturns.length) {
    alerts.push(await raise(deps, 'final-return', `${finalReturns.length} Pix payments returned for good`, 'Returned for a reason that is not scheme instability (or out of reprocess attempts): the money is back, nobody was paid; decide what to do.', finalReturns));
  }
  const unconfirmed = candidates(ledger, (q) =>
    q
      .where('items.status', '=', 'returned')
      .where('items.return_action', '=', 'reprocess')
      .where('items.return_confirmed_at', 'is', null)
      .where('items.alerted_at', 'is', null)
      .where('items.status_changed_at', '<', ago(settings.alertAfter)),
  );
  if (unconfirmed.length) {
    alerts.push(
      await raise(
        deps,
        'unconfirmed-returns',
        `${unconfirmed.length} Pix returns the provider does not confirm`,
        `A refund event said these payments came back for instability, but for over ${formatDuration(settings.alertAfter)} the provider's own item pages have not shown them returned, so they are not paid again: check with the provider whether the money really came back.`,
        unconfirmed,
      ),
    );
  }
  const quarantined = quarantinedEvents(ledger);
  if (quarantined.length) {
    alerts.push(
      await raise(
        deps,
        'quarantined-events',
        `${quarantined.length} webhook events disagree with the ledger`,
        'Correctly signed events whose amount, key or batch do not match the payment they name were kept aside, not applied; the payments follow the provider\'s own item pages instead. Check who sends them.',
        quarantined,
        'webhook_events',
      ),
    );
  }
  const failures = candidates(ledger, (q) => q.where('items.status', '=', 'failed').where('items.alerted_at', 'is', null));
  if (failures.length) {
    alerts.push(await raise(deps, 'failures', `${failures.length} Pix payments failed`, 'The provider refused these payments; the reason is on each item.', failures));
  }
  const noReceipt = candidates(ledger, (q) =>
    q
      .where('items.status', '=', 'paid')
      .where('items.pix_id', 'is', null)
      .where('items.receipt_unavailable_at', 'is', null)
      .where('items.status_changed_at', '<', ago(settings.receiptWait)),
  );
  if (noReceipt.length) {
    alerts.push(
      await raise(
        deps,
        'receipts-unavailable',
        `${noReceipt.length} paid Pix payments without a receipt to fetch`,
        `They are paid, but the provider gave no Pix id for them (not in its item pages, no event within ${formatDuration(settings.receiptWait)}), and receipts are fetched by that id. Get them from the provider's web interface, or, if its item pages carry the id under another name, name that field in the pixIdFields setting.`,
        noReceipt,
        'items',
        'receipt_unavailable_at',
      ),
    );
  }
  const billReturns = returnedBills(ledger);
  if (billReturns.length) {
    alerts.push(await raise(deps, 'bill-return', `${billReturns.length} bill payments returned by the beneficiary`, 'The money is back in the account; the reason received and its meaning are on each bill.', billReturns, 'bills'));
  }
  return { alerts, stale: stale.length };
}

/** Quarantined webhook events that no alert has named yet. */
function quarantinedEvents(ledger: Ledger): Candidate[] {
  return ledger
    .all(ledger.db.selectFrom('webhook_events').selectAll().where('quarantine', 'is not', null).where('alerted_at', 'is', null).orderBy('received_at'))
    .map((e) => {
      const payload = ((JSON.parse(e.payload_json) as { payload?: Record<string, unknown> }).payload ?? {}) as Record<string, unknown>;
      return {
        itemId: e.event_id,
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
function returnedBills(ledger: Ledger): Candidate[] {
  return ledger
    .all(ledger.db.selectFrom('bills').selectAll().where('status', '=', 'returned').where('alerted_at', 'is', null).orderBy('id'))
    .map((b) => ({
      itemId: b.id,
      alertedAt: b.alerted_at,
      identifier: b.transaction_id ?? `bill:${b.id}`,
      batch: 'bills',
      line: null,
      key: b.line,
      amountCents: b.amount_paid_cents ?? b.amount_cents,
      status: `returned: ${b.return_reason ?? '?'} → ${b.return_meaning ?? 'unknown reason'}`,
      lastUpdate: b.returned_at ?? b.updated_at,
      recipient: b.beneficiary,
    }));
}

function candidates(ledger: Ledger, where: (q: ReturnType<typeof baseQuery>) => ReturnType<typeof baseQuery>): Candidate[] {
  return ledger.all(where(baseQuery(ledger)).orderBy('items.id')).map((r) => ({
    itemId: r.id,
    alertedAt: r.alerted_at,
    identifier: r.identifier,
    batch: r.batchName,
    line: r.line,
    key: r.key,
    amountCents: r.amount_cents,
    status: r.reason ? `${r.status}: ${r.reason}` : r.status,
    lastUpdate: r.updated_at,
    recipient: r.recipient_name,
  }));
}

function baseQuery(ledger: Ledger) {
  return ledger.db
    .selectFrom('items')
    .innerJoin('batches', 'batches.id', 'items.batch_id')
    .select(['items.id', 'items.alerted_at', 'items.identifier', 'batches.name as batchName', 'items.line', 'items.key', 'items.amount_cents', 'items.status', 'items.reason', 'items.updated_at', 'items.recipient_name']);
}

/** Records and sends one alert; each item is marked in `mark` (`alerted_at`, or the column of what was reported) so it is named once. */
async function raise(
  deps: AttentionDeps,
  kind: string,
  title: string,
  summary: string,
  items: readonly Candidate[],
  table: 'items' | 'bills' | 'webhook_events' = 'items',
  mark: 'alerted_at' | 'receipt_unavailable_at' = 'alerted_at',
): Promise<Alert> {
  const { ledger } = deps;
  const at = deps.now().toISOString();
  const listed: AlertItem[] = items.map(({ itemId: _id, alertedAt: _a, ...item }) => item);
  const id = ledger.transaction(() => {
    const alertId = ledger.run(
      ledger.db.insertInto('alerts').values({
        kind,
        fingerprint: items.map((i) => i.identifier).sort().join(','),
        title,
        summary,
        items_json: JSON.stringify(listed),
        created_at: at,
        last_sent_at: at,
        channels_json: null,
        acked_at: null,
      }),
    ).lastInsertRowid;
    const update = ledger.raw.prepare(`UPDATE ${table} SET ${mark} = ? WHERE ${table === 'webhook_events' ? 'event_id' : 'id'} = ?`);
    for (const it of items) update.run(at, it.itemId);
    return alertId;
  });
  const alert: Alert = { id, kind, title, summary, items: listed, createdAt: at, profile: deps.profile, sandbox: deps.sandbox };
  const results = await deps.send(alert);
  ledger.run(ledger.db.updateTable('alerts').set({ channels_json: JSON.stringify(results) }).where('id', '=', id));
  return alert;
}
