import type { AlertItem } from '../../alerts/alert.js';
import { isSettled, ITEM_STATES, type ItemState } from '../../domain/item-state.js';
import { acknowledgeAlerts, listAlerts } from '../../ledger/alert-repository.js';
import {
  billDocumentPath, callsAbout, dashboardBatch, dashboardBatches, dashboardBills, dashboardReceipts, filteredItems, itemReceiptPath, paidTimes,
  statusTotals, type BatchStatusTotal, type DashboardBatch, type DashboardBill, type DashboardItem, type DashboardReceipt, type ItemFilter,
} from '../../ledger/dashboard-store.js';
import type { Ledger } from '../../ledger/ledger.js';
import { pendingApprovals, type ApprovalGate } from '../approvals/index.js';
import { returnPossibleUntil } from '../bills/index.js';
import { batchLineage, itemStories, type ItemLineage, type PaidElsewhere } from '../batches/index.js';
import type { Tally } from '../../reports/period-statement.js';

export type { ApprovalGate } from '../approvals/index.js';
export type { Ledger } from '../../ledger/ledger.js';
export type { DashboardItem, DashboardReceipt } from '../../ledger/dashboard-store.js';

/**
 * The dashboard's read models (`paybatch ui`): what the ledger says, as plain data — amounts in centavos, ISO
 * instants, English status words. The dashboard (src/ui) formats and words them in its language.
 */

/** Batches listed on the first page. */
const BATCHES_SHOWN = 100;
/** Points of the paid-over-time picture: enough for a smooth line, few enough for any batch size. */
const TIMELINE_POINTS = 120;
const CALLS_SHOWN = 200;
const BILLS_SHOWN = 200;
const RECEIPTS_SHOWN = 200;
/** Items named under each alert on the page. */
const ALERT_ITEMS_SHOWN = 20;

export interface StatusTotal {
  readonly status: ItemState;
  readonly count: number;
  readonly sumCents: number;
}

export interface BatchProgress extends DashboardBatch {
  /** Every state, in life-cycle order, zero when none. */
  readonly byStatus: readonly StatusTotal[];
  /** Items in a final state (paid, failed, returned) and their share of all, 0–1 (1 for an empty batch). */
  readonly settledCount: number;
  readonly settledShare: number;
  readonly paidCents: number;
}

export async function batchesWithProgress(ledger: Ledger): Promise<BatchProgress[]> {
  const batches = await dashboardBatches(ledger, BATCHES_SHOWN);
  const totals = await statusTotals(ledger, batches.map((b) => b.id));
  return batches.map((b) => withProgress(b, totals.filter((t) => t.batchId === b.id)));
}

export interface BatchDetail extends BatchProgress {
  /**
   * Cumulative amount paid over time (ISO instant, centavos): from nothing at the start, one point per payment, to
   * the settlement (or `now` while the batch runs). Empty before the batch starts.
   */
  readonly paidOverTime: readonly { readonly at: string; readonly paidCents: number }[];
  /** Its sheet rows paid here, and those paid in other batches (a `batch retry`, a reprocessing) by batch. */
  /** Where the batch's rows were paid: here, or in which other batches. */
  readonly paidWhere: { readonly paidHere: Tally; readonly paidElsewhere: readonly PaidElsewhere[] };
}

export async function batchDetail(ledger: Ledger, id: number, now: Date): Promise<BatchDetail | undefined> {
  const batch = await dashboardBatch(ledger, id);
  if (!batch) return undefined;
  const totals = await statusTotals(ledger, [id]);
  const progress = withProgress(batch, totals);
  const { paidHere, paidElsewhere } = await batchLineage(ledger, id, { totals });
  const paidWhere = { paidHere, paidElsewhere };
  const paid = cumulative(await paidTimes(ledger, id));
  if (batch.startedAt === null) return { ...progress, paidOverTime: paid, paidWhere };
  const end = batch.settledAt ?? now.toISOString();
  const total = paid.at(-1)?.paidCents ?? 0;
  return { ...progress, paidOverTime: [{ at: batch.startedAt, paidCents: 0 }, ...paid, ...(end > (paid.at(-1)?.at ?? '') ? [{ at: end, paidCents: total }] : [])], paidWhere };
}

