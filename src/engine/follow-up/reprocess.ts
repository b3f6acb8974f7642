import { saoPauloDate } from '../../domain/bank-calendar.js';
import { reprocessIdentifier } from '../../domain/identifier.js';
import type { ItemRow } from '../../ledger/item-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import { recordReprocessBatch, unpaidForInstability, type NewAttempt } from '../../ledger/reprocess-store.js';
import type { ProviderClient } from '../../provider/client.js';
import { crashPoint } from '../crash-point.js';
import { reconcileBatch } from './reconcile.js';

export interface ReprocessResult {
  /** The new local batch holding the new attempts (submitted and started by the follow-up pass), if any. */
  readonly batchId: number | null;
  readonly attempts: number;
  /** Unpaid for instability but out of attempts: final, and reported. */
  readonly exhausted: readonly ItemRow[];
}

export interface ReprocessDeps {
  readonly ledger: Ledger;
  /** The provider's item pages, read right before deciding. */
  readonly provider: Pick<ProviderClient, 'items' | 'dialect'>;
  readonly now: () => Date;
}

/**
 * Which payments unpaid for instability get a new attempt, and which are out of attempts (pure): attempt n + 1 of a
 * payment has an identifier derived from its first attempt's and n + 1.
 */
export function planNewAttempts(unpaid: readonly { item: ItemRow; root: ItemRow }[], maxReprocess: number): { attempts: NewAttempt[]; exhausted: ItemRow[] } {
  const exhausted = unpaid.filter((r) => r.item.attempt > maxReprocess).map((r) => r.item);
  const attempts = unpaid
    .filter((r) => r.item.attempt <= maxReprocess)
    .map((r) => ({ from: r.item, rootId: r.root.id, identifier: reprocessIdentifier(r.root.identifier, r.item.attempt + 1), attempt: r.item.attempt + 1 }));
  return { attempts, exhausted };
}

/**
 * Pays again every payment the provider's record shows unpaid because of instability of the Pix scheme (rejected for
 * it, or paid and returned for it): a new attempt in a new batch marked to start. The item pages of the batches
 * holding them are read first, so the decision rests on the record as it is right now, never on a webhook. Each
 * payment gets at most one successor: the successor's existence is the guard, read and written in one transaction.
 */
export async function reprocessUnpaidForInstability(deps: ReprocessDeps, o: { maxReprocess: number }): Promise<ReprocessResult> {
  const { ledger, provider, now } = deps;
  const due = planNewAttempts(await unpaidForInstability(ledger), o.maxReprocess).attempts;
  for (const batchId of new Set(due.map((a) => a.from.batch_id))) {
    await reconcileBatch({ ledger, provider, now, instabilityWords: provider.dialect.instabilityWords }, batchId);
  }
  const result = await ledger.transaction(async (tx) => {
    const { attempts, exhausted } = planNewAttempts(await unpaidForInstability(tx), o.maxReprocess);
    // Only what the pages just read still show unpaid: anything else waits for the next pass to read its pages.
    const read = new Set(due.map((a) => a.from.id));
    const confirmed = attempts.filter((a) => read.has(a.from.id));
    if (confirmed.length === 0) return { batchId: null, attempts: 0, exhausted };
    const at = now();
    // The stored name is a fixed form, the same in every ledger, in `--json` and at the provider (its remote name):
    // people read it through words/batch-name.ts, which says it in their language from the kind and the day.
    const batchId = await recordReprocessBatch(tx, { name: `Reprocess ${saoPauloDate(at)}`, attempts: confirmed, at });
    return { batchId, attempts: confirmed.length, exhausted };
  });
  if (result.batchId !== null) crashPoint('reprocess');
  return result;
}
