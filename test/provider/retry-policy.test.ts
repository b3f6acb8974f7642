import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay, isRetryableStatus, parseRetryAfter, planRetry, resolveRetrySettings } from '../../src/provider/retry-policy.js';

describe('backoffDelay (full jitter)', () => {
  it('always lies within [0, min(cap, base·2^n)] and is whole milliseconds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 0, max: 120_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (n, baseMs, capMs, r) => {
          const d = backoffDelay(n, { baseMs, capMs }, () => r);
          expect(Number.isInteger(d)).toBe(true);
          expect(d).toBeGreaterThanOrEqual(0);
          expect(d).toBeLessThanOrEqual(Math.min(capMs, baseMs * 2 ** n));
        },
      ),
    );
  });

  it('keeps the bound even for a random source that misbehaves', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.double(), (n, r) => {
        const d = backoffDelay(n, { baseMs: 100, capMs: 10_000 }, () => r);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(Math.min(10_000, 100 * 2 ** n));
      }),
    );
  });

  it('spans the whole window: 0 at random 0, the ceiling near random 1', () => {
    expect(backoffDelay(3, { baseMs: 100, capMs: 10_000 }, () => 0)).toBe(0);
    expect(backoffDelay(3, { baseMs: 100, capMs: 10_000 }, () => 0.999999)).toBe(799);
    expect(backoffDelay(20, { baseMs: 100, capMs: 10_000 }, () => 0.999999)).toBe(9_999);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-03-10T12:00:00Z');
  it.each([
    ['3', 3_000],
    ['0', 0],
    [' 120 ', 120_000],
    ['Mon, 10 Mar 2025 12:00:05 GMT', 5_000],
    ['Mon, 10 Mar 2025 11:00:00 GMT', 0],
    ['soon', null],
    ['-1', null],
    ['1.5', null],
    ['', null],
  ])('%j → %j', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });
  it('reads the first of repeated headers and handles absence', () => {
    expect(parseRetryAfter(['2', '9'], now)).toBe(2_000);
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});

describe('isRetryableStatus', () => {
  it.each([408, 429, 500, 502, 503, 504, 599])('%i is retryable', (s) => expect(isRetryableStatus(s)).toBe(true));
  it.each([200, 400, 401, 403, 404, 405, 409, 422, 501, 505])('%i is not', (s) => expect(isRetryableStatus(s)).toBe(false));
});

describe('planRetry', () => {
  const s = resolveRetrySettings({ attempts: 3, baseMs: 100, capMs: 1_000, maxRetryAfterMs: 5_000 });
  it('stops after the number of attempts', () => {
    expect(planRetry(0, s, () => 0.5, null)).toEqual({ retry: true, delayMs: 50 });
    expect(planRetry(1, s, () => 0.5, null)).toEqual({ retry: true, delayMs: 100 });
    expect(planRetry(2, s, () => 0.5, null)).toEqual({ retry: false, reason: 'gave up after 3 attempts' });
  });
  it('waits at least Retry-After, and refuses one beyond the limit', () => {
    expect(planRetry(0, s, () => 0.5, 2_000)).toEqual({ retry: true, delayMs: 2_000 });
    expect(planRetry(0, s, () => 0.5, 0)).toEqual({ retry: true, delayMs: 50 });
    const plan = planRetry(0, s, () => 0.5, 60_000);
    expect(plan.retry).toBe(false);
  });
  it('validates settings', () => {
    expect(() => resolveRetrySettings({ attempts: 0 })).toThrow(RangeError);
    expect(() => resolveRetrySettings({ capMs: -1 })).toThrow(RangeError);
    expect(resolveRetrySettings({ attempts: undefined }).attempts).toBe(5);
  });
});
