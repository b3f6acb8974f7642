import { sql, type RawBuilder } from 'kysely';
import type { Ledger } from './ledger.js';

/**
 * The ledger's clock, as ISO 8601 text in UTC (the form every timestamp of the ledger has), `plusMs` from now. On
 * PostgreSQL it is the database server's `clock_timestamp()`: hosts sharing a ledger write and compare leases, claims
 * and deadlines by one clock, whatever their own say. On SQLite (one host) it is that host's clock, `hostNow`, which
 * tests inject.
 */
export function ledgerTime(ledger: Ledger, hostNow: Date, plusMs = 0): RawBuilder<string> {
  if (ledger.dialect === 'sqlite') return sql<string>`${new Date(hostNow.getTime() + plusMs).toISOString()}`;
  return sql<string>`to_char((clock_timestamp() + ${plusMs} * interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** The ledger's clock read now (`ledgerTime`), as ISO 8601 text. */
export async function readLedgerTime(ledger: Ledger, hostNow: Date): Promise<string> {
  const row = await ledger.first(sql<{ now: string }>`SELECT ${ledgerTime(ledger, hostNow)} AS now`);
  return row!.now;
}
