import { describe, expect, it } from 'vitest';
import { SimClock, type ClockAnchor } from '../../src/sandbox/clock.js';

describe('SimClock', () => {
  it('runs at its speed from the start time and saves its anchor', () => {
    let real = 1_000_000;
    const saved: ClockAnchor[] = [];
    const clock = SimClock.resume(null, { speed: 60, startMs: 5_000, realNow: () => real, save: (a) => saved.push(a) });
    expect(clock.now()).toBe(5_000);
    real += 1_000;
    expect(clock.now()).toBe(65_000);
    expect(clock.realDelayUntil(125_000)).toBe(1_000);
    clock.advance(10_000);
    expect(clock.now()).toBe(75_000);
    expect(saved.at(-1)).toEqual({ simMs: 75_000, realMs: 1_001_000, speed: 60 });
  });

  it('resumes as if the time it was down had passed at the old speed, then runs at the new one', () => {
    let real = 2_000;
    const clock = SimClock.resume({ simMs: 10_000, realMs: 1_000, speed: 100 }, { speed: 1, realNow: () => real });
    expect(clock.now()).toBe(110_000);
    real += 500;
    expect(clock.now()).toBe(110_500);
    expect(() => clock.advance(-1)).toThrow(RangeError);
  });
});
