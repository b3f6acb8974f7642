import type { Selectable } from 'kysely';
import type { Ledger } from './ledger.js';
import type { DaemonLockTable } from './schema.js';

export type LockHolder = Selectable<DaemonLockTable>;

/**
 * Takes the ledger's single daemon lock in one transaction: `mayTake` sees the current holder (or undefined) and
 * throws to refuse; otherwise the lock is (re)written for `pid` on `host`.
 */
export async function takeDaemonLock(ledger: Ledger, o: { pid: number; host: string; at: Date; mayTake: (holder: LockHolder | undefined) => void }): Promise<void> {
  await ledger.transaction(async (tx) => {
    o.mayTake(await tx.first(tx.db.selectFrom('daemon_lock').selectAll().where('id', '=', 1)));
    const at = o.at.toISOString();
    await tx.run(tx.db.deleteFrom('daemon_lock').where('id', '=', 1));
    await tx.run(tx.db.insertInto('daemon_lock').values({ id: 1, pid: o.pid, host: o.host, started_at: at, heartbeat_at: at }));
  });
}

/** The holder `pid` says it is still alive. */
export async function beatDaemonLock(ledger: Ledger, pid: number, at: Date): Promise<void> {
  await ledger.run(ledger.db.updateTable('daemon_lock').set({ heartbeat_at: at.toISOString() }).where('id', '=', 1).where('pid', '=', pid));
}

/** The holder `pid` lets go (nothing happens when another process holds the lock meanwhile). */
export async function releaseDaemonLock(ledger: Ledger, pid: number): Promise<void> {
  await ledger.run(ledger.db.deleteFrom('daemon_lock').where('id', '=', 1).where('pid', '=', pid));
}

/** The daemon lock's holder, if any (alive or not: the caller decides). */
export async function daemonLockHolder(ledger: Ledger): Promise<LockHolder | undefined> {
  return ledger.first(ledger.db.selectFrom('daemon_lock').selectAll().where('id', '=', 1));
}
