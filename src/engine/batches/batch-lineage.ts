import type { Ledger } from '../../ledger/open-ledger.js';
import { rowPaymentsOfBatch } from '../../ledger/row-payments.js';
import type { Lineage, Tally } from '../../reports/period-statement.js';
import { rowStories } from '../row-stories.js';

/**
 * How the sheet rows a batch pays ended, wherever they were paid: paid by this batch's own payment, paid later by
 * another batch (a `batch retry`, or a new attempt after Pix instability), or still failed, returned or open.
 */
export interface BatchLineage {
  readonly rows: number;
  readonly paidHere: Tally;
  /** Rows another batch paid, by that batch, in batch order. */
  readonly paidElsewhere: readonly (Tally & { readonly batchId: number })[];
  readonly failed: Tally;
  readonly returned: Tally;
  readonly open: Tally;
  /** Each item's row story, for the items whose row was sent more than once. */
  readonly byItem: ReadonlyMap<number, Lineage>;
}

export async function batchLineage(ledger: Ledger, batchId: number): Promise<BatchLineage> {
  const payments = await rowPaymentsOfBatch(ledger, batchId);
  const stories = rowStories(payments);
  const tally = () => ({ count: 0, cents: 0 });
  const t = { paidHere: tally(), failed: tally(), returned: tally(), open: tally() };
  const elsewhere = new Map<number, { count: number; cents: number }>();
  const byItem = new Map<number, Lineage>();
  for (const p of payments) {
    if (p.batch_id !== batchId) continue;
    const s = stories.get(p.root)!;
    if (s.payments.length > 1) byItem.set(p.id, s.lineage);
  }
  let rows = 0;
  for (const s of stories.values()) {
    if (!s.payments.some((p) => p.batch_id === batchId)) continue;
    rows += 1;
    const into = s.outcome !== 'paid' ? t[s.outcome] : s.paying!.batch_id === batchId ? t.paidHere : elsewhere.get(s.paying!.batch_id) ?? elsewhere.set(s.paying!.batch_id, tally()).get(s.paying!.batch_id)!;
    into.count += 1;
    into.cents += s.first.amount_cents;
  }
  const paidElsewhere = [...elsewhere].sort(([a], [b]) => a - b).map(([id, x]) => ({ batchId: id, ...x }));
  return { rows, ...t, paidElsewhere, byItem };
}
