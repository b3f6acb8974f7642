import { sql } from 'kysely';
import { ConfigError } from '../errors.js';
import type { Ledger } from './ledger.js';

/**
 * The tables a copy moves, parents before children (items and provider calls refer to earlier rows of their own
 * table, so each is copied in id order). Claims, leases, the daemon lock and its passes are left behind: they belong
 * to running processes, and a copy is made with paybatch stopped. A test checks this list against the migrated schema.
 */
export const COPIED_TABLES = [
  { table: 'imports', order: 'id' },
  { table: 'batches', order: 'id' },
  { table: 'items', order: 'id' },
  { table: 'provider_calls', order: 'id' },
  { table: 'webhook_events', order: 'event_id' },
  { table: 'alerts', order: 'id' },
  { table: 'bills', order: 'id' },
  { table: 'retries', order: 'batch_id' },
  { table: 'batch_schedules', order: 'batch_id' },
  { table: 'approvals', order: 'id' },
  { table: 'maker_signatures', order: 'id' },
  { table: 'item_corrections', order: 'id' },
  { table: 'record_differences', order: 'id' },
  { table: 'pix_id_claims', order: 'id' },
  { table: 'stray_batches', order: 'id' },
  { table: 'remittances', order: 'import_id' },
  { table: 'remittance_titles', order: 'identifier' },
  { table: 'return_files', order: 'batch_id' },
  { table: 'remittance_bills', order: 'bill_id' },
  { table: 'bill_return_files', order: 'file_hash' },
  { table: 'bill_schedules', order: 'id' },
  { table: 'remittance_bill_lines', order: 'id' },
] as const;
export const LEFT_BEHIND = ['import_claims', 'batch_claims', 'daemon_lock', 'work_leases', 'daemon_passes'] as const;

/** Sums compared after the copy: the money of each table that holds some, by status. */
const SUMS = [
  { table: 'items', amount: 'amount_cents' },
  { table: 'batches', amount: 'total_cents' },
  { table: 'bills', amount: 'amount_cents' },
] as const;

const PAGE = 500;
/** Bound parameters per INSERT: SQLite allows 32,766, PostgreSQL 65,535. */
const MAX_PARAMETERS = 30_000;

export interface CopyCheck {
  readonly table: string;
  readonly rows: number;
  /** For the tables that hold money: centavos by status, equal on both sides. */
  readonly cents?: Readonly<Record<string, number>>;
}

export interface CopyResult {
  readonly tables: readonly CopyCheck[];
}

type Row = Record<string, unknown>;

/**
 * Copies every row of `from` into `to`, an empty ledger of the same schema, in one transaction of `to`, then counts
 * the rows and sums the money by status on both sides: any difference rolls the copy back (nothing half-copied is
 * left). Ids are kept, so batch numbers, item identifiers and receipt paths mean the same; PostgreSQL's id
 * sequences are moved past the copied ids.
 */
export async function copyLedger(from: Ledger, to: Ledger, onTable?: (table: string, rows: number) => void): Promise<CopyResult> {
  const fromSchema = await migrationsOf(from);
  const toSchema = await migrationsOf(to);
  if (fromSchema.join() !== toSchema.join()) {
    throw new ConfigError(`The ledgers have different schemas (${from.file}: ${fromSchema.at(-1)}; ${to.file}: ${toSchema.at(-1)}).`, {
      hint: 'Open both with this paybatch first (paybatch ledger migrate --ledger …), then copy again.',
    });
  }
  return to.transaction(async (tx) => {
    for (const { table } of COPIED_TABLES) {
      const n = await rowCount(tx, table);
      if (n > 0) throw new ConfigError(`The ledger ${to.file} is not empty: its table ${table} has ${n} rows. A copy goes into an empty ledger only.`);
    }
    for (const { table, order } of COPIED_TABLES) {
      let copied = 0;
      for (let last: unknown = null; ; ) {
        const after = last === null ? sql`` : sql`WHERE ${sql.ref(order)} > ${last}`;
        const rows = await from.all(sql<Row>`SELECT * FROM ${sql.table(table)} ${after} ORDER BY ${sql.ref(order)} LIMIT ${PAGE}`);
        if (rows.length > 0) await insertRows(tx, table, rows);
        copied += rows.length;
        if (rows.length < PAGE) break;
        last = rows.at(-1)![order];
      }
      onTable?.(table, copied);
    }
    if (to.dialect === 'postgres') {
      for (const { table, order } of COPIED_TABLES) {
        if (order !== 'id') continue;
        await tx.run(sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), (SELECT COALESCE(max(id), 0) + 1 FROM ${sql.table(table)}), false)`);
      }
    }
    const checks: CopyCheck[] = [];
    for (const { table } of COPIED_TABLES) {
      const [source, copy] = [await tally(from, table), await tally(tx, table)];
      if (JSON.stringify(source) !== JSON.stringify(copy)) {
        throw new ConfigError(`The copy of ${table} does not match its source (${JSON.stringify(source)} against ${JSON.stringify(copy)}); nothing was copied.`);
      }
      checks.push({ table, ...source });
    }
    return { tables: checks };
  });
}

async function insertRows(tx: Ledger, table: string, rows: readonly Row[]): Promise<void> {
  const columns = Object.keys(rows[0]!);
  const perInsert = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  for (let i = 0; i < rows.length; i += perInsert) {
    const chunk = rows.slice(i, i + perInsert);
    const values = chunk.map((row) => sql`(${sql.join(columns.map((c) => row[c] ?? null))})`);
    await tx.run(sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) VALUES ${sql.join(values)}`);
  }
}

/** Rows of a table and, for the tables that hold money, centavos by status. */
async function tally(ledger: Ledger, table: string): Promise<Omit<CopyCheck, 'table'>> {
  const n = await rowCount(ledger, table);
  const money = SUMS.find((s) => s.table === table);
  if (!money) return { rows: n };
  const sums = await ledger.all(
    sql<{ status: string; cents: number }>`SELECT status, COALESCE(sum(${sql.ref(money.amount)}), 0) AS cents FROM ${sql.table(table)} GROUP BY status ORDER BY status`,
  );
  return { rows: n, cents: Object.fromEntries(sums.map((s) => [s.status, Number(s.cents)])) };
}

async function rowCount(ledger: Ledger, table: string): Promise<number> {
  const [{ n } = { n: 0 }] = await ledger.all(sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`);
  return Number(n);
}

async function migrationsOf(ledger: Ledger): Promise<string[]> {
  return (await ledger.all(sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`)).map((r) => r.name);
}
