import { hostname } from 'node:os';
import { PaybatchError } from '../errors.js';
import { beatDaemonLock, daemonLockHolder, releaseDaemonLock, takeDaemonLock } from '../ledger/daemon-lock-store.js';
import type { Ledger } from '../ledger/open-ledger.js';
import { holderEndedHere, processAlive } from '../ledger/process-claim.js';
import { unexpiredLeases } from '../ledger/work-lease-store.js';

/** A holder that has not beaten for this long is presumed dead (another host cannot check its pid). */
const STALE_HEARTBEAT_MS = 2 * 60_000;
/** Beats are durable writes: one every 10 s is plenty against a 2-minute staleness, whatever the pass interval. */
const HEARTBEAT_EVERY_MS = 10_000;

export interface DaemonLock {
  heartbeat(): Promise<void>;
  release(): Promise<void>;
}

/**
 * Takes the ledger's single daemon lock, or fails naming who holds it. A holder whose process is gone (same host)
 * or whose heartbeat is old (another host) is replaced. The check and the take are one SQLite transaction.
 */
export async function acquireDaemonLock(ledger: Ledger, now: () => Date, pid = process.pid, host = hostname()): Promise<DaemonLock> {
  await takeDaemonLock(ledger, {
    pid,
    host,
    at: now(),
    mayTake: (holder) => {
      if (holder && holder.pid !== pid && isAlive(holder, host, now())) {
        throw new PaybatchError(`Another paybatch daemon holds this ledger: pid ${holder.pid} on ${holder.host}, since ${holder.started_at}.`, {
          hint: 'Run one daemon per ledger; stop the other one first (SIGTERM), or use another --ledger.',
          reason: { code: 'daemon_running', pid: holder.pid, host: holder.host, since: holder.started_at },
        });
      }
    },
  });
  let lastBeat = now().getTime();
  return {
    heartbeat: async () => {
      const at = now();
      if (at.getTime() - lastBeat < HEARTBEAT_EVERY_MS) return;
      lastBeat = at.getTime();
      await beatDaemonLock(ledger, pid, at);
    },
    release: () => releaseDaemonLock(ledger, pid),
  };
}

function isAlive(holder: { pid: number; host: string; heartbeat_at: string }, host: string, now: Date): boolean {
  if (holder.host === host) return processAlive(holder.pid);
  return now.getTime() - Date.parse(holder.heartbeat_at) < STALE_HEARTBEAT_MS;
}

/** A daemon at work on a ledger: what it holds, for a person to find it. */
export type LedgerHolder =
  | { readonly kind: 'lock'; readonly pid: number; readonly host: string; readonly since: string }
  | { readonly kind: 'lease'; readonly holder: string; readonly work: string; readonly until: string };

/**
 * The daemons holding the ledger now: the lock's holder while it lives (by its pid on this host, by its heartbeat
 * from another), and every unexpired lease of a holder not known to have ended. Empty: no daemon is writing to it.
 */
export async function daemonsHolding(ledger: Ledger, now: Date, host = hostname()): Promise<LedgerHolder[]> {
  const holders: LedgerHolder[] = [];
  const lock = await daemonLockHolder(ledger);
  if (lock && lock.pid !== process.pid && isAlive(lock, host, now)) holders.push({ kind: 'lock', pid: lock.pid, host: lock.host, since: lock.started_at });
  for (const lease of await unexpiredLeases(ledger, now)) {
    if (!holderEndedHere(lease.holder, host)) holders.push({ kind: 'lease', holder: lease.holder, work: lease.name, until: lease.expires_at });
  }
  return holders;
}
