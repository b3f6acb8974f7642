/**
 * The CLI's way to the ledger itself: opening it (lazily: the ledger's modules load only when a command opens one),
 * its clock, and telling a ledger that cannot be reached now from a refusal. Kept light, as main.ts and
 * cli/context.ts load it at every start.
 */
import type { OpenOptions } from '../ledger/migrate.js';
import type { Ledger } from '../ledger/open-ledger.js';

export type { Ledger } from '../ledger/open-ledger.js';
export type { OpenOptions } from '../ledger/migrate.js';
export { LedgerClock, skewed } from '../ledger/process-clock.js';
export { isLedgerUnavailable } from '../ledger/ledger-unavailable.js';

/** The ledger at `file` (a path or a PostgreSQL URL), created and migrated as needed. */
export async function openLedger(file: string, o: OpenOptions = {}): Promise<Ledger> {
  return (await import('../ledger/open-ledger.js')).openLedger(file, o);
}
