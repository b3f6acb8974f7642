/**
 * The life of a payment item in the ledger (DESIGN.md "Item life cycle"):
 * resolved → submitted → processing → paid | failed, and paid → returned. An item is written resolved (its key
 * looked up); rows the sheet or the lookup rule out never become items. (The first migration's CHECK also allows
 * `draft` and `rejected`, which nothing writes.)
 */
export const ITEM_STATES = ['resolved', 'submitted', 'processing', 'paid', 'failed', 'returned'] as const;
export type ItemState = (typeof ITEM_STATES)[number];

// How far along each state is; news that would lower the rank is stale (events arrive out of order).
const RANK: Record<ItemState, number> = { resolved: 1, submitted: 2, processing: 3, paid: 4, failed: 4, returned: 5 };

const NEXT: Record<ItemState, readonly ItemState[]> = {
  resolved: ['submitted'],
  submitted: ['processing', 'paid', 'failed'],
  processing: ['paid', 'failed'],
  paid: ['returned'],
  failed: [],
  returned: [],
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
  return state === 'paid' || state === 'failed' || state === 'returned';
}

/** What the ledger knows of an item that news is about. */
export interface ItemStanding {
  readonly status: ItemState;
  /** Unpaid (failed or returned) with no reason yet that says whether it may be paid again. */
  readonly undecided: boolean;
  /** The provider's own item page has shown the return (an event alone never confirms one). */
  readonly returnConfirmed: boolean;
  /** The state the provider's own item page last showed; null before any did. */
  readonly recordState: ItemState | null;
}

/**
 * What news of state `to` does to an item (the one rule for events and item pages alike). An event is a claim and
 * an item page is the provider's record:
 * - `move`: a forward move (events arrive out of order; news that would go back is stale);
 * - `explain`: an event for a failure or a return first seen in the item pages, which gave no reason: its reason decides;
 * - `undo`: the provider's own page shows paid an item that only an event reported returned: the page wins;
 * - `correct`: the page contradicts the ledger otherwise — it shows another outcome, or shows in flight an item
 *   whose outcome only an event claimed: the page wins, from any state, and the correction is alerted;
 * - `stay`: nothing to change in the state.
 */
export function nextItemState(item: ItemStanding, to: ItemState | null, from: 'event' | 'page'): 'move' | 'explain' | 'undo' | 'correct' | 'stay' {
  if (to === null) return 'stay';
  if (from === 'page' && item.status === 'returned' && !item.returnConfirmed && to === 'paid') return 'undo';
  if (from === 'event' && (to === 'returned' || to === 'failed') && item.status === to && item.undecided) return 'explain';
  if (to === item.status) return 'stay';
  if (isForward(item.status, to)) return 'move';
  if (from === 'page' && (isSettled(to) || (isSettled(item.status) && item.recordState !== item.status))) return 'correct';
  return 'stay';
}

/** What a Pix event says of its payment: its status word (read through the profile) and its flags. */
export interface PixClaim {
  /** The state the event's status word means (`itemStateFromWord`), null for a word nobody knows. */
  readonly said: ItemState | null;
  readonly accepted: boolean;
  readonly isRefund: boolean;
}

/**
 * The state a Pix event claims for its item, or null when it claims nothing the ledger can take. The status word
 * decides; `transactionAccepted` only confirms it: "accepted" also means accepted for processing, so an event whose
 * word says processing moves the item to processing, never to paid, and an unknown word with "accepted" claims
 * nothing (the item pages say what happened). A word that says paid while the event says not accepted contradicts
 * itself: nothing. A refund is a return unless its word says the refund itself failed or is still under way.
 */
export function claimedState(claim: PixClaim): ItemState | null {
  const { said, accepted, isRefund } = claim;
  if (isRefund) return said === 'failed' || said === 'processing' || said === 'submitted' ? null : 'returned';
  if (said === 'paid') return accepted ? 'paid' : null;
  if (said === 'submitted' || said === 'processing') return 'processing';
  if (said === 'failed' || said === 'returned') return said;
  return accepted ? null : 'failed';
}
