import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUuid } from '../../src/domain/uuid.js';

// The shape as a regular expression: the reference the character-by-character check must agree with.
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

describe('isUuid', () => {
  it.each([
    ['123e4567-e89b-12d3-a456-426614174000', true],
    ['123E4567-E89B-42D3-A456-42661417400F', true],
    ['00000000-0000-0000-0000-000000000000', true],
    ['123e4567e89b12d3a456426614174000', false],
    ['123e4567-e89b-12d3-a456-42661417400', false],
    ['123e4567-e89b-12d3-a456-4266141740000', false],
    ['123e4567-e89b-12d3-a456-42661417400g', false],
    ['123e4567-e89b-12d3a-456-426614174000', false],
    ['123e4567_e89b_12d3_a456_426614174000', false],
    ['123e4567-e89b-12d3-a456-426614174000\n', false],
    [' 23e4567-e89b-12d3-a456-426614174000', false],
    ['１23e4567-e89b-12d3-a456-426614174000', false],
  ])('%s → %s', (text, expected) => {
    expect(isUuid(text)).toBe(expected);
  });

  it('agrees with the regular expression on UUIDs and near-UUIDs', () => {
    const near = fc.tuple(fc.uuid(), fc.nat(35), fc.constantFrom('-', 'g', 'G', 'A', 'f', '0', ' ', 'é', 'ａ', '')).map(([u, at, c]) => u.slice(0, at) + c + u.slice(at + 1));
    fc.assert(fc.property(fc.oneof(fc.uuid(), fc.uuid().map((u) => u.toUpperCase()), near, fc.string()), (text) => {
      expect(isUuid(text)).toBe(UUID_SHAPE.test(text));
    }), { numRuns: 2_000 });
  });
});
