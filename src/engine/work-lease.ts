import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { PaybatchError } from '../errors.js';
import type { Ledger } from '../ledger/ledger.js';
import { leaseHeld, releaseLease, renewLease, takeLease, type HeldLease } from '../ledger/work-lease-store.js';

/**
 * A lease lasts this long unless renewed (the `leaseTime` setting): the work of a daemon that died, paused or was cut
 * off on another host is taken over after it (one that died on this host, at once: see holderEndedHere).
 */
const LEASE_MS = 60_000;

/** This process as a lease holder: host, pid and a random tag (a pid reused after a restart is another holder). */
export const LEASE_HOLDER = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/** The work under a lease was stopped: the lease was lost (a pause, a partition) and another daemon may do it. */
export class LeaseLost extends PaybatchError {
  constructor(readonly lease: string) {
    super(`the lease on ${lease} was lost (this daemon paused or was cut off past it); another daemon takes that work over`);
  }
}

/** What work under a lease checks before each write: that this take of the lease still holds. */
export interface LeaseFence {
  /** Throws LeaseLost unless the lease holds; inside the transaction that writes, it fences the write. */
  check(tx: Ledger): Promise<void>;
}

/** Work not under a lease (SQLite: one daemon, under the ledger's daemon lock): nothing to check. */
const UNFENCED: LeaseFence = { check: async () => {} };

export interface LeaseOptions {
  readonly holder?: string;
  readonly leaseMs?: number;
  /**
   * Whether the work can progress (the provider answers): while it cannot, the lease is not renewed, so that it runs
   * out and another host can try. Unset: always.
   */
  readonly progressing?: () => boolean;
}

/**
 * Runs `fn` while holding the lease `name`, renewed while it runs (and progresses), released after; returns null
 * without running it when another daemon holds the lease. `fn` gets the lease's fence for its writes. Only a
 * PostgreSQL ledger is shared by several daemons: on SQLite `fn` just runs.
 */
export async function withLease<T>(ledger: Ledger, name: string, now: () => Date, fn: (fence: LeaseFence) => Promise<T>, o: LeaseOptions = {}): Promise<T | null> {
  if (ledger.dialect === 'sqlite') return fn(UNFENCED);
  const leaseMs = o.leaseMs ?? LEASE_MS;
  const lease = await takeLease(ledger, name, o.holder ?? LEASE_HOLDER, leaseMs, now());
  if (!lease) return null;
  // A renewal or release that fails (the database away) lets the lease expire: another daemon takes the work over.
  const renewal = setInterval(() => {
    if (o.progressing?.() ?? true) void renewLease(ledger, lease, leaseMs, now()).catch(() => {});
  }, leaseMs / 3);
  renewal.unref();
  try {
    return await fn(fenceOf(lease, now));
  } finally {
    clearInterval(renewal);
    await releaseLease(ledger, lease, now()).catch(() => {});
  }
}

function fenceOf(lease: HeldLease, now: () => Date): LeaseFence {
  return {
    check: async (tx) => {
      if (!(await leaseHeld(tx, lease, now()))) throw new LeaseLost(lease.name);
    },
  };
}