function withProgress(batch: DashboardBatch, totals: readonly BatchStatusTotal[]): BatchProgress {
  const byStatus = ITEM_STATES.map((status) => {
    const t = totals.find((x) => x.status === status);
    return { status, count: t?.count ?? 0, sumCents: t?.sumCents ?? 0 };
  });
  const count = byStatus.reduce((n, s) => n + s.count, 0);
  const settledCount = byStatus.filter((s) => isSettled(s.status)).reduce((n, s) => n + s.count, 0);
  const paidCents = byStatus.find((s) => s.status === 'paid')?.sumCents ?? 0;
  return { ...batch, byStatus, settledCount, settledShare: count === 0 ? 1 : settledCount / count, paidCents };
}

/** The running sum of payments, one point per payment up to TIMELINE_POINTS, then one per equal slice of them. */
function cumulative(paid: readonly { at: string; amountCents: number }[]): { at: string; paidCents: number }[] {
  const points: { at: string; paidCents: number }[] = [];
  const every = Math.max(1, Math.ceil(paid.length / TIMELINE_POINTS));
  let sum = 0;
  paid.forEach((p, i) => {
    sum += p.amountCents;
    if ((i + 1) % every === 0 || i === paid.length - 1) points.push({ at: p.at, paidCents: sum });
  });
  return points;
}

/** An item of a batch with its row's story, when that says more than the item (see batchLineage). */
export interface LinedItem extends DashboardItem {
  readonly lineage: ItemLineage | null;
}

/** One page of a batch's items in sheet order, filtered by status and by part of a name, key, document or line. */
export async function batchItems(ledger: Ledger, batchId: number, filter: ItemFilter): Promise<{ total: number; items: LinedItem[] }> {
  const page = await filteredItems(ledger, batchId, filter);
  if (page.items.length === 0) return { total: page.total, items: [] };
  const storyOf = await itemStories(ledger, page.items.map((i) => i.id));
  return { total: page.total, items: page.items.map((i) => ({ ...i, lineage: storyOf(i.id) })) };
}

export interface CallEntry {
  readonly id: number;
  readonly phase: 'intent' | 'outcome';
  readonly intentId: number | null;
  readonly operation: string;
  readonly outcome: 'ok' | 'error' | 'unknown' | null;
  /** What the call was or answered, flattened to short `name: value` facts (lists are counted). */
  readonly facts: readonly string[];
  readonly at: string;
}

/** The provider calls about a batch, newest first. */
export async function batchCalls(ledger: Ledger, batchId: number): Promise<CallEntry[]> {
  const calls = await callsAbout(ledger, `batch:${batchId}`, CALLS_SHOWN);
  return calls.map((c) => ({ id: c.id, phase: c.phase, intentId: c.intentId, operation: c.operation, outcome: c.outcome, facts: factsOf(c.detailJson), at: c.createdAt }));
}

/** Names that never reach a page, whatever a call's detail holds. */
const SECRET_NAME = /secret|token|password|authori[sz]ation|api.?key|credential|signature/i;
const FACT_MAX = 160;

function factsOf(detailJson: string | null): string[] {
  if (detailJson === null) return [];
  let detail: unknown;
  try {
    detail = JSON.parse(detailJson);
  } catch {
    return [];
  }
  if (detail === null || typeof detail !== 'object' || Array.isArray(detail)) return [];
  return Object.entries(detail)
    .filter(([name]) => !SECRET_NAME.test(name))
    .map(([name, value]) => {
      const shown = Array.isArray(value) ? `${value.length}` : value !== null && typeof value === 'object' ? JSON.stringify(redacted(value)) : String(value);
      return `${name}: ${shown.length > FACT_MAX ? `${shown.slice(0, FACT_MAX - 1)}…` : shown}`;
    });
}

function redacted(value: object): unknown {
  return JSON.parse(JSON.stringify(value, (name, v: unknown) => (name !== '' && SECRET_NAME.test(name) ? undefined : v)));
}

