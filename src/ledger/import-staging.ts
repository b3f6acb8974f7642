import type Sqlite from 'better-sqlite3';
import type { Destination } from '../domain/destination.js';
import type { DocumentType } from '../domain/document.js';
import type { PixKeyType } from '../domain/pix-key.js';
import type { PlannedItem } from './import-repository.js';
import type { RecentPayment } from './item-repository.js';
import { sqliteOf, type Ledger } from './ledger.js';

/** A row valid offline, as an import stages it: its identifier is decided (given by the sheet or derived). */
export interface StagedRow {
  readonly line: number;
  readonly identifier: string;
  readonly key: string;
  readonly keyType: PixKeyType;
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
  key_type: PixKeyType;
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
 * Where an import keeps a sheet between reading it and recording it: TEMP tables of the ledger's connection, so
 * memory stays flat however long the sheet (SQLite pages them to a private temporary file, removed when closed) and
 * nothing reaches the ledger file before the person confirms. Each distinct key is staged once, in the order first
 * seen, for the lookups to take while the sheet is still being read.
 */
export class ImportStaging {
  readonly #db: Sqlite.Database;
  readonly #insertRow: Sqlite.Statement;
  readonly #insertKey: Sqlite.Statement;
  readonly #nextKey: Sqlite.Statement;
  readonly #resolve: Sqlite.Statement;
  readonly #accept: Sqlite.Statement;
  readonly #rowsAfter: Sqlite.Statement;
  readonly #recentPayments: Sqlite.Statement;
  readonly #acceptedAfter: Sqlite.Statement;
  #keyCursor = 0;

  constructor(ledger: Ledger) {
    this.#db = sqliteOf(ledger);
    this.#db.exec(`
      DROP TABLE IF EXISTS temp.import_rows;
      DROP TABLE IF EXISTS temp.import_keys;
      CREATE TEMP TABLE import_keys (key TEXT NOT NULL UNIQUE, destination_json TEXT, error TEXT);
      CREATE TEMP TABLE import_rows (
        line INTEGER PRIMARY KEY, identifier TEXT NOT NULL, key TEXT NOT NULL, key_type TEXT NOT NULL,
        amount_cents INTEGER NOT NULL, description TEXT NOT NULL, sheet_name TEXT, document_type TEXT,
        document_value TEXT, accepted INTEGER NOT NULL DEFAULT 0
      );`);
    this.#insertRow = this.#db.prepare(
      `INSERT INTO temp.import_rows (line, identifier, key, key_type, amount_cents, description, sheet_name, document_type, document_value)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#insertKey = this.#db.prepare('INSERT OR IGNORE INTO temp.import_keys (key) VALUES (?)');
    this.#nextKey = this.#db.prepare('SELECT rowid AS id, key FROM temp.import_keys WHERE rowid > ? ORDER BY rowid LIMIT 1');
    this.#resolve = this.#db.prepare('UPDATE temp.import_keys SET destination_json = ?, error = ? WHERE key = ?');
    this.#accept = this.#db.prepare('UPDATE temp.import_rows SET accepted = 1 WHERE line = ?');
    this.#rowsAfter = this.#db.prepare(
      `SELECT r.*, k.destination_json, k.error FROM temp.import_rows r JOIN temp.import_keys k ON k.key = r.key
       WHERE r.line > ? ORDER BY r.line LIMIT ?`,
    );
    this.#recentPayments = this.#db.prepare(
      `SELECT r.line AS line, i.key AS key, i.amount_cents AS amountCents, b.name AS batchName, MAX(i.created_at) AS createdAt
       FROM temp.import_rows r
       JOIN items i ON i.key = r.key AND i.amount_cents = r.amount_cents
       JOIN batches b ON b.id = i.batch_id
       LEFT JOIN imports im ON im.id = b.import_id
       WHERE r.line BETWEEN ? AND ? AND i.created_at >= ? AND i.attempt = 1 AND i.status != 'failed' AND (im.file_hash IS NULL OR im.file_hash != ?)
       GROUP BY r.line`,
    );
    this.#acceptedAfter = this.#db.prepare(
      `SELECT r.*, k.destination_json FROM temp.import_rows r JOIN temp.import_keys k ON k.key = r.key
       WHERE r.accepted = 1 AND r.line > ? ORDER BY r.line LIMIT ?`,
    );
  }

  /** The reader starts the sheet over: its rows go, the keys (and their lookups) stay. */
  startOver(): void {
    this.#db.exec('DELETE FROM temp.import_rows');
  }

  /** Stages rows in one transaction; returns how many of their keys were new. */
  addRows(rows: readonly StagedRow[]): number {
    return this.#db.transaction(() => {
      let newKeys = 0;
      for (const r of rows) {
        this.#insertRow.run(r.line, r.identifier, r.key, r.keyType, r.amountCents, r.description, r.name, r.document?.type ?? null, r.document?.value ?? null);
        newKeys += this.#insertKey.run(r.key).changes;
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
   * since `since` (first attempts only, from any other sheet or none; a failed payment paid nobody, so a sheet
   * fixed after it is not a duplicate).
   */
  recentPaymentsOn(from: number, to: number, since: Date, exceptSheetHash: string): Map<number, RecentPayment> {
    const found = this.#recentPayments.all(from, to, since.toISOString(), exceptSheetHash) as (RecentPayment & { line: number })[];
    return new Map(found.map(({ line, ...previous }) => [line, previous]));
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

  close(): void {
    this.#db.exec('DROP TABLE IF EXISTS temp.import_rows; DROP TABLE IF EXISTS temp.import_keys;');
  }
}
