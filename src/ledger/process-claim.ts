/** A claim from another host cannot be checked by pid; past this age it is presumed left by a dead run. */
const STALE_CLAIM_MS = 6 * 3_600_000;

/** The process a claim row names (import_claims, batch_claims). */
export interface ClaimHolder {
  readonly pid: number;
  readonly host: string;
  readonly started_at: string;
}

/**
 * True when `holder` is another process that still counts as running, so its claim stands: on this host, while its
 * pid lives; from another host, for six hours. A row naming this very process is not another's: its pid was reused
 * after the holder died, or this process claims again.
 */
export function heldByOther(holder: ClaimHolder | undefined, pid: number, host: string, now: Date): holder is ClaimHolder {
  if (!holder || (holder.pid === pid && holder.host === host)) return false;
  if (holder.host !== host) return now.getTime() - Date.parse(holder.started_at) < STALE_CLAIM_MS;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
