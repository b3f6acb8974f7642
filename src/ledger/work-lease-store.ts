import type { Ledger } from './ledger.js';
import { holderEndedHere } from './process-claim.js';

/**
 * Takes the lease `name` for `holder` until `until`, when it is free, expired, already this holder's, or held by a
 * process of this host that has ended; false when another holder has it. The check and the take are one transaction (serializable on PostgreSQL), so of two daemons
 * asking at once exactly one gets it.
 */
export async function takeLease(ledger: Ledger, name: string, holder: string, now: Date, until: Date): Promise<boolean> {
  return ledger.transaction(async (tx) => {
    const row = await tx.first(tx.db.selectFrom('work_leases').select(['holder', 'expires_at']).where('name', '=', name));
    if (row && row.holder !== holder && row.expires_at > now.toISOString() && !holderEndedHere(row.holder)) return false;
    const lease = { holder, taken_at: now.toISOString(), expires_at: until.toISOString() };
    await tx.run(tx.db.insertInto('work_leases').values({ name, ...lease }).onConflict((oc) => oc.column('name').doUpdateSet(lease)));
    return true;
  });
}

/** Moves the lease's end to `until`; false when `holder` no longer has it (it expired and another took it). */
export async function renewLease(ledger: Ledger, name: string, holder: string, until: Date): Promise<boolean> {
  const { changes } = await ledger.run(ledger.db.updateTable('work_leases').set({ expires_at: until.toISOString() }).where('name', '=', name).where('holder', '=', holder));
  return changes === 1;
}

/** Lets the lease go (nothing happens when another holder has it by now). */
export async function releaseLease(ledger: Ledger, name: string, holder: string): Promise<void> {
  await ledger.run(ledger.db.deleteFrom('work_leases').where('name', '=', name).where('holder', '=', holder));
}

/** The leases not yet expired at `now`: the work daemons sharing the ledger are doing. */
export async function unexpiredLeases(ledger: Ledger, now: Date): Promise<{ name: string; holder: string; expires_at: string }[]> {
  return ledger.all(ledger.db.selectFrom('work_leases').select(['name', 'holder', 'expires_at']).where('expires_at', '>', now.toISOString()).orderBy('name'));
}
