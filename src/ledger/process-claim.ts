import { hostname } from 'node:os';

/**
 * A claim from another host cannot be checked by pid; past this age it is presumed left by a dead run. Import
 * claims last while a person reads the confirmation; batch claims are renewed while held (see batch-claim.ts).
 */
export const STALE_CLAIM_MS = 6 * 3_600_000;

/** The process a claim row names (import_claims, batch_claims). */
export interface ClaimHolder {
  readonly pid: number;
  readonly host: string;
  readonly started_at: string;
}

/**
 * True when `holder` is another process that still counts as running, so its claim stands: on this host, while its
 * pid lives; from another host, until the ledger's clock found its claim `stale` (ledger-clock.ts: hosts' own clocks
 * may disagree). A row naming this very process is not another's: its pid was reused after the holder died, or this
 * process claims again.
 */
export function claimStands(holder: ClaimHolder, pid: number, host: string, stale: boolean): boolean {
  if (holder.pid === pid && holder.host === host) return false;
  if (holder.host !== host) return !stale;
  return processAlive(holder.pid);
}

/** True while process `pid` of this host exists (one of another user, which signal 0 may not reach, counts). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True when a lease or receipt-claim holder named `host:pid:tag` (engine/work-lease.ts, LEASE_HOLDER) is a process of
 * this host that has ended (killed, crashed): what it held is free at once instead of when its time runs out. A holder
 * on another host, one naming this process's own pid, or a name of another shape: false (it holds until it expires).
 */
export function holderEndedHere(holder: string, host = hostname()): boolean {
  const parts = holder.split(':');
  const pid = Number(parts.at(-2));
  if (parts.length < 3 || !Number.isInteger(pid) || pid <= 0 || pid === process.pid || parts.slice(0, -2).join(':') !== host) return false;
  return !processAlive(pid);
}
