/** How many times and how long the client retries a call that may be retried. All durations in milliseconds. */
export interface RetrySettings {
  /** Attempts in total, the first one included (1 = no retry). */
  readonly attempts: number;
  readonly baseMs: number;
  readonly capMs: number;
  /** A Retry-After longer than this is not waited for: the call fails and says how long the provider asked for. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetrySettings = Object.freeze({ attempts: 5, baseMs: 250, capMs: 10_000, maxRetryAfterMs: 60_000 });

/** Settings from partial options; throws RangeError for a negative, fractional-attempt or non-finite value. */
export function resolveRetrySettings(o: Partial<RetrySettings> | undefined): RetrySettings {
  const s = { ...DEFAULT_RETRY, ...stripUndefined(o ?? {}) };
  if (!Number.isSafeInteger(s.attempts) || s.attempts < 1) throw new RangeError(`retry.attempts must be an integer ≥ 1, got ${s.attempts}`);
  for (const k of ['baseMs', 'capMs', 'maxRetryAfterMs'] as const) {
    if (!Number.isFinite(s[k]) || s[k] < 0) throw new RangeError(`retry.${k} must be a number ≥ 0, got ${s[k]}`);
  }
  return s;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Capped exponential backoff with full jitter: a whole number of milliseconds drawn uniformly from
 * [0, min(capMs, baseMs·2^retry)], where `retry` is 0 before the first retry, 1 before the second, and so on.
 * `random` returns [0, 1); values outside are clamped, so the bound holds for any injected source.
 */
export function backoffDelay(retry: number, s: Pick<RetrySettings, 'baseMs' | 'capMs'>, random: () => number): number {
  const ceiling = Math.min(s.capMs, s.baseMs * 2 ** Math.max(0, retry));
  const r = random();
  const unit = Number.isFinite(r) ? Math.min(1, Math.max(0, r)) : 0;
  return Math.floor(unit * ceiling);
}

/**
 * Reads a Retry-After header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date, relative to `nowMs`.
 * Returns milliseconds (0 for a date in the past), or null when absent or unreadable.
 */
export function parseRetryAfter(header: string | string[] | undefined, nowMs: number): number | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // Only something that looks like a date: Date.parse would read a bare "12" as a year.
  if (!/[a-z]/i.test(value)) return null;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}

/** Statuses worth another attempt for a call that may be repeated: 408, 429 and 5xx except 501 and 505 (permanent). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);
}

export type RetryPlan = { readonly retry: true; readonly delayMs: number } | { readonly retry: false; readonly reason: string };

/**
 * Decides whether a failed attempt of a repeatable call gets another one, and after how long.
 * `retriesDone` counts the retries already made (0 after the first attempt). A Retry-After is honoured as the
 * least wait; the jittered backoff may make it longer.
 */
export function planRetry(retriesDone: number, s: RetrySettings, random: () => number, retryAfterMs: number | null): RetryPlan {
  if (retriesDone + 1 >= s.attempts) return { retry: false, reason: `gave up after ${s.attempts} attempt${s.attempts === 1 ? '' : 's'}` };
  if (retryAfterMs !== null && retryAfterMs > s.maxRetryAfterMs) {
    return { retry: false, reason: `the provider asked to wait ${Math.ceil(retryAfterMs / 1000)} s (Retry-After), longer than the ${Math.round(s.maxRetryAfterMs / 1000)} s limit` };
  }
  const jitter = backoffDelay(retriesDone, s, random);
  return { retry: true, delayMs: retryAfterMs === null ? jitter : Math.max(retryAfterMs, jitter) };
}

/** Whether a failed attempt is worth another: with the least wait the provider asked for, and a reason for `onRetry`. */
export type RetryVerdict =
  | { readonly retry: false }
  | { readonly retry: true; readonly retryAfterMs: number | null; readonly reason: string };

export const NO_RETRY: RetryVerdict = Object.freeze({ retry: false });

/** What an attempt of `retrying` is told. */
export interface RetryContext {
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  readonly attempt: number;
  /**
   * Marks `e` as a failure worth another attempt (after at least `retryAfterMs`) and returns it, to be thrown:
   * `throw retryable(failure, { retryAfterMs, reason })`. Only the attempt that threw an error knows where it came
   * from; a mark holds for this loop only, so an error marked by an inner loop is not retried again by an outer one.
   */
  retryable<E extends object>(e: E, how: { readonly retryAfterMs: number | null; readonly reason: string }): E;
}

export interface RetryLoopOptions {
  readonly settings: RetrySettings;
  readonly random: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** The verdict on a failure the attempt did not mark as retryable; by default none is retried. */
  readonly classify?: (e: unknown) => RetryVerdict;
  /** Called before each wait; `attempt` is the number of the attempt to come (2 before the first retry). */
  readonly onRetry?: (r: { readonly attempt: number; readonly delayMs: number; readonly reason: string; readonly error: unknown }) => void;
  /** The error thrown when a retryable failure gets no other attempt (`why`: attempts spent, Retry-After too long); `e` itself by default. */
  readonly giveUp?: (e: unknown, why: string) => unknown;
}

/**
 * The one retry loop: runs `attempt` until it resolves, or until it throws a failure that is not retryable (thrown
 * as is) or that `planRetry` gives no other attempt (thrown through `giveUp`). Between attempts it calls `onRetry`,
 * then sleeps the planned delay: capped exponential backoff with full jitter, at least the Retry-After.
 */
export async function retrying<T>(attempt: (ctx: RetryContext) => Promise<T>, o: RetryLoopOptions): Promise<T> {
  const marked = new WeakMap<object, RetryVerdict>();
  const retryable: RetryContext['retryable'] = (e, how) => {
    marked.set(e, { retry: true, retryAfterMs: how.retryAfterMs, reason: how.reason });
    return e;
  };
  for (let retries = 0; ; retries++) {
    try {
      return await attempt({ attempt: retries + 1, retryable });
    } catch (e) {
      const verdict = (typeof e === 'object' && e !== null ? marked.get(e) : undefined) ?? o.classify?.(e) ?? NO_RETRY;
      if (!verdict.retry) throw e;
      const plan = planRetry(retries, o.settings, o.random, verdict.retryAfterMs);
      if (!plan.retry) throw o.giveUp ? o.giveUp(e, plan.reason) : e;
      o.onRetry?.({ attempt: retries + 2, delayMs: plan.delayMs, reason: verdict.reason, error: e });
      await o.sleep(plan.delayMs);
    }
  }
}
