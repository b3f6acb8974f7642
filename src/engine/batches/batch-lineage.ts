import type { Ledger } from '../../ledger/open-ledger.js';
import { statusTotals, type BatchStatusTotal } from '../../ledger/dashboard-store.js';
import { anyRowResent, rowPaymentsOfBatch, rowPaymentsOfItems } from '../../ledger/row-payments.js';
import type { Lineage, Outcome, RowPayment, Tally } from '../../reports/period-statement.js';
import { rowStories, type RowStory } from '../row-stories.js';

/** A batch, other than this one, whose payments paid some of this batch's rows: how many, and how much. */
export interface PaidElsewhere extends Tally {
  readonly batchId: number;
  readonly batchKind: 'sheet' | 'reprocess';
  readonly batchName: string;
  /** The payment that paid the first of them (`retry`, `reprocess`; `sheet` for a row paid before it was retried here). */
  readonly payment: RowPayment;
}

/** A row's story beside one of its payments: how the row ended, and each payment of it in order. */
export interface ItemLineage {
  readonly outcome: Outcome;
  readonly lineage: Lineage;
}

/**
 * How the sheet rows a batch pays ended, wherever they were paid: paid by this batch's own payment, paid later by
 * another batch (a `batch retry`, or a new attempt after Pix instability), or still failed, returned or open.
 */
export interface BatchLineage {
  readonly rows: number;
  /** Rows sent more than once (retried or reprocessed), wherever they ended. */
  readonly resent: number;
  readonly paidHere: Tally;
  /** In batch order. */
  readonly paidElsewhere: readonly PaidElsewhere[];
  readonly failed: Tally;
  readonly returned: Tally;
  readonly open: Tally;
  /** The story of an item's row when the row was sent more than once; null otherwise (and for an item not of the batch). */
  storyOf(itemId: number): ItemLineage | null;
}

export async function batchLineage(ledger: Ledger, batchId: number, o: { readonly totals?: readonly BatchStatusTotal[] } = {}): Promise<BatchLineage> {
  if (!(await anyRowResent(ledger, batchId))) return sentOnce(o.totals ?? (await statusTotals(ledger, [batchId])));
  const payments = await rowPaymentsOfBatch(ledger, batchId);
  const stories = [...rowStories(payments).values()].filter((s) => s.payments.some((p) => p.batch_id === batchId));
  const byItem = new Map<number, RowStory>();
  for (const s of stories) for (const p of s.payments) if (p.batch_id === batchId && s.payments.length > 1) byItem.set(p.id, s);
  const tally = () => ({ count: 0, cents: 0 });
  const t = { paidHere: tally(), failed: tally(), returned: tally(), open: tally() };
  const elsewhere = new Map<number, { count: number; cents: number; first: RowStory }>();
  for (const s of stories) {
    const paidIn = s.paying?.batch_id;
    const into = s.outcome !== 'paid' ? t[s.outcome] : paidIn === batchId ? t.paidHere : (elsewhere.get(paidIn!) ?? elsewhere.set(paidIn!, { ...tally(), first: s }).get(paidIn!)!);
    into.count += 1;
    into.cents += s.first.amount_cents;
  }
  const paidElsewhere = [...elsewhere]
    .sort(([a], [b]) => a - b)
    .map(([id, e]) => ({
      batchId: id,
      batchKind: e.first.paying!.batch_kind,
      batchName: e.first.paying!.batch_name,
      count: e.count,
      cents: e.cents,
      payment: e.first.lineage.payments.find((p) => p.itemId === e.first.paying!.id)!,
    }));
  return {
    rows: stories.length,
    resent: stories.filter((s) => s.payments.length > 1).length,
    ...t,
    paidElsewhere,
    storyOf: (itemId) => {
      const s = byItem.get(itemId);
      return s ? { outcome: s.outcome, lineage: s.lineage } : null;
    },
  };
}

/**
 * The lineage of a batch whose rows were each sent once (most batches): each row ended as its item did, so its
 * status totals are the whole story (a 100,000-item batch is a GROUP BY, not 100,000 payments read).
 */
function sentOnce(totals: readonly { readonly status: string; readonly count: number; readonly sumCents: number }[]): BatchLineage {
  const tally = (statuses: readonly string[] | null) =>
    totals
      .filter((t) => (statuses === null ? !['paid', 'failed', 'returned'].includes(t.status) : statuses.includes(t.status)))
      .reduce((sum, t) => ({ count: sum.count + t.count, cents: sum.cents + t.sumCents }), { count: 0, cents: 0 });
  return {
    rows: totals.reduce((n, t) => n + t.count, 0),
    resent: 0,
    paidHere: tally(['paid']),
    paidElsewhere: [],
    failed: tally(['failed']),
    returned: tally(['returned']),
    open: tally(null),
    storyOf: () => null,
  };
}

/**
 * The stories of the rows of some items (a page of a batch's items), keyed by item: only rows sent more than once
 * have one (as BatchLineage.storyOf says). Reads those rows' payments, not the whole batch's.
 */
export async function itemStories(ledger: Ledger, itemIds: readonly number[]): Promise<(itemId: number) => ItemLineage | null> {
  const stories = new Map<number, ItemLineage>();
  for (const s of rowStories(await rowPaymentsOfItems(ledger, itemIds)).values()) {
    if (s.payments.length < 2) continue;
    for (const p of s.payments) stories.set(p.id, { outcome: s.outcome, lineage: s.lineage });
  }
  return (itemId) => stories.get(itemId) ?? null;
}
