/** Where the simulated clock stood at a real instant, and how fast it runs; persisted in the state file. */
export interface ClockAnchor {
  /** Simulated time, ms since the epoch. */
  readonly simMs: number;
  /** Real time of that reading, ms since the epoch. */
  readonly realMs: number;
  /** Simulated seconds per real second. */
  readonly speed: number;
}

/**
 * The sandbox's simulated clock: simulated now = anchor.simMs + (real elapsed) × speed. Every delay of the
 * sandbox (processing, webhook backoff, bill windows and returns) is measured on it.
 */
export class SimClock {
  private anchor: ClockAnchor;

  constructor(
    anchor: ClockAnchor,
    private readonly realNow: () => number = Date.now,
    private readonly save: (anchor: ClockAnchor) => void = () => {},
  ) {
    this.anchor = anchor;
  }

  /**
   * The clock of a state file: a new one starts at `startMs` (or the real now); a saved one continues as if the
   * real time since its last reading had passed at its old speed, and runs at `speed` from now on.
   */
  static resume(saved: ClockAnchor | null, o: { speed: number; startMs?: number; realNow?: () => number; save?: (a: ClockAnchor) => void }): SimClock {
    const realNow = o.realNow ?? Date.now;
    const real = realNow();
    const simMs = saved ? saved.simMs + (real - saved.realMs) * saved.speed : (o.startMs ?? real);
    const clock = new SimClock({ simMs: Math.round(simMs), realMs: real, speed: o.speed }, realNow, o.save);
    clock.save(clock.anchor);
    return clock;
  }

  get speed(): number {
    return this.anchor.speed;
  }

  /** Simulated now, ms since the epoch. */
  now(): number {
    return Math.round(this.anchor.simMs + (this.realNow() - this.anchor.realMs) * this.anchor.speed);
  }

  /** Moves simulated time forward by `ms` (tests use it to reach bill windows and returns at once). */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`can only advance by a non-negative time, got ${ms}`);
    const real = this.realNow();
    this.anchor = { simMs: this.now() + ms, realMs: real, speed: this.anchor.speed };
    this.save(this.anchor);
  }

  /** Real milliseconds until the simulated clock reaches `simMs` (0 when already there). */
  realDelayUntil(simMs: number): number {
    return Math.max(0, (simMs - this.now()) / this.anchor.speed);
  }
}
