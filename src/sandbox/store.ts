import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';

/**
 * The sandbox's state file (SQLite). Times named `*_at` are simulated milliseconds since the epoch; amounts are
 * centavos. The schema is created on open; a state file is only ever read by the sandbox that wrote it.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
  account TEXT PRIMARY KEY, key_hint TEXT NOT NULL, balance INTEGER NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS batches (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, account TEXT NOT NULL, name TEXT NOT NULL,
  status TEXT NOT NULL, quantity INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, started_at INTEGER);
CREATE INDEX IF NOT EXISTS batches_account ON batches (account, seq);
CREATE TABLE IF NOT EXISTS items (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, account TEXT NOT NULL, batch_id TEXT NOT NULL,
  identifier TEXT NOT NULL, amount INTEGER NOT NULL, description TEXT NOT NULL, to_json TEXT NOT NULL,
  key_norm TEXT NOT NULL, key_type TEXT NOT NULL, status TEXT NOT NULL, plan TEXT, reason TEXT, pix_id TEXT,
  end_to_end_id TEXT, due_at INTEGER, stale_at INTEGER, updated_at INTEGER NOT NULL,
  UNIQUE (account, identifier));
CREATE INDEX IF NOT EXISTS items_batch ON items (batch_id, seq);
CREATE INDEX IF NOT EXISTS items_due ON items (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS items_stale ON items (batch_id, stale_at) WHERE stale_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS transfers (
  pix_id TEXT PRIMARY KEY, account TEXT NOT NULL, item_id TEXT NOT NULL, identifier TEXT NOT NULL,
  kind TEXT NOT NULL, amount INTEGER NOT NULL, end_to_end_id TEXT NOT NULL, transaction_id TEXT NOT NULL,
  reason TEXT, created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS transfers_identifier ON transfers (account, identifier);
CREATE TABLE IF NOT EXISTS subscriptions (
  account TEXT PRIMARY KEY, id TEXT NOT NULL, url TEXT NOT NULL, secret TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE, account TEXT NOT NULL, kind TEXT NOT NULL,
  body TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL, account TEXT NOT NULL, copy INTEGER NOT NULL,
  status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, due_at INTEGER, last_status INTEGER, last_error TEXT,
  delivered_at INTEGER);
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (due_at) WHERE due_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS bills (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, transaction_id TEXT NOT NULL UNIQUE, account TEXT NOT NULL,
  barcode TEXT NOT NULL, line TEXT NOT NULL, amount_paid INTEGER NOT NULL, status TEXT NOT NULL,
  settle_date TEXT NOT NULL, result_json TEXT NOT NULL, return_reason TEXT, due_at INTEGER, returned_at INTEGER,
  created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS bills_barcode ON bills (account, barcode);
CREATE INDEX IF NOT EXISTS bills_due ON bills (due_at) WHERE due_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS key_overrides (key TEXT PRIMARY KEY, present INTEGER NOT NULL);
`;

/** Opens (creating it and its folder when needed) a state file; `:memory:` is accepted. */
export function openStore(file: string): Db {
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // The state holds the sheets' names and Pix keys: private from the start (SQLite gives its -wal and -shm the
    // database's mode), and made private if an older version left it readable.
    closeSync(openSync(file, 'a', 0o600));
    for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
  }
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
  return db;
}

/** Small settings of the state file: seed, admin token, token-signing key, clock, id counters. */
export class Meta {
  private readonly getStmt;
  private readonly setStmt;
  private readonly bumpStmt;

  constructor(db: Db) {
    this.getStmt = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
    this.setStmt = db.prepare<[string, string]>('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    this.bumpStmt = db.prepare<[string], { value: string }>(
      "INSERT INTO meta (key, value) VALUES (?, '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value",
    );
  }

  get(key: string): string | null {
    return this.getStmt.get(key)?.value ?? null;
  }

  set(key: string, value: string): void {
    this.setStmt.run(key, value);
  }

  /** The stored value, or `make()` stored now. */
  getOrSet(key: string, make: () => string): string {
    const found = this.get(key);
    if (found !== null) return found;
    const value = make();
    this.set(key, value);
    return value;
  }

  /** The next number of a counter (1, 2, …), persisted. */
  next(counter: string): number {
    return Number(this.bumpStmt.get(`counter:${counter}`)?.value);
  }
}
