import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Ledger } from '../ledger/ledger.js';
import { releaseLease, renewLease, takeLease } from '../ledger/work-lease-store.js';

/**
 * A lease lasts this long unless renewed: the work of a daemon that died on another host is taken over after it (one
 * that died on this host, at once: see holderEndedHere).
 */
const LEASE_MS = 60_000;

/** This process as a lease holder: host, pid and a random tag (a pid reused after a restart is another holder). */
export const LEASE_HOLDER = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/**
 * Runs `fn` while holding the lease `name`, renewed while it runs, released after; returns null without running it
 * when another daemon holds the lease. Only a PostgreSQL ledger is shared by several daemons: on SQLite (one daemon,
 * under the ledger's daemon lock) `fn` just runs.
 */
export async function withLease<T>(ledger: Ledger, name: string, now: () => Date, fn: () => Promise<T>, holder = LEASE_HOLDER): Promise<T | null> {
  if (ledger.dialect === 'sqlite') return fn();
  const until = () => new Date(now().getTime() + LEASE_MS);
  if (!(await takeLease(ledger, name, holder, now(), until()))) return null;
  // A renewal or release that fails (the database away) lets the lease expire: another daemon takes the work over.
  const renewal = setInterval(() => void renewLease(ledger, name, holder, until()).catch(() => {}), LEASE_MS / 3);
  renewal.unref();
  try {
    return await fn();
  } finally {
    clearInterval(renewal);
    await releaseLease(ledger, name, holder).catch(() => {});
  }
}
