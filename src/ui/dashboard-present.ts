import { batchName } from '../words/batch-name.js';
import type { Locale } from '../words/locale.js';
import { localDateTime, localDay, zoneLabel } from '../words/local-time.js';
import { formatBRL } from '../domain/money.js';
import { statusWord } from '../words/status-words.js';
import { pixReasonText, statusReasonText, statusWithReasonText } from '../words/payment-reasons.js';
import type { AlertView, ApprovalView, BatchDetail, BatchProgress, BillView, CallEntry, DashboardItem, DashboardReceipt } from '../engine/dashboard/index.js';

/**
 * What the dashboard's API answers: each value raw (centavos, ISO instants, English status words: stable for
 * scripts) beside its text for people in the profile's locale (`R$ 1.234,56`, São Paulo time, translated words).
 */
export function presenter(locale: Locale) {
  const money = (cents: number) => formatBRL(cents);
  const time = (iso: string | null) => (iso === null ? null : localDateTime(new Date(iso), locale));
  const day = (ymd: string | null) => (ymd === null ? null : localDay(ymd, locale));
  const word = (status: string) => statusWord(status, locale);

  const batch = (b: BatchProgress) => ({
    id: b.id,
    name: batchName(b, locale),
    kind: b.kind,
    status: b.status,
    statusText: word(b.status),
    remoteId: b.remoteId,
    itemCount: b.itemCount,
    totalCents: b.totalCents,
    total: money(b.totalCents),
    paidCents: b.paidCents,
    paid: money(b.paidCents),
    settledCount: b.settledCount,
    settledShare: b.settledShare,
    settledPercent: percent(b.settledShare),
    byStatus: b.byStatus.map((s) => ({ ...s, statusText: word(s.status), sum: money(s.sumCents) })),
    createdAt: b.createdAt,
    created: time(b.createdAt),
    startedAt: b.startedAt,
    started: time(b.startedAt),
    settledAt: b.settledAt,
    settled: time(b.settledAt),
  });

  return {
    locale,
    zone: zoneLabel(locale),
    batch,
    batchDetail: (b: BatchDetail) => ({
      ...batch(b),
      paidOverTime: b.paidOverTime.map((p) => ({ at: p.at, time: time(p.at), paidCents: p.paidCents, paid: money(p.paidCents) })),
    }),
    item: (i: DashboardItem) => ({
      ...i,
      amount: money(i.amountCents),
      statusText: word(i.status),
      reasonText: i.reason === null ? null : pixReasonText(i.reason, locale, i.status === 'returned' ? 'return' : 'rejection'),
      updated: time(i.updatedAt),
    }),
    call: (c: CallEntry) => ({ ...c, time: time(c.at) }),
    alert: (a: AlertView, words: { readonly title: string; readonly summary: string; readonly nextStep: string | null }) => ({
      ...a,
      ...words,
      created: time(a.createdAt),
      acked: time(a.ackedAt),
      items: a.items.map((i) => ({ ...i, amount: money(i.amountCents), statusText: alertStatusText(i, locale), updated: time(i.lastUpdate) })),
    }),
    bill: (b: BillView) => ({
      ...b,
      amount: money(b.amountCents),
      statusText: word(b.status),
      due: day(b.dueDate),
      settle: day(b.settleDate),
      returnableUntilText: day(b.returnableUntil),
      created: time(b.createdAt),
    }),
    approval: (a: ApprovalView) => ({ ...a, total: money(a.totalCents), largest: money(a.largestCents) }),
    receipt: (r: DashboardReceipt) => ({ ...r, amount: money(r.amountCents), statusText: word(r.status), paid: time(r.paidAt) }),
  };
}

export type Presenter = ReturnType<typeof presenter>;

/** `37%`, floored, so that 100% is shown only when every item is settled. */
function percent(share: number): string {
  return `${Math.floor(share * 100)}%`;
}

/** An alert item's status with its reason, composed from its parts; older stored items have only the joined English text. */
function alertStatusText(i: AlertView['items'][number], locale: Locale): string {
  return i.state === undefined ? statusWithReasonText(i.status, locale) : statusReasonText({ ...i, status: i.state }, locale);
}
