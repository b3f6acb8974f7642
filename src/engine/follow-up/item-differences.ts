import type { ItemRow } from '../../ledger/item-repository.js';
import type { FoundDifference } from '../../ledger/record-differences.js';
import type { Item } from '../../provider/types.js';

/** Count and centavos of the items in one state. */
export interface Tally {
  readonly count: number;
  readonly cents: number;
}

/** The ledger's items of a batch beside the provider's record of them. */
export interface ItemComparison {
  /** By the ledger's state, and by the provider's (its word when paybatch knows none). */
  readonly ledger: Readonly<Record<string, Tally>>;
  readonly provider: Readonly<Record<string, Tally>>;
  /** Item by item: state, amount, Pix id, end-to-end id, and items only one side holds. */
  readonly differences: readonly FoundDifference[];
}

/** Compares a batch's ledger items with the items its pages show (by identifier). Pure. */
export function compareItems(local: readonly ItemRow[], shown: ReadonlyMap<string, Item>): ItemComparison {
  const differences: FoundDifference[] = [];
  const ledger: Record<string, Tally> = {};
  const provider: Record<string, Tally> = {};
  for (const item of local) {
    add(ledger, item.status, item.amount_cents);
    const remote = shown.get(item.identifier);
    const diff = (field: FoundDifference['field'], l: FoundDifference['ledger'], p: FoundDifference['provider']) =>
      differences.push({ identifier: item.identifier, line: item.line, field, ledger: l, provider: p });
    if (!remote) {
      diff('presence', item.status, null);
      continue;
    }
    if (remote.state !== item.status) diff('status', item.status, remote.state ?? remote.status);
    if (remote.amountCents !== item.amount_cents) diff('amount', item.amount_cents, remote.amountCents);
    if (remote.pixId !== undefined && item.pix_id !== null && remote.pixId !== item.pix_id) diff('pixId', item.pix_id, remote.pixId);
    if (remote.endToEndId !== undefined && item.end_to_end_id !== null && remote.endToEndId !== item.end_to_end_id) diff('endToEndId', item.end_to_end_id, remote.endToEndId);
  }
  const held = new Set(local.map((i) => i.identifier));
  for (const remote of shown.values()) {
    add(provider, remote.state ?? remote.status, remote.amountCents);
    if (!held.has(remote.identifier)) differences.push({ identifier: remote.identifier, line: null, field: 'presence', ledger: null, provider: remote.state ?? remote.status });
  }
  return { ledger, provider, differences };
}

function add(tally: Record<string, Tally>, state: string, cents: number): void {
  const t = tally[state] ?? { count: 0, cents: 0 };
  tally[state] = { count: t.count + 1, cents: t.cents + cents };
}
