import type { Selectable } from 'kysely';
import type { Ledger } from './ledger.js';
import type { DaemonPassesTable } from './schema.js';

export type DaemonPassRow = Selectable<DaemonPassesTable>;

interface DaemonOfHost {
  readonly host: string;
  readonly pid: number;
}

/**
 * The daemon `pid` of `host` started (one row per host): running from now, at its interval. The host's last pass
 * stays until this daemon's first.
 */
export async function recordDaemonStart(ledger: Ledger, o: DaemonOfHost & { intervalSeconds: number | null; at: Date }): Promise<void> {
  const row = { pid: o.pid, interval_seconds: o.intervalSeconds, started_at: o.at.toISOString(), stopped_at: null };
  await ledger.run(ledger.db.insertInto('daemon_passes').values({ host: o.host, ...row, last_pass_at: null }).onConflict((oc) => oc.column('host').doUpdateSet(row)));
}

/** The daemon `pid` of `host` finished a pass at `at` (nothing happens when another daemon of that host started since). */
export async function recordDaemonPass(ledger: Ledger, o: DaemonOfHost & { at: Date }): Promise<void> {
  await ledger.run(ledger.db.updateTable('daemon_passes').set({ last_pass_at: o.at.toISOString() }).where('host', '=', o.host).where('pid', '=', o.pid));
}

/** The daemon `pid` of `host` stopped (nothing happens when another daemon of that host started since). */
export async function recordDaemonStop(ledger: Ledger, o: DaemonOfHost & { at: Date }): Promise<void> {
  await ledger.run(ledger.db.updateTable('daemon_passes').set({ stopped_at: o.at.toISOString() }).where('host', '=', o.host).where('pid', '=', o.pid));
}

/** The last daemon of every host. */
export async function daemonsOfHosts(ledger: Ledger): Promise<DaemonPassRow[]> {
  return ledger.all(ledger.db.selectFrom('daemon_passes').selectAll().orderBy('host'));
}
