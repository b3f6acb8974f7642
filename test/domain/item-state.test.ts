import { describe, expect, it } from 'vitest';
import { canTransition, claimedState, isForward, isSettled, ITEM_STATES, nextItemState, type ItemState } from '../../src/domain/item-state.js';

describe('item life cycle', () => {
  it.each<[ItemState, ItemState, boolean]>([
    ['resolved', 'submitted', true],
    ['submitted', 'processing', true],
    ['submitted', 'paid', true],
    ['processing', 'paid', true],
    ['processing', 'failed', true],
    ['paid', 'returned', true],
    ['paid', 'processing', false],
    ['paid', 'failed', false],
    ['failed', 'paid', false],
    ['returned', 'paid', false],
    ['resolved', 'paid', false],
  ])('%s → %s allowed: %s', (from, to, allowed) => {
    expect(canTransition(from, to)).toBe(allowed);
  });

  it('never moves an item backwards, whatever order the news arrives in', () => {
    for (const from of ITEM_STATES) {
      for (const to of ITEM_STATES) {
        if (isForward(from, to)) expect(isForward(to, from)).toBe(false);
      }
    }
    expect(isForward('paid', 'processing')).toBe(false);
    expect(isForward('processing', 'submitted')).toBe(false);
  });

  it('knows which states are settled', () => {
    expect(ITEM_STATES.filter(isSettled)).toEqual(['paid', 'failed', 'returned']);
  });
});

describe('nextItemState: one rule for news from events and from item pages', () => {
  // By default the provider's record last showed the item as the ledger has it.
  const standing = (status: ItemState, o: { undecided?: boolean; confirmed?: boolean; record?: ItemState | null } = {}) => ({
    status,
    undecided: o.undecided ?? false,
    returnConfirmed: o.confirmed ?? false,
    recordState: o.record === undefined ? status : o.record,
  });
  it.each([
    ['submitted', 'paid', 'event', {}, 'move'],
    ['submitted', 'paid', 'page', {}, 'move'],
    ['paid', 'returned', 'event', {}, 'move'],
    ['paid', 'submitted', 'page', {}, 'stay'],
    ['returned', 'paid', 'event', {}, 'stay'],
    ['paid', null, 'page', {}, 'stay'],
    // A claim never overrides: an event that contradicts the ledger changes nothing.
    ['failed', 'paid', 'event', { record: null }, 'stay'],
    ['paid', 'failed', 'event', { record: null }, 'stay'],
    // The provider's record contradicts the ledger: it wins, terminal states included.
    ['failed', 'paid', 'page', {}, 'correct'],
    ['paid', 'failed', 'page', {}, 'correct'],
    ['returned', 'paid', 'page', { confirmed: true }, 'correct'],
    // An outcome only a claim gave, which the record shows still in flight: the record wins; once the record showed
    // that outcome, a page showing the item in flight again is stale.
    ['failed', 'processing', 'page', { record: 'processing' }, 'correct'],
    ['paid', 'processing', 'page', { record: null }, 'correct'],
    ['failed', 'processing', 'page', { record: 'failed' }, 'stay'],
    ['paid', 'submitted', 'page', { record: 'paid' }, 'stay'],
    // A return only an event reported, which the provider's own page contradicts: the page wins.
    ['returned', 'paid', 'page', { confirmed: false }, 'undo'],
    // A return first seen in the pages (no reason): its refund event decides what it calls for.
    ['returned', 'returned', 'event', { undecided: true }, 'explain'],
    ['returned', 'returned', 'event', { undecided: false }, 'stay'],
    ['returned', 'returned', 'page', { undecided: true }, 'stay'],
    // So does the event of a failure first seen in the pages.
    ['failed', 'failed', 'event', { undecided: true }, 'explain'],
    ['failed', 'failed', 'event', { undecided: false }, 'stay'],
  ] as const)('%s + %s from the %s (%j) → %s', (from, to, source, o, expected) => {
    expect(nextItemState(standing(from, o), to, source)).toBe(expected);
  });
});

describe('claimedState: what a Pix event claims', () => {
  it.each<[string, ItemState | null, boolean, boolean, ItemState | null]>([
    // word's meaning, accepted, refund → claimed state
    ['paid and accepted', 'paid', true, false, 'paid'],
    ['accepted for processing is not paid', 'processing', true, false, 'processing'],
    ['still waiting, accepted', 'submitted', true, false, 'processing'],
    ['paid but not accepted contradicts itself', 'paid', false, false, null],
    ['failed', 'failed', false, false, 'failed'],
    ['failed, whatever the flag', 'failed', true, false, 'failed'],
    ['an unknown word, accepted, claims nothing', null, true, false, null],
    ['an unknown word, not accepted, is a failure', null, false, false, 'failed'],
    ['a refund', 'paid', true, true, 'returned'],
    ['a refund with an unknown word', null, true, true, 'returned'],
    ['a refund that itself failed returns nothing', 'failed', false, true, null],
    ['a refund still under way returns nothing yet', 'processing', true, true, null],
  ])('%s', (_label, said, accepted, isRefund, expected) => {
    expect(claimedState({ said, accepted, isRefund })).toBe(expected);
  });
});
