import { describe, expect, it } from 'vitest';
import { inLists, insertRuns } from '../../src/ledger/chunks.js';

const sizes = <T>(runs: Iterable<T[]>) => [...runs].map((r) => r.length);
const numbers = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('multi-row statements', () => {
  it('take full runs, then the rest in power-of-two runs, every row once and in order', () => {
    expect(sizes(insertRuns(numbers(1100), 512))).toEqual([512, 512, 64, 8, 4]);
    expect(sizes(insertRuns(numbers(511), 512))).toEqual([256, 128, 64, 32, 16, 8, 4, 2, 1]);
    expect(sizes(insertRuns(numbers(0), 512))).toEqual([]);
    expect([...insertRuns(numbers(1100), 512)].flat()).toEqual(numbers(1100));
  });

  it('put at most 500 values in an IN list', () => {
    expect(sizes(inLists(numbers(1001)))).toEqual([500, 500, 1]);
    expect([...inLists(numbers(1001))].flat()).toEqual(numbers(1001));
  });
});
