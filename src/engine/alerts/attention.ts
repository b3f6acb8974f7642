import { alertItemOf, storedAlertText, type Alert, type AlertFactsOf, type AlertItem, type AlertKind, type ChannelResult } from '../../alerts/alert.js';
import type { Settings } from '../../config/settings.js';
import { saoPauloDate } from '../../domain/bank-calendar.js';
import { daysLeft, EXPIRY_WARNING_DAYS, type CertificateFacts } from '../../network/certificate-facts.js';
import {
  alertedSince,
  billsWithoutNewsToReport,
  claimAlertSend,
  correctionsToReport,
  failuresToReport,
  finalReturnsToReport,
  itemsAwaitingNews,
  paidWithoutPixIdToReport,
  quarantinedEventsToReport,
  recordDifferencesToReport,
  recordAlert,
  recordAlertChannels,
  returnedBillsToReport,
  unconfirmedReturnsToReport,
  unsentAlerts,
  type ReportMark,
  type ReportRow,
} from '../../ledger/attention-store.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import { refusedBatchesToReport, REFUSALS_BEFORE_GIVING_UP } from '../../ledger/refused-batches.js';
import { strayBatchesToReport } from '../../ledger/stray-batch-store.js';

export interface AttentionDeps {
  readonly ledger: Ledger;
  readonly now: () => Date;
  readonly settings: Pick<Settings, 'staleAfter' | 'alertAfter' | 'alertRepeat' | 'maxReprocess' | 'receiptWait'>;
  /** Sends an alert through the configured channels (the log and `paybatch alerts` always hold it). */
  readonly send: (alert: Alert) => Promise<readonly ChannelResult[]>;
  readonly profile: string;
  readonly sandbox: boolean;
  /** The client certificate of the provider's calls; alerted from 30 days before it ends, again after alertRepeat. */
  readonly certificate?: CertificateFacts | null;
}

export interface AttentionResult {
  readonly alerts: readonly Alert[];
  /** Items without news for staleAfter (already refreshed by the pass's reconciliation). */
  readonly stale: number;
}


/**
 * Decides what support must hear about and sends it, one alert per kind listing all its items: payments still
 * without news after `alertAfter`, returns that will not be reprocessed, failed payments, returned bills.
 * Each item is named in one alert; a payment still without news is named again only after `alertRepeat`.
 */
