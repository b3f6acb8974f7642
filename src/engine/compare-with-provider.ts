import type { ItemState } from '../domain/item-state.js';
import type { BatchRow } from '../ledger/batch-repository.js';
import { itemsOfBatch } from '../ledger/item-repository.js';
import type { Ledger } from '../ledger/open-ledger.js';
import type { ProviderClient } from '../provider/client.js';
import type { Item } from '../provider/types.js';
import { reconcileBatch } from './reconcile.js';

/** Count and centavos of the items in one state. */
export interface Tally {
  readonly count: number;
  readonly cents: number;
}

/** One way the ledger and the provider's record disagree about an item. */
export interface Difference {
  readonly identifier: string;
  readonly line: number | null;
  readonly field: 'status' | 'amount' | 'pixId' | 'endToEndId' | 'presence';
  /** As the ledger has it; null: the ledger does not hold the item (or the field). */
  readonly ledger: string | number | null;
  /** As the provider's item pages show it; null: the provider does not show the item (or the field). */
  readonly provider: string | number | null;
}

export interface BatchComparison {
  readonly batchId: number;
  readonly name: string;
  readonly remoteId: string;
  /** By state before the ledger followed the record, and by the provider's state (its word when paybatch knows none). */
  readonly ledger: Readonly<Record<string, Tally>>;
  readonly provider: Readonly<Record<string, Tally>>;
  readonly differences: readonly Difference[];
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
 * follows the record (reconcileBatch: every correction kept for its alert), so a second run finds them agreeing
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
  const remote = new Map<string, Item>();
  for await (const page of deps.provider.items(remoteId)) for (const item of page) remote.set(item.identifier, item);
  const local = await itemsOfBatch(deps.ledger, batch.id);
  const differences: Difference[] = [];
  const ledgerTally: Record<string, Tally> = {};
  const providerTally: Record<string, Tally> = {};
  for (const item of local) {
    add(ledgerTally, item.status, item.amount_cents);
    const shown = remote.get(item.identifier);
    const diff = (field: Difference['field'], ledger: Difference['ledger'], provider: Difference['provider']) =>
      differences.push({ identifier: item.identifier, line: item.line, field, ledger, provider });
    if (!shown) {
      diff('presence', item.status, null);
      continue;
    }
    const state: ItemState | null = shown.state;
    if (state !== item.status) diff('status', item.status, state ?? shown.status);
    if (shown.amountCents !== item.amount_cents) diff('amount', item.amount_cents, shown.amountCents);
    if (shown.pixId !== undefined && item.pix_id !== null && shown.pixId !== item.pix_id) diff('pixId', item.pix_id, shown.pixId);
    if (shown.endToEndId !== undefined && item.end_to_end_id !== null && shown.endToEndId !== item.end_to_end_id) diff('endToEndId', item.end_to_end_id, shown.endToEndId);
  }
  const held = new Set(local.map((i) => i.identifier));
  for (const shown of remote.values()) {
    add(providerTally, shown.state ?? shown.status, shown.amountCents);
    if (!held.has(shown.identifier)) differences.push({ identifier: shown.identifier, line: null, field: 'presence', ledger: null, provider: shown.state ?? shown.status });
  }
  const followed = await reconcileBatch({ ledger: deps.ledger, provider: deps.provider, now: deps.now, instabilityWords: deps.provider.dialect.instabilityWords }, batch.id);
  return { batchId: batch.id, name: batch.name, remoteId, ledger: ledgerTally, provider: providerTally, differences, followed: followed.changed };
}

function add(tally: Record<string, Tally>, state: string, cents: number): void {
  const t = tally[state] ?? { count: 0, cents: 0 };
  tally[state] = { count: t.count + 1, cents: t.cents + cents };
}
