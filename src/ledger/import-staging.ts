import Sqlite from 'better-sqlite3';
import type { Destination } from '../domain/destination.js';
import type { DocumentType } from '../domain/document.js';
import type { DestinationType } from '../domain/account-destination.js';
import type { PlannedItem } from './import-repository.js';
import type { RecentPayment } from './item-repository.js';
import { inLists } from './chunks.js';
import { mayHavePaid } from './sheet-row.js';
import type { Ledger } from './ledger.js';

/** A row valid offline, as an import stages it: its identifier is decided (given by the sheet or derived). */
export interface StagedRow {
  readonly line: number;
  readonly identifier: string;
  readonly key: string;
  readonly keyType: DestinationType;
  readonly amountCents: number;
  readonly description: string;
  readonly name: string | null;
  readonly document: { readonly type: DocumentType; readonly value: string } | null;
}

/** A staged row to be paid to the destination its key's lookup gave. */
export function plannedItemOf(row: StagedRow, destination: Destination): PlannedItem {
  return {
    line: row.line,
    identifier: row.identifier,
    key: row.key,
    keyType: row.keyType,
    amountCents: row.amountCents,
    description: row.description,
    sheetName: row.name,
    sheetDocument: row.document?.value ?? null,
    destination,
  };
}

/** A staged row with what the provider said about its key (both null while the lookup has not answered). */
export interface StagedRowLookup {
  readonly row: StagedRow;
  readonly destination: Destination | null;
  readonly lookupError: string | null;
}

interface RowRecord {
  line: number;
  identifier: string;
  key: string;
  key_type: DestinationType;
  amount_cents: number;
  description: string;
  sheet_name: string | null;
  document_type: DocumentType | null;
  document_value: string | null;
  destination_json: string | null;
  error: string | null;
}

const rowOf = (r: RowRecord): StagedRow => ({
  line: r.line,
  identifier: r.identifier,
  key: r.key,
  keyType: r.key_type,
  amountCents: r.amount_cents,
  description: r.description,
  name: r.sheet_name,
  document: r.document_type && r.document_value ? { type: r.document_type, value: r.document_value } : null,
});

/**
 * Where an import keeps a sheet between reading it and recording it: a private scratch SQLite database of its own
 * (an on-disk temporary file, removed when closed), so memory stays flat however long the sheet, nothing reaches
 * the ledger before the person confirms, and it works the same whatever database holds the ledger. Each distinct
 * key is staged once, in the order first seen, for the lookups to take while the sheet is still being read. Only
 * the check against earlier payments reads the ledger.
 */
export class ImportStaging {
  readonly #ledger: Ledger;
  readonly #db: Sqlite.Database;
  readonly #insertRow: Sqlite.Statement;
  readonly #insertKey: Sqlite.Statement;
  readonly #nextKey: Sqlite.Statement;
  readonly #resolve: Sqlite.Statement;
  readonly #accept: Sqlite.Statement;
  readonly #rowsAfter: Sqlite.Statement;
  readonly #rowsBetween: Sqlite.Statement;
  readonly #acceptedAfter: Sqlite.Statement;
  #keyCursor = 0;