export interface AlertView {
  readonly id: number;
  readonly kind: string;
  /** The English title and summary the ledger keeps; the dashboard words the kind in its language. */
  readonly title: string;
  readonly summary: string;
  readonly itemCount: number;
  readonly items: readonly AlertItem[];
  readonly createdAt: string;
  readonly ackedAt: string | null;
}

/** Alerts newest first: the open ones, or all. */
export async function alertsView(ledger: Ledger, o: { includeAcked: boolean }): Promise<AlertView[]> {
  const alerts = await listAlerts(ledger, { includeAcked: o.includeAcked });
  return alerts.map((a) => {
    const items = a.items.filter(isAlertItem);
    return {
      id: a.id,
      kind: a.kind,
      title: a.title,
      summary: a.summary,
      itemCount: a.items.length,
      items: items.slice(0, ALERT_ITEMS_SHOWN),
      createdAt: a.createdAt,
      ackedAt: a.ackedAt,
    };
  });
}

function isAlertItem(x: unknown): x is AlertItem {
  const i = x as Partial<AlertItem> | null;
  return typeof i?.identifier === 'string' && typeof i.batch === 'string' && typeof i.amountCents === 'number' && typeof i.lastUpdate === 'string';
}

/** Acknowledges one open alert; false when no alert has that number. */
export async function acknowledgeAlert(ledger: Ledger, id: number, now: Date): Promise<boolean> {
  return (await acknowledgeAlerts(ledger, [id], now.toISOString())).ok;
}

export interface BillView extends DashboardBill {
  /** Last day (`YYYY-MM-DD`) the beneficiary's bank may still return a paid or scheduled bill; null otherwise. */
  readonly returnableUntil: string | null;
}

export async function billsView(ledger: Ledger): Promise<BillView[]> {
  const bills = await dashboardBills(ledger, BILLS_SHOWN);
  return bills.map((b) => ({ ...b, returnableUntil: b.status === 'paid' || b.status === 'scheduled' ? returnPossibleUntil(b.settleDate) : null }));
}

export async function receiptsView(ledger: Ledger, batchId?: number): Promise<DashboardReceipt[]> {
  return dashboardReceipts(ledger, { batchId, limit: RECEIPTS_SHOWN });
}

/** The file of a receipt, found only by what the ledger recorded for an item or a bill. */
export async function receiptFile(ledger: Ledger, of: 'item' | 'bill', id: number): Promise<string | undefined> {
  return of === 'item' ? itemReceiptPath(ledger, id) : billDocumentPath(ledger, id);
}

export interface ApprovalView {
  readonly kind: 'batch' | 'bill';
  /** The batch's number, or the bill's line. */
  readonly ref: string;
  readonly name: string | null;
  readonly totalCents: number;
  readonly largestCents: number;
  readonly rows: number;
  readonly required: number;
  readonly valid: number;
  readonly missing: number;
  /** Who signed (counted or not), and the approvers who could still sign. */
  readonly signedBy: readonly string[];
  readonly waitingFor: readonly string[];
  /** Who signed as its maker (proven; none of them counts as an approver); empty: not proven. */
  readonly makers: readonly string[];
  /** The command that signs it, or that moves the money once every approval is in. */
  readonly command: string;
}

/** What waits for approvals under the profile's policy: batches not started and bills approved but not paid. */
export async function approvalsView(ledger: Ledger, gate: ApprovalGate): Promise<ApprovalView[]> {
  const pending = await pendingApprovals(ledger, gate);
  return [...pending.batches, ...pending.bills].map(({ check, command }) => ({
    kind: check.target.kind,
    ref: check.target.kind === 'batch' ? String(check.target.batch.id) : check.target.line,
    name: check.target.kind === 'batch' ? check.target.batch.name : null,
    totalCents: check.figures.totalCents,
    largestCents: check.figures.largestCents,
    rows: check.figures.rows,
    required: check.need.required,
    valid: check.valid,
    missing: check.missing,
    signedBy: check.approvals.map((a) => a.approverName),
    waitingFor: check.waitingFor,
    makers: check.makers.map((m) => m.name),
    command,
  }));
}
