import { describe, expect, it } from 'vitest';
import { canTransition, isForward, isSettled, ITEM_STATES, type ItemState } from '../../src/domain/item-state.js';

describe('item life cycle', () => {
  it.each<[ItemState, ItemState, boolean]>([
    ['draft', 'resolved', true],
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
    ['rejected', 'submitted', false],
    ['draft', 'paid', false],
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
    expect(ITEM_STATES.filter(isSettled)).toEqual(['paid', 'failed', 'returned', 'rejected']);
  });
});
