import type { BatchRow } from '../../ledger/batch-repository.js';
import { itemsOfBatch } from '../../ledger/item-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import type { FoundDifference } from '../../ledger/record-differences.js';
import { compareItems, type Tally } from './item-differences.js';
import type { ProviderClient } from '../../provider/client.js';
import type { Item } from '../../provider/types.js';
import { readPages, reconcileBatch, type ReadPage } from './reconcile.js';

export interface BatchComparison {
  readonly batchId: number;
  readonly name: string;
  readonly remoteId: string;
  /** By state before the ledger followed the record, and by the provider's state (its word when paybatch knows none). */
  readonly ledger: Readonly<Record<string, Tally>>;
  readonly provider: Readonly<Record<string, Tally>>;
  readonly differences: readonly FoundDifference[];
  /** Items the ledger then moved to what the record shows (forward, or corrected). */
  readonly followed: number;
}

export interface ComparisonDeps {
  readonly ledger: Ledger;
  readonly provider: Pick<ProviderClient, 'items' | 'dialect'>;
  readonly now: () => Date;
}

/**
 * `paybatch reconcile`: the ledger compared with the provider's own record, item by item — state, amount, Pix id,
 * end-to-end id, and items only one side holds — with count and centavos by state on both sides. Then the ledger
 * follows the same pages (reconcileBatch: every correction kept for its alert), so a second run finds them agreeing
 * except where the record itself cannot be followed (an amount, an item it does not show). Batches never sent have
 * nothing to compare and are left out.
 */
export async function compareWithProvider(deps: ComparisonDeps, batches: readonly BatchRow[]): Promise<BatchComparison[]> {
  const out: BatchComparison[] = [];
  for (const batch of batches) {
    if (!batch.remote_id) continue;
    out.push(await compareBatch(deps, batch, batch.remote_id));
  }
  return out;
}

async function compareBatch(deps: ComparisonDeps, batch: BatchRow, remoteId: string): Promise<BatchComparison> {
  // Read once: compared with the ledger as it stands, then followed.
  const read: ReadPage[] = [];
  for await (const page of readPages(deps.provider, remoteId, deps.now)) read.push(page);
  const shown = new Map<string, Item>(read.flatMap((p) => p.items.map((item): [string, Item] => [item.identifier, item])));
  const found = compareItems(await itemsOfBatch(deps.ledger, batch.id), shown);
  const followed = await reconcileBatch({ ledger: deps.ledger, provider: deps.provider, now: deps.now, instabilityWords: deps.provider.dialect.instabilityWords }, batch.id, read);
  return { batchId: batch.id, name: batch.name, remoteId, ...found, followed: followed.changed };
}