export async function raiseAlerts(deps: AttentionDeps): Promise<AttentionResult> {
  const { ledger, settings } = deps;
  const now = deps.now();
  const ago = (s: number) => new Date(now.getTime() - s * 1000);

  // An alert whose sender stopped, paused or was cut off before it recorded the channels' answer is sent again once
  // its claim ran out by the ledger's clock — late rather than never, under the same id, which lets a channel tell a
  // repeat — by the one daemon that claims it again.
  const alerts: Alert[] = [];
  for (const a of await unsentAlerts(ledger, now)) {
    const send = await claimAlertSend(ledger, a, now);
    if (!send) continue;
    const alert: Alert = { id: a.id, kind: a.kind, title: a.title, summary: a.summary, items: JSON.parse(a.itemsJson) as AlertItem[], createdAt: a.createdAt, profile: deps.profile, sandbox: deps.sandbox };
    const results = await deps.send(alert);
    await recordAlertChannels(ledger, send, results, JSON.stringify(results));
    alerts.push(alert);
  }

  const waiting = await itemsAwaitingNews(ledger);
  const stale = waiting.filter((c) => c.lastUpdate < ago(settings.staleAfter).toISOString());
  const overdue = waiting.filter((c) => c.lastUpdate < ago(settings.alertAfter).toISOString());
  const repeatBefore = ago(settings.alertRepeat).toISOString();
  const due = overdue.filter((c) => c.alertedAt === null || c.alertedAt < repeatBefore);
  if (due.length) {
    alerts.push(await raise(deps, 'stale-items', { alertAfter: settings.alertAfter }, due));
  }
  const finalReturns = await finalReturnsToReport(ledger, { maxReprocess: settings.maxReprocess, undecidedBefore: ago(settings.receiptWait) });
  if (finalReturns.length) {
    alerts.push(await raise(deps, 'final-return', {}, finalReturns));
  }
  const unconfirmed = await unconfirmedReturnsToReport(ledger, ago(settings.alertAfter));
  if (unconfirmed.length) {
    alerts.push(
      await raise(
        deps,
        'unconfirmed-returns',
        { alertAfter: settings.alertAfter },
        unconfirmed,
      ),
    );
  }
  const quarantined = await quarantinedEventsToReport(ledger);
  if (quarantined.length) {
    alerts.push(
      await raise(
        deps,
        'quarantined-events',
        {},
        quarantined,
        { table: 'webhook_events', column: 'alerted_at' },
      ),
    );
  }
  const corrections = await correctionsToReport(ledger);
  if (corrections.length) {
    alerts.push(
      await raise(
        deps,
        'record-disagrees',
        {},
        corrections,
        { table: 'item_corrections', column: 'alerted_at' },
      ),
    );
  }
  const differences = await recordDifferencesToReport(ledger);
  if (differences.length) {
    alerts.push(
      await raise(
        deps,
        'record-differs',
        {},
        differences,
        { table: 'record_differences', column: 'alerted_at' },
      ),
    );
  }
  const failures = await failuresToReport(ledger, { maxReprocess: settings.maxReprocess, undecidedBefore: ago(settings.receiptWait) });
  if (failures.length) {
    alerts.push(await raise(deps, 'failures', {}, failures));
  }
  const noReceipt = await paidWithoutPixIdToReport(ledger, ago(settings.receiptWait));
  if (noReceipt.length) {
    alerts.push(
      await raise(
        deps,
        'receipts-unavailable',
        { receiptWait: settings.receiptWait },
        noReceipt,
        { table: 'items', column: 'receipt_unavailable_at' },
      ),
    );
  }
  const billReturns = await returnedBillsToReport(ledger);
  if (billReturns.length) {
    alerts.push(await raise(deps, 'bill-return', {}, billReturns, { table: 'bills', column: 'alerted_at' }));
  }
  const billsWithoutNews = await billsWithoutNewsToReport(ledger, { unknownBefore: ago(settings.alertAfter).toISOString(), today: saoPauloDate(now) });
  if (billsWithoutNews.length) {
    alerts.push(
      await raise(
        deps,
        'bills-without-news',
        { alertAfter: settings.alertAfter },
        billsWithoutNews,
        { table: 'bills', column: 'news_alerted_at' },
      ),
    );
  }
  const strays = await strayBatchesToReport(ledger);
  if (strays.length) {
    alerts.push(
      await raise(
        deps,
        'stray-batches',
        {},
        strays,
        { table: 'stray_batches', column: 'alerted_at' },
      ),
    );
  }
  const refused = await refusedBatchesToReport(ledger);
  if (refused.length) {
    alerts.push(
      await raise(
        deps,
        'batch-refused',
        { refusals: REFUSALS_BEFORE_GIVING_UP },
        refused,
        { table: 'batches', column: 'refusal_alerted_at' },
      ),
    );
  }
  // One certificate per profile: the alert names no item, it is raised again after alertRepeat.
  const certificate = deps.certificate;
  const days = certificate ? daysLeft(certificate, now) : Infinity;
  if (certificate && days <= EXPIRY_WARNING_DAYS && !(await alertedSince(ledger, 'certificate-expiring', repeatBefore))) {
    alerts.push(
      await raise(
        deps,
        'certificate-expiring',
        { file: certificate.file, subject: certificate.subject, issuer: certificate.issuer, notAfter: certificate.notAfter.toISOString(), days },
        [],
        null,
      ),
    );
  }
  return { alerts, stale: stale.length };
}

/** Records and sends one alert naming `rows`; each row is marked (`mark`) so that it is named once. */
async function raise<K extends AlertKind>(
  deps: AttentionDeps,
  kind: K,
  facts: AlertFactsOf[K],
  rows: readonly ReportRow[],
  mark: ReportMark | null = { table: 'items', column: 'alerted_at' },
): Promise<Alert> {
  const at = deps.now();
  // The alert is its kind, facts and items; the ledger keeps the English text the alerts layer words them with, and
  // channels and `alerts list` word the kind in the profile's language.
  const { title, summary } = storedAlertText(kind, facts, rows.length);
  const listed: AlertItem[] = rows.map(alertItemOf);
  const send = await recordAlert(deps.ledger, { kind, title, summary, rows, itemsJson: JSON.stringify(listed), mark, at });
  const alert: Alert = { id: send.alertId, kind, title, summary, items: listed, createdAt: at.toISOString(), profile: deps.profile, sandbox: deps.sandbox };
  const results = await deps.send(alert);
  await recordAlertChannels(deps.ledger, send, results, JSON.stringify(results));
  return alert;
}
