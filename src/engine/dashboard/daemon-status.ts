import { hostname } from 'node:os';
import { daemonsOfHosts, type DaemonPassRow } from '../../ledger/daemon-pass-store.js';
import { startedBatchCount } from '../../ledger/dashboard-store.js';
import type { Ledger } from '../../ledger/ledger.js';
import { processAlive } from '../../ledger/process-claim.js';

/** A daemon counts as late, and one of another host as gone, when it has not passed for this many intervals… */
const PASSES_MISSED = 3;
/** …and never sooner than this (the daemon lock's rule for a holder on another host: daemon/lock.ts). */
const STALE_MIN_MS = 2 * 60_000;

/** A daemon running now, as the dashboard tells it. */
export interface DaemonSeen {
  readonly host: string;
  readonly pid: number;
  /** Seconds between its passes. */
  readonly intervalSeconds: number;
  readonly startedAt: string;
  /** When its host last finished a pass (ISO instant); null before any. */
  readonly lastPassAt: string | null;
}

export interface DaemonStatus {
  /** Some daemon follows the payments now. */
  readonly running: boolean;
  readonly daemons: readonly DaemonSeen[];
  /** The newest pass of any daemon, running or not, and whether it was one pass and out (`daemon --once`, cron). */
  readonly lastPassAt: string | null;
  readonly lastPassOnce: boolean;
  /** Seconds from the last pass to now; null when no pass was recorded. */
  readonly lagSeconds: number | null;
  /** Daemons run, but none has passed (or started) within a few of its intervals: a pass is slow or stuck. */
  readonly late: boolean;
  /** Batches started and not settled: payments only a daemon follows to the end. */
  readonly startedBatches: number;
}

/**
 * Whether a daemon follows the payments of this ledger, from what each host's daemon records of itself
 * (daemon-pass-store.ts): its start and interval, its last pass, its stop. A daemon (not `--once`) that has not
 * stopped runs: on this host while its process lives, on another while it passed (or started) within a few of its
 * intervals. The SQLite daemon lock and the PostgreSQL work leases say less: the lock goes with its daemon, and a
 * PostgreSQL daemon holds leases only while it works.
 */
export async function daemonStatus(ledger: Ledger, now: Date, host = hostname()): Promise<DaemonStatus> {
  const rows = await daemonsOfHosts(ledger);
  const quiet = (r: DaemonPassRow) => now.getTime() - Date.parse(latest(r.started_at, r.last_pass_at)) >= staleAfterMs(r.interval_seconds);
  const daemons = rows
    .filter((r) => r.interval_seconds !== null && r.stopped_at === null && (r.host === host ? processAlive(r.pid) : !quiet(r)))
    .map((r) => ({ host: r.host, pid: r.pid, intervalSeconds: r.interval_seconds!, startedAt: r.started_at, lastPassAt: r.last_pass_at }));
  const last = rows.filter((r) => r.last_pass_at !== null).sort((a, b) => b.last_pass_at!.localeCompare(a.last_pass_at!))[0];
  return {
    running: daemons.length > 0,
    daemons,
    lastPassAt: last?.last_pass_at ?? null,
    lastPassOnce: last !== undefined && last.interval_seconds === null,
    lagSeconds: last ? Math.max(0, Math.round((now.getTime() - Date.parse(last.last_pass_at!)) / 1000)) : null,
    late: daemons.length > 0 && rows.filter((r) => daemons.some((d) => d.host === r.host)).every(quiet),
    startedBatches: await startedBatchCount(ledger),
  };
}

function staleAfterMs(intervalSeconds: number | null): number {
  return Math.max(STALE_MIN_MS, PASSES_MISSED * (intervalSeconds ?? 0) * 1000);
}

/** The later of two ISO instants (all in UTC with milliseconds: their text sorts as their time). */
function latest(a: string, b: string | null): string {
  return b !== null && b > a ? b : a;
}
