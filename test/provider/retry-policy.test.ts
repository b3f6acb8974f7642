import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  isRetryableStatus,
  parseRetryAfter,
  planRetry,
  resolveRetrySettings,
  retrying,
  type RetrySettings,
  type RetryVerdict,
} from '../../src/provider/retry-policy.js';

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

describe('retrying (the one retry loop)', () => {
  const settings = resolveRetrySettings({ attempts: 3, baseMs: 100, capMs: 1_000, maxRetryAfterMs: 5_000 });
  /** What one attempt does: resolve, throw an error it marks retryable (with an optional Retry-After), or throw a plain one. */
  type Step = 'ok' | 'marked' | { marked: number } | 'plain' | 'string';
  interface Row {
    name: string;
    steps: Step[];
    settings?: Partial<RetrySettings>;
    classify?: (e: unknown) => RetryVerdict;
    noGiveUp?: boolean;
    result: string;
    attempts: number[];
    sleeps: number[];
    retries: string[];
  }
  const retryAll = (): RetryVerdict => ({ retry: true, retryAfterMs: null, reason: 'classified' });
  const rows: Row[] = [
    { name: 'a first success', steps: ['ok'], result: 'ok 1', attempts: [1], sleeps: [], retries: [] },
    { name: 'a marked failure, then a success', steps: ['marked', 'ok'], result: 'ok 2', attempts: [1, 2], sleeps: [50], retries: ['#2 after 50: marked 1'] },
    {
      name: 'marked failures until the attempts are spent',
      steps: ['marked', 'marked', 'marked', 'ok'],
      result: 'gave up (gave up after 3 attempts) on marked 3',
      attempts: [1, 2, 3],
      sleeps: [50, 100],
      retries: ['#2 after 50: marked 1', '#3 after 100: marked 2'],
    },
    { name: 'one attempt only', steps: ['marked', 'ok'], settings: { attempts: 1 }, result: 'gave up (gave up after 1 attempt) on marked 1', attempts: [1], sleeps: [], retries: [] },
    { name: 'without giveUp the error itself', steps: ['marked', 'marked', 'marked'], noGiveUp: true, result: 'threw marked 3', attempts: [1, 2, 3], sleeps: [50, 100], retries: ['#2 after 50: marked 1', '#3 after 100: marked 2'] },
    { name: 'Retry-After as the least wait', steps: [{ marked: 2_000 }, { marked: 0 }, 'ok'], result: 'ok 3', attempts: [1, 2, 3], sleeps: [2_000, 100], retries: ['#2 after 2000: marked 1', '#3 after 100: marked 2'] },
    {
      name: 'a Retry-After beyond the limit',
      steps: [{ marked: 6_000 }, 'ok'],
      result: 'gave up (the provider asked to wait 6 s (Retry-After), longer than the 5 s limit) on marked 1',
      attempts: [1],
      sleeps: [],
      retries: [],
    },
    { name: 'an unmarked failure, no classify', steps: ['plain', 'ok'], result: 'threw plain 1', attempts: [1], sleeps: [], retries: [] },
    { name: 'an unmarked failure that classify retries', steps: ['plain', 'string', 'ok'], classify: retryAll, result: 'ok 3', attempts: [1, 2, 3], sleeps: [50, 100], retries: ['#2 after 50: classified', '#3 after 100: classified'] },
    { name: 'classify giving up on a thrown string', steps: ['string', 'string', 'string'], classify: retryAll, result: 'gave up (gave up after 3 attempts) on string 3', attempts: [1, 2, 3], sleeps: [50, 100], retries: ['#2 after 50: classified', '#3 after 100: classified'] },
    { name: 'a mark wins over classify', steps: ['marked', 'ok'], classify: () => ({ retry: false }), result: 'ok 2', attempts: [1, 2], sleeps: [50], retries: ['#2 after 50: marked 1'] },
    { name: 'zero waits still sleep', steps: ['marked', 'ok'], settings: { baseMs: 0 }, result: 'ok 2', attempts: [1, 2], sleeps: [0], retries: ['#2 after 0: marked 1'] },
  ];
  it.each(rows)('$name', async (row) => {
    const attempts: number[] = [];
    const sleeps: number[] = [];
    const retries: string[] = [];
    const run = retrying(
      async ({ attempt, retryable }) => {
        attempts.push(attempt);
        const step = row.steps[attempt - 1];
        if (step === 'ok') return `ok ${attempt}`;
        if (step === 'plain') throw new Error(`plain ${attempt}`);
        if (step === 'string') throw `string ${attempt}`;
        const retryAfterMs = typeof step === 'object' ? step.marked : null;
        throw retryable(new Error(`marked ${attempt}`), { retryAfterMs, reason: `marked ${attempt}` });
      },
      {
        settings: { ...settings, ...row.settings },
        random: () => 0.5,
        sleep: async (ms) => {
          sleeps.push(ms);
        },
        ...(row.classify ? { classify: row.classify } : {}),
        onRetry: (r) => retries.push(`#${r.attempt} after ${r.delayMs}: ${r.reason}`),
        ...(row.noGiveUp ? {} : { giveUp: (e: unknown, why: string) => new Error(`gave up (${why}) on ${e instanceof Error ? e.message : String(e)}`) }),
      },
    );
    const result = await run.catch((e: unknown) => (e instanceof Error && e.message.startsWith('gave up') ? e.message : `threw ${e instanceof Error ? e.message : String(e)}`));
    expect({ result, attempts, sleeps, retries }).toEqual({ result: row.result, attempts: row.attempts, sleeps: row.sleeps, retries: row.retries });
  });

  it('passes the failure to onRetry, and keeps a mark within its own loop', async () => {
    const marked = new Error('inner');
    const seen: unknown[] = [];
    const options = { settings, random: () => 0, sleep: async () => {} };
    let outer = 0;
    const e = await retrying(async () => {
      outer++;
      // The inner loop marks its failure and gives up on it; the outer loop does not retry what it did not mark.
      return retrying(async ({ retryable }) => Promise.reject(retryable(marked, { retryAfterMs: null, reason: 'inner' })), { ...options, onRetry: (r) => seen.push(r.error) });
    }, options).catch((x: unknown) => x);
    expect(e).toBe(marked);
    expect(outer).toBe(1);
    expect(seen).toEqual([marked, marked]);
  });
});
