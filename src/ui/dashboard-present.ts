import { batchName } from '../words/batch-name.js';
import type { Locale } from '../words/locale.js';
import { localDateTime, localDay, zoneLabel } from '../words/local-time.js';
import { shownDocument } from '../domain/document.js';
import { formatBRL } from '../domain/money.js';
import { statusWord } from '../words/status-words.js';
import { billReturnMeaningText, pixReasonInLocale, statusReasonText, statusWithReasonText } from '../words/payment-reasons.js';
import type {
  AlertView, ApprovalView, BatchDetail, BatchProgress, BillView, CallEntry, DaemonStatus, DashboardReceipt, Lineage, LinedItem, RowPayment,
} from '../engine/dashboard/index.js';

/** A row's lineage in words in a locale (lineageText of the reports layer, given by the CLI). */
export type LineageText = (lineage: Lineage, locale: Locale) => string;

/**
 * What the dashboard's API answers: each value raw (centavos, ISO instants, English status words: stable for
 * scripts) beside its text for people in the profile's locale (`R$ 1.234,56`, São Paulo time, translated words).
 */
export function presenter(locale: Locale, lineageText: LineageText) {
  const money = (cents: number) => formatBRL(cents);
  /** One payment of a row in words, as its lineage says it: `pago depois no lote #4`, `reprocessado e pago no lote #3`. */
  const step = (p: RowPayment) => lineageText({ batchId: p.batchId, line: null, payments: [p], paidIn: null }, locale);
  const time = (iso: string | null) => (iso === null ? null : localDateTime(new Date(iso), locale));
  const day = (ymd: string | null) => (ymd === null ? null : localDay(ymd, locale));
  const word = (status: string) => statusWord(status, locale);
  /** A Pix rejection's or return's reason in the locale, whatever language the provider wrote it in. */
  const reason = (status: string, text: string) => pixReasonInLocale(text, locale, status === 'returned' ? 'return' : 'rejection');
  /** An alert item's status with its reason, composed from its parts; older stored items have only the joined English text. */
  const alertStatus = (i: AlertView['items'][number]) => {
    if (i.state === undefined) return statusWithReasonText(i.status, locale);
    if (i.returnMeaning !== undefined || !i.reason) return statusReasonText({ ...i, status: i.state }, locale);
    return `${word(i.state)}: ${reason(i.state, i.reason)}`;
  };

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
      paidWhere: {
        paidHere: { ...b.paidWhere.paidHere, amount: money(b.paidWhere.paidHere.cents) },
        paidElsewhere: b.paidWhere.paidElsewhere.map((e) => ({ ...e, batchName: batchName({ kind: e.batchKind, name: e.batchName }, locale), amount: money(e.cents), text: step(e.payment) })),
      },
    }),
    /**
     * One row of a batch (`batchId`): its fields as read, each beside its text, and its row's story when that says
     * more — each payment in words, marked `here` when it is of this batch (the page links the others).
     */
    item: (i: LinedItem, batchId: number) => ({
      ...i,
      amount: money(i.amountCents),
      documentText: shownDocument(i.document),
      statusText: word(i.status),
      reasonText: i.reason === null ? null : reason(i.status, i.reason),
      updated: time(i.updatedAt),
      lineage: i.lineage === null ? null : {
        ...i.lineage,
        text: lineageText(i.lineage.lineage, locale),
        steps: i.lineage.lineage.payments.map((p) => ({ batchId: p.batchId, here: p.batchId === batchId, text: step(p) })),
      },
    }),
    call: (c: CallEntry) => ({ ...c, time: time(c.at) }),
    alert: (a: AlertView, words: { readonly title: string; readonly summary: string; readonly nextStep: string | null }) => ({
      ...a,
      ...words,
      created: time(a.createdAt),
      acked: time(a.ackedAt),
      items: a.items.map((i) => ({ ...i, amount: money(i.amountCents), statusText: alertStatus(i), updated: time(i.lastUpdate) })),
    }),
    bill: (b: BillView) => ({
      ...b,
      amount: money(b.amountCents),
      statusText: word(b.status),
      due: day(b.dueDate),
      settle: day(b.settleDate),
      returnableUntilText: day(b.returnableUntil),
      returnReasonText: b.returnReason === null ? null : billReturnText(b.returnReason, billReturnMeaningText(b.returnReason, b.returnMeaning, locale)),
      created: time(b.createdAt),
    }),
    daemon: (d: DaemonStatus) => ({
      ...d,
      lastPass: time(d.lastPassAt),
      lag: d.lagSeconds === null ? null : elapsed(d.lagSeconds, locale),
      daemons: d.daemons.map((x) => ({ ...x, started: time(x.startedAt), lastPass: time(x.lastPassAt) })),
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

/** A bill's return as received, with what it means when known: `23 - … → bill already paid`. */
function billReturnText(received: string, meaning: string | null): string {
  return meaning === null ? received : `${received} → ${meaning}`;
}

/** How long ago, in its largest whole unit, by Intl: `45 seconds`, `3 minutes`, `2 horas`, `1 dia`. */
function elapsed(seconds: number, locale: Locale): string {
  const [amount, unit] = seconds < 60 ? [seconds, 'second'] : seconds < 3_600 ? [seconds / 60, 'minute'] : seconds < 86_400 ? [seconds / 3_600, 'hour'] : [seconds / 86_400, 'day'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(Math.floor(amount));
}
