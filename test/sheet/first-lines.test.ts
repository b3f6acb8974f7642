import { describe, expect, it } from 'vitest';
import { FirstLines } from '../../src/sheet/first-lines.js';

const key = (...words: number[]): Int32Array => Int32Array.from(words);

describe('FirstLines', () => {
  it('answers null for a new key and the first line for a key seen before', () => {
    const lines = new FirstLines(2);
    expect(lines.firstLine(key(1, 2), 2)).toBeNull();
    expect(lines.firstLine(key(1, 3), 3)).toBeNull();
    expect(lines.firstLine(key(2, 2), 4)).toBeNull();
    expect(lines.firstLine(key(1, 2), 5)).toBe(2);
    expect(lines.firstLine(key(1, 2), 6)).toBe(2);
    expect(lines.firstLine(key(2, 2), 7)).toBe(4);
  });

  it('keeps every key and its first line while it grows, also keys that share their first words', () => {
    const lines = new FirstLines(4);
    // 5,000 UUID-like keys that differ only in the last word, as identifiers a system numbers in order.
    for (let i = 0; i < 5_000; i++) expect(lines.firstLine(key(0x3f2b8c4e, 0x5d6a4b7c, -0x7262d0f2, i), i + 2)).toBeNull();
    for (let i = 0; i < 5_000; i++) expect(lines.firstLine(key(0x3f2b8c4e, 0x5d6a4b7c, -0x7262d0f2, i), 9_000)).toBe(i + 2);
    expect(lines.firstLine(key(0x3f2b8c4e, 0x5d6a4b7c, -0x7262d0f1, 0), 9_001)).toBeNull();
    expect(lines.firstLine(key(0, 0, 0, 0), 9_002)).toBeNull();
    expect(lines.firstLine(key(0, 0, 0, 0), 9_003)).toBe(9_002);
  });
});
