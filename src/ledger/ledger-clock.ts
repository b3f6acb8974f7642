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

/** How far the ledger's clock is ahead of this host's (negative: behind), and how long asking took. */
export interface ClockReading {
  readonly offsetMs: number;
  readonly roundTripMs: number;
}

/**
 * Reads the ledger's clock against this host's: the offset assumes the answer was made halfway through the round
 * trip, so it is right to within half of it. An SQLite ledger's clock is this host's: offset 0.
 */
export async function readLedgerClock(ledger: Ledger, hostNow: () => number = Date.now): Promise<ClockReading> {
  if (ledger.dialect === 'sqlite') return { offsetMs: 0, roundTripMs: 0 };
  const asked = hostNow();
  const row = await ledger.first(sql<{ now: string }>`SELECT ${ledgerTime(ledger, new Date(asked))} AS now`);
  const answered = hostNow();
  return { offsetMs: Date.parse(row!.now) - (asked + answered) / 2, roundTripMs: answered - asked };
}
