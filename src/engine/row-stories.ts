import type { RowPaymentRow } from '../ledger/row-payments.js';
import type { Lineage, Outcome, RowPayment, Tally, OutcomeTotals } from '../reports/period-statement.js';

/** A sheet row and every payment of it: which one paid it (if any), its last one, and how the row ended. */
export interface RowStory {
  /** The row's first payment, in the batch it was imported in. */
  readonly first: RowPaymentRow;
  readonly payments: readonly RowPaymentRow[];
  readonly paying: RowPaymentRow | null;
  readonly last: RowPaymentRow;
  readonly outcome: Outcome;
  readonly lineage: Lineage;
}

const ENDED = new Set(['paid', 'failed', 'returned']);

/**
 * Sheet rows' stories from their payments (rowPaymentsOfBatch, allRowPayments), keyed by the row's first item. A row
 * is paid once any of its payments paid (counted once, however many were sent), open while a payment may still pay,
 * and otherwise ended as its last payment did (failed, or returned).
 */
export function rowStories(payments: readonly RowPaymentRow[]): Map<number, RowStory> {
  const byRow = new Map<number, RowPaymentRow[]>();
  for (const p of payments) {
    const row = byRow.get(p.root);
    if (row) row.push(p);
    else byRow.set(p.root, [p]);
  }
  const stories = new Map<number, RowStory>();
  for (const [root, row] of byRow) {
    row.sort((a, b) => a.id - b.id);
    const first = row.find((p) => p.id === root) ?? row[0]!;
    const last = row.at(-1)!;
    const paying = row.find((p) => p.status === 'paid') ?? null;
    const outcome: Outcome = paying ? 'paid' : row.some((p) => !ENDED.has(p.status)) ? 'open' : last.status === 'returned' ? 'returned' : 'failed';
    stories.set(root, {
      first,
      payments: row,
      paying,
      last,
      outcome,
      lineage: { batchId: first.batch_id, line: first.line, payments: row.map(rowPayment), paidIn: paying?.batch_id ?? null },
    });
  }
  return stories;
}

function rowPayment(p: RowPaymentRow): RowPayment {
  return {
    itemId: p.id,
    batchId: p.batch_id,
    kind: p.batch_kind === 'reprocess' ? 'reprocess' : p.retry_of !== null ? 'retry' : 'sheet',
    status: p.status,
    reason: p.reason,
    at: p.status_changed_at,
  };
}

/** Count and centavos by outcome, and of all: the one tally behind every statement's and batch's totals. */
export function outcomeTotals(lines: Iterable<{ readonly outcome: Outcome; readonly amountCents: number }>): OutcomeTotals {
  const zero = (): { count: number; cents: number } => ({ count: 0, cents: 0 });
  const t = { all: zero(), paid: zero(), failed: zero(), returned: zero(), open: zero() };
  for (const l of lines) {
    for (const k of ['all', l.outcome] as const) {
      t[k].count += 1;
      t[k].cents += l.amountCents;
    }
  }
  return t satisfies Record<keyof OutcomeTotals, Tally>;
}
