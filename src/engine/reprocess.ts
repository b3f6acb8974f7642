import { saoPauloDate } from '../domain/bank-calendar.js';
import { reprocessIdentifier } from '../domain/identifier.js';
import type { ItemRow } from '../ledger/item-repository.js';
import type { Ledger } from '../ledger/open-ledger.js';
import { confirmedReturnsToReprocess, recordReprocessBatch, type NewAttempt } from '../ledger/reprocess-store.js';
import { crashPoint } from './crash-point.js';

export interface ReprocessResult {
  /** The new local batch holding the new attempts (submitted and started by the follow-up pass), if any. */
  readonly batchId: number | null;
  readonly attempts: number;
  /** Returned for instability but out of attempts: final, and reported. */
  readonly exhausted: readonly ItemRow[];
}

/**
 * Which confirmed returns get a new attempt, and which are out of attempts (pure): attempt n + 1 of a payment has an
 * identifier derived from its first attempt's and n + 1.
 */
export function planNewAttempts(returns: readonly { item: ItemRow; root: ItemRow }[], maxReprocess: number): { attempts: NewAttempt[]; exhausted: ItemRow[] } {
  const exhausted = returns.filter((r) => r.item.attempt > maxReprocess).map((r) => r.item);
  const attempts = returns
    .filter((r) => r.item.attempt <= maxReprocess)
    .map((r) => ({ from: r.item, rootId: r.root.id, identifier: reprocessIdentifier(r.root.identifier, r.item.attempt + 1), attempt: r.item.attempt + 1 }));
  return { attempts, exhausted };
}

/**
 * Pays again every payment returned for instability of the Pix scheme, once the provider confirmed the return: a new
 * attempt in a new batch marked to start. Each return gets at most one successor: the successor's existence is the
 * guard, read and written in one transaction.
 */
export async function reprocessConfirmedReturns(ledger: Ledger, o: { maxReprocess: number; now: Date }): Promise<ReprocessResult> {
  const result = await ledger.transaction(async (tx) => {
    const { attempts, exhausted } = planNewAttempts(await confirmedReturnsToReprocess(tx), o.maxReprocess);
    if (attempts.length === 0) return { batchId: null, attempts: 0, exhausted };
    const batchId = await recordReprocessBatch(tx, { name: `Reprocess ${saoPauloDate(o.now)}`, attempts, at: o.now });
    return { batchId, attempts: attempts.length, exhausted };
  });
  if (result.batchId !== null) crashPoint('reprocess');
  return result;
}
