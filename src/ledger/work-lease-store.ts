import { sql } from 'kysely';
import type { Ledger } from './ledger.js';
import { ledgerTime } from './ledger-clock.js';
import { holderEndedHere } from './process-claim.js';

/** A lease as taken: its name, its holder and the generation this take gave it. */
export interface HeldLease {
  readonly name: string;
  readonly holder: string;
  readonly generation: number;
}

/**
 * Takes the lease `name` for `holder` for `leaseMs` by the ledger's clock (ledger-clock.ts: the database's on
 * PostgreSQL, so hosts whose clocks disagree still agree on who holds what), when it is free, expired, already this
 * holder's, or held by a process of this host that has ended; null when another holder has it. Each take gives the
 * lease its next generation, which fences what the holder writes under it (leaseHeld). The check and the take are
 * one transaction (serializable on PostgreSQL), so of two daemons asking at once exactly one gets it. `hostNow` is
 * the ledger's clock on SQLite only.
 */
export async function takeLease(ledger: Ledger, name: string, holder: string, leaseMs: number, hostNow = new Date()): Promise<HeldLease | null> {
  return ledger.transaction(async (tx) => {
    const row = await tx.first(
      tx.db.selectFrom('work_leases').select(['holder', 'generation', sql<number>`CASE WHEN expires_at > ${ledgerTime(tx, hostNow)} THEN 1 ELSE 0 END`.as('running')]).where('name', '=', name),
    );
    if (row && row.holder !== holder && Number(row.running) === 1 && !holderEndedHere(row.holder)) return null;
    const generation = (row?.generation ?? 0) + 1;
    const lease = { holder, generation, taken_at: ledgerTime(tx, hostNow), expires_at: ledgerTime(tx, hostNow, leaseMs) };
    await tx.run(tx.db.insertInto('work_leases').values({ name, ...lease }).onConflict((oc) => oc.column('name').doUpdateSet(lease)));
    return { name, holder, generation };
  });
}

/** Moves the lease's end to `leaseMs` from now; false when this take of it is over (another holder took it since). */
export async function renewLease(ledger: Ledger, lease: HeldLease, leaseMs: number, hostNow = new Date()): Promise<boolean> {
  const { changes } = await ledger.run(
    ledger.db.updateTable('work_leases').set({ expires_at: ledgerTime(ledger, hostNow, leaseMs) })
      .where('name', '=', lease.name).where('holder', '=', lease.holder).where('generation', '=', lease.generation),
  );
  return changes === 1;
}

/**
 * True while this take of the lease holds: not taken since and not expired by the ledger's clock. Asked inside the
 * transaction that writes under the lease, it fences the write: on PostgreSQL a take by another host that commits
 * meanwhile makes one of the two transactions fail and run again (they are serializable).
 */
export async function leaseHeld(ledger: Ledger, lease: HeldLease, hostNow = new Date()): Promise<boolean> {
  const row = await ledger.first(
    ledger.db.selectFrom('work_leases').select('name')
      .where('name', '=', lease.name).where('holder', '=', lease.holder).where('generation', '=', lease.generation)
      .where('expires_at', '>', ledgerTime(ledger, hostNow)),
  );
  return row !== undefined;
}

/** Lets this take of the lease go: it expires now, keeping its generation (nothing happens when another holds it). */
export async function releaseLease(ledger: Ledger, lease: HeldLease, hostNow = new Date()): Promise<void> {
  await ledger.run(
    ledger.db.updateTable('work_leases').set({ expires_at: ledgerTime(ledger, hostNow) })
      .where('name', '=', lease.name).where('holder', '=', lease.holder).where('generation', '=', lease.generation),
  );
}

/** The leases not yet expired by the ledger's clock: the work daemons sharing the ledger are doing. */
export async function unexpiredLeases(ledger: Ledger, hostNow = new Date()): Promise<{ name: string; holder: string; expires_at: string }[]> {
  return ledger.all(
    ledger.db.selectFrom('work_leases').select(['name', 'holder', 'expires_at']).where('expires_at', '>', ledgerTime(ledger, hostNow)).orderBy('name'),
  );
}