  constructor(ledger: Ledger) {
    this.#ledger = ledger;
    // An empty name: SQLite's private temporary database, deleted when the connection closes.
    this.#db = new Sqlite('');
    this.#db.exec(`
      CREATE TABLE import_keys (key TEXT NOT NULL UNIQUE, destination_json TEXT, error TEXT);
      CREATE TABLE import_rows (
        line INTEGER PRIMARY KEY, identifier TEXT NOT NULL, key TEXT NOT NULL, key_type TEXT NOT NULL,
        amount_cents INTEGER NOT NULL, description TEXT NOT NULL, sheet_name TEXT, document_type TEXT,
        document_value TEXT, accepted INTEGER NOT NULL DEFAULT 0
      );`);
    this.#insertRow = this.#db.prepare(
      `INSERT INTO import_rows (line, identifier, key, key_type, amount_cents, description, sheet_name, document_type, document_value)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#insertKey = this.#db.prepare('INSERT OR IGNORE INTO import_keys (key, destination_json) VALUES (?, ?)');
    // A key staged with its destination (an account) is not looked up.
    this.#nextKey = this.#db.prepare('SELECT rowid AS id, key FROM import_keys WHERE rowid > ? AND destination_json IS NULL ORDER BY rowid LIMIT 1');
    this.#resolve = this.#db.prepare('UPDATE import_keys SET destination_json = ?, error = ? WHERE key = ?');
    this.#accept = this.#db.prepare('UPDATE import_rows SET accepted = 1 WHERE line = ?');
    this.#rowsAfter = this.#db.prepare(
      `SELECT r.*, k.destination_json, k.error FROM import_rows r JOIN import_keys k ON k.key = r.key
       WHERE r.line > ? ORDER BY r.line LIMIT ?`,
    );
    this.#rowsBetween = this.#db.prepare('SELECT line, key, amount_cents FROM import_rows WHERE line BETWEEN ? AND ?');
    this.#acceptedAfter = this.#db.prepare(
      `SELECT r.*, k.destination_json FROM import_rows r JOIN import_keys k ON k.key = r.key
       WHERE r.accepted = 1 AND r.line > ? ORDER BY r.line LIMIT ?`,
    );
  }

  /** The reader starts the sheet over: its rows go, the keys (and their lookups) stay. */
  startOver(): void {
    this.#db.exec('DELETE FROM import_rows');
  }

  /**
   * Stages rows in one transaction; returns how many of their keys were new and wait for a lookup. A row whose
   * destination is already known (an account's) brings it, and its key is never looked up.
   */
  addRows(rows: readonly (StagedRow & { readonly destination?: Destination | null })[]): number {
    return this.#db.transaction(() => {
      let newKeys = 0;
      for (const r of rows) {
        this.#insertRow.run(r.line, r.identifier, r.key, r.keyType, r.amountCents, r.description, r.name, r.document?.type ?? null, r.document?.value ?? null);
        const added = this.#insertKey.run(r.key, r.destination ? JSON.stringify(r.destination) : null).changes;
        if (!r.destination) newKeys += added;
      }
      return newKeys;
    })();
  }

  /** The next staged key not yet handed out for a lookup, in the order keys were first seen; null when none waits. */
  nextKey(): string | null {
    const next = this.#nextKey.get(this.#keyCursor) as { id: number; key: string } | undefined;
    if (!next) return null;
    this.#keyCursor = next.id;
    return next.key;
  }

  /** What the provider said about a key: its destination, or why it cannot be paid. */
  resolveKey(key: string, answer: { readonly destination: Destination | null; readonly error: string | null }): void {
    this.#resolve.run(answer.destination ? JSON.stringify(answer.destination) : null, answer.error, key);
  }

  /** Staged rows after `line`, in sheet order, with their keys' lookups. */
  rowsAfter(line: number, limit: number): StagedRowLookup[] {
    const records = this.#rowsAfter.all(line, limit) as RowRecord[];
    return records.map((r) => ({
      row: rowOf(r),
      destination: r.destination_json === null ? null : (JSON.parse(r.destination_json) as Destination),
      lookupError: r.error,
    }));
  }

  /**
   * For the staged rows on lines `from`–`to`: the earlier payment of the same key and amount, if the ledger has one
   * since `since` (first attempts only, from any other sheet or none; a failure the provider's record confirmed paid
   * nobody, so a sheet fixed after it is not a duplicate: see mayHavePaid).
   */
  async recentPaymentsOn(from: number, to: number, since: Date, exceptSheetHash: string): Promise<Map<number, RecentPayment>> {
    const rows = this.#rowsBetween.all(from, to) as { line: number; key: string; amount_cents: number }[];
    // The latest earlier payment of each key and amount.
    const latest = new Map<string, RecentPayment>();
    const ledger = this.#ledger;
    for (const keys of inLists([...new Set(rows.map((r) => r.key))])) {
      const payments = await ledger.all(
        ledger.db
          .selectFrom('items')
          .innerJoin('batches', 'batches.id', 'items.batch_id')
          .leftJoin('imports', 'imports.id', 'batches.import_id')
          .select(['items.key as key', 'items.amount_cents as amountCents', 'batches.name as batchName', 'items.created_at as createdAt'])
          .where('items.key', 'in', keys)
          .where('items.created_at', '>=', since.toISOString())
          .where('items.attempt', '=', 1)
          .where(mayHavePaid)
          // A deleted batch paid nobody.
          .where('batches.status', '!=', 'deleted')
          .where((eb) => eb.or([eb('imports.file_hash', 'is', null), eb('imports.file_hash', '!=', exceptSheetHash)])),
      );
      for (const p of payments) {
        const id = `${p.amountCents} ${p.key}`;
        const seen = latest.get(id);
        if (!seen || p.createdAt > seen.createdAt) latest.set(id, { ...p, amountCents: Number(p.amountCents) });
      }
    }
    const found = new Map<number, RecentPayment>();
    for (const r of rows) {
      const previous = latest.get(`${r.amount_cents} ${r.key}`);
      if (previous) found.set(r.line, previous);
    }
    return found;
  }

  /** Marks rows as planned to be paid. */
  accept(lines: readonly number[]): void {
    this.#db.transaction(() => {
      for (const line of lines) this.#accept.run(line);
    })();
  }

  /** The accepted rows as planned items, in sheet order, read a page at a time. */
  *acceptedItems(pageSize = 1000): Generator<PlannedItem> {
    for (let after = 0; ; ) {
      const records = this.#acceptedAfter.all(after, pageSize) as RowRecord[];
      if (records.length === 0) return;
      for (const r of records) yield plannedItemOf(rowOf(r), JSON.parse(r.destination_json!) as Destination);
      after = records.at(-1)!.line;
    }
  }

  /** Closes the scratch database, which removes it. */
  close(): void {
    this.#db.close();
  }
}
