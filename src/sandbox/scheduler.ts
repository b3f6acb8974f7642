import type { SimClock } from './clock.js';

/** Background work that knows when it is next due. */
export interface Job {
  /** Does what is due at simulated `now`; returns the simulated ms when more is due, or null for nothing yet. */
  runDue(now: number): number | null;
}

/** Longest real sleep between runs: a safety net, since every change that creates work calls wake(). */
const MAX_SLEEP_MS = 5_000;

/**
 * Runs the jobs when work falls due on the simulated clock: after each run it sleeps, in real time, until the
 * earliest next due time, and wake() runs it at once (coalesced). Errors are logged; the loop goes on.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly clock: SimClock,
    private readonly jobs: readonly Job[],
    private readonly log: (line: string) => void,
  ) {}

  wake(): void {
    this.schedule(0);
  }

  /** Runs the jobs now, synchronously. */
  runNow(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.run();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), Math.min(MAX_SLEEP_MS, Math.max(0, Math.ceil(delayMs))));
    this.timer.unref();
  }

  private run(): void {
    this.timer = null;
    let next: number | null = null;
    for (const job of this.jobs) {
      try {
        const due = job.runDue(this.clock.now());
        if (due !== null && (next === null || due < next)) next = due;
      } catch (error) {
        this.log(`background job failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
    }
    // A wake() during the run has already scheduled the next one, at once.
    if (!this.timer) this.schedule(next === null ? MAX_SLEEP_MS : this.clock.realDelayUntil(next));
  }
}
