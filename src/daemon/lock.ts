import { hostname } from 'node:os';
import { PaybatchError } from '../errors.js';
import { beatDaemonLock, releaseDaemonLock, takeDaemonLock } from '../ledger/daemon-lock-store.js';
import type { Ledger } from '../ledger/open-ledger.js';
import { processAlive } from '../ledger/process-claim.js';

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
