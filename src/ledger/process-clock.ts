import type { Ledger } from './ledger.js';

/** How far the ledger's clock is ahead of this host's (negative: behind), and how long asking took. */
export interface ClockReading {
  readonly offsetMs: number;
  readonly roundTripMs: number;
}

/**
 * Reads the ledger's clock against this host's: the offset assumes the answer was made halfway through the round
 * trip, so it is right to within half of it. An SQLite ledger's clock is this host's: offset 0.
 */
async function readLedgerClock(ledger: Ledger): Promise<ClockReading> {
  if (ledger.dialect === 'sqlite') return { offsetMs: 0, roundTripMs: 0 };
  // Imported here: this module loads at every start (cli/context.ts), kysely only once a ledger opens.
  const { readLedgerTime } = await import('./ledger-clock.js');
  const asked = Date.now();
  const now = await readLedgerTime(ledger, new Date(asked));
  const answered = Date.now();
  return { offsetMs: Date.parse(now) - (asked + answered) / 2, roundTripMs: answered - asked };
}

/** A host clock this far off the ledger's is corrected (below it, the difference decides nothing a lease does). */
const CORRECT_FROM_MS = 1_000;
/** A host clock this far off the ledger's is reported: at start, and in the daemon's `/healthz`. */
const REPORT_SKEW_FROM_MS = 2_000;

/**
 * This process's time by the ledger's clock: `base` (this host's clock, or a test's) moved by how far the ledger's
 * clock is from this host's, as last read (`sync`). Every timestamp paybatch writes and compares with what other
 * hosts wrote (updates, alerts, "no news for 2 h") is taken from it; leases and claims are judged by the database's
 * clock in the statement itself (ledgerTime). The offset is measured against this host's real clock, never `base`,
 * so an injected test clock stays where the test put it.
 */
export class LedgerClock {
  #offsetMs = 0;
  #reading: ClockReading | null = null;

  constructor(private readonly base: () => Date = () => new Date()) {}

  readonly now = (): Date => new Date(this.base().getTime() + this.#offsetMs);

  /** The last reading of the ledger's clock; null before any (and on SQLite, whose clock is this host's). */
  get reading(): ClockReading | null {
    return this.#reading;
  }

  /** Reads the ledger's clock again and corrects by it; returns the reading. */
  async sync(ledger: Ledger): Promise<ClockReading> {
    const reading = await readLedgerClock(ledger);
    this.#reading = ledger.dialect === 'sqlite' ? null : reading;
    this.#offsetMs = Math.abs(reading.offsetMs) >= CORRECT_FROM_MS ? Math.round(reading.offsetMs) : 0;
    return reading;
  }
}

/** True when this host's clock is far enough off the ledger's to say so. */
export const skewed = (r: ClockReading | null): r is ClockReading => r !== null && Math.abs(r.offsetMs) >= REPORT_SKEW_FROM_MS;
