/**
 * The life of a payment item in the ledger (DESIGN.md "Item life cycle"):
 * draft → resolved → submitted → processing → paid | failed, and paid → returned.
 * `rejected` rows never leave the ledger.
 */
export const ITEM_STATES = ['draft', 'resolved', 'submitted', 'processing', 'paid', 'failed', 'returned', 'rejected'] as const;
export type ItemState = (typeof ITEM_STATES)[number];

// How far along each state is; news that would lower the rank is stale (events arrive out of order).
const RANK: Record<ItemState, number> = { draft: 0, rejected: 0, resolved: 1, submitted: 2, processing: 3, paid: 4, failed: 4, returned: 5 };

const NEXT: Record<ItemState, readonly ItemState[]> = {
  draft: ['resolved', 'rejected'],
  resolved: ['submitted', 'rejected'],
  submitted: ['processing', 'paid', 'failed'],
  processing: ['paid', 'failed'],
  paid: ['returned'],
  failed: [],
  returned: [],
  rejected: [],
};

/** True when an item in `from` may move to `to`; staying in place is not a transition. */
export function canTransition(from: ItemState, to: ItemState): boolean {
  return NEXT[from].includes(to) || (from === 'submitted' && to === 'returned') || (from === 'processing' && to === 'returned');
}

/** Whether news of `to` should be applied to an item in `from`: only forward moves, never backwards. */
export function isForward(from: ItemState, to: ItemState): boolean {
  return RANK[to] > RANK[from] && canTransition(from, to);
}

/** Nothing more will happen to an item in this state without a new attempt. */
export function isSettled(state: ItemState): boolean {
  return state === 'paid' || state === 'failed' || state === 'returned' || state === 'rejected';
}
