import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { logIntent, logOutcome } from '../../src/ledger/call-log.js';
import { findImportByHash, recordImport } from '../../src/ledger/import-repository.js';
import { itemsOfBatch } from '../../src/ledger/item-repository.js';
import { getBatch } from '../../src/ledger/batch-repository.js';
import { openLedger, sqliteOf } from '../../src/ledger/open-ledger.js';
import type { PlannedItem } from '../../src/ledger/import-repository.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const now = new Date('2026-11-20T12:00:00Z');
const destination = { accountType: 'checkingAccount', branch: '0001', key: 'ana@example.com', accountNumber: '123', institutionName: 'Banco', document: '***.456.789-**', type: 'email', institution: '000', name: 'Ana' };
const item = (line: number): PlannedItem => ({ line, identifier: `00000000-0000-4000-8000-${String(line).padStart(12, '0')}`, key: 'ana@example.com', keyType: 'email', amountCents: 1000 + line, description: `row ${line}`, sheetName: null, sheetDocument: null, destination });

/** Every table the migrations in migrations/ create, with its columns in order, written out from the SQL files. */
const SCHEMA: Record<string, string[]> = {
  // 0001_ledger
  imports: ['id', 'file_hash', 'file_name', 'row_count', 'item_count', 'rejected_count', 'created_at'],
  batches: [
    'id', 'import_id', 'kind', 'name', 'remote_name', 'remote_id', 'status', 'remote_status', 'start_requested', 'item_count', 'total_cents',
    'created_at', 'updated_at', 'started_at',
    'settled_at', 'read_at', // 0007_follow_up_watch
    'imported_by', // 0012_approvals
    'claim_generation', 'refusal_alerted_at', // 0017_fencing
  ],
  items: [
    'id', 'batch_id', 'line', 'identifier', 'key', 'key_type', 'amount_cents', 'description', 'sheet_name', 'sheet_document', 'destination_json',
    'recipient_name', 'status', 'remote_status', 'remote_item_id', 'pix_id', 'end_to_end_id', 'reason', 'return_action', 'attempt',
    'original_item_id', 'call_attempts', 'last_error', 'receipt_path', 'created_at', 'updated_at', 'status_changed_at',
    'alerted_at', // 0002_daemon
    'receipt_unavailable_at', // 0004_provider_profile
    'return_confirmed_at', 'return_claim', // 0006_provider_confirmation
    'retry_of', 'retry_root_id', // 0010_retries
    'receipt_claimed_by', 'receipt_claim_until', // 0013_work_leases
    'record_state', // 0014_record_state
    'paid_at', // 0020_paid_at
  ],
  provider_calls: ['id', 'phase', 'intent_id', 'operation', 'subject', 'detail_json', 'outcome', 'created_at'],
  // 0002_daemon
  webhook_events: [
    'event_id', 'kind', 'delivery_id', 'received_at', 'payload_json', 'effect',
    'topic', // 0004_provider_profile
    'quarantine', 'alerted_at', // 0006_provider_confirmation
  ],
  alerts: ['id', 'kind', 'fingerprint', 'title', 'summary', 'items_json', 'created_at', 'last_sent_at', 'send_count', 'channels_json', 'acked_at',
    'send_token', 'send_until', // 0017_fencing
  ],
  daemon_lock: ['id', 'pid', 'host', 'started_at', 'heartbeat_at'],
  // 0003_bills
  bills: [
    'id', 'barcode', 'line', 'kind', 'description', 'beneficiary', 'beneficiary_document', 'assignor', 'due_date', 'amount_cents', 'status',
    'remote_status', 'transaction_id', 'settle_date', 'amount_paid_cents', 'result_json', 'return_reason', 'return_meaning', 'returned_at',
    'receipt_path', 'forced', 'error', 'alerted_at', 'created_at', 'updated_at',
    'news_alerted_at', // 0007_follow_up_watch
    'document_kind', 'payer', 'payer_document', 'bill_amount_cents', 'provider_timestamp', // 0011_bill_documents
    'original_cents', 'discount_cents', 'interest_cents', 'fine_cents', // 0018_bill_charges
  ],
  // 0005_import_claims
  import_claims: ['file_hash', 'file_name', 'pid', 'host', 'started_at'],
  // 0008_batch_claims
  batch_claims: ['batch_id', 'pid', 'host', 'started_at', 'generation', 'expires_at' /* 0017_fencing */],
  // 0009_pay_on
  batch_schedules: ['batch_id', 'pay_on', 'start_at', 'state', 'created_at', 'updated_at', 'last_error', 'alerted_at'],
  // 0010_retries
  retries: ['batch_id', 'source_batch_id', 'statuses', 'created_at'],
  // 0012_approvals
  approvals: ['id', 'subject', 'digest', 'approver_name', 'public_key', 'signature', 'signed_at', 'signed_from'],
  maker_signatures: ['id', 'subject', 'digest', 'maker_name', 'public_key', 'signature', 'signed_at', 'signed_from'],
  // 0013_work_leases
  work_leases: ['name', 'holder', 'taken_at', 'expires_at', 'generation' /* 0017_fencing */],
  // 0014_record_state
  item_corrections: ['id', 'item_id', 'claimed', 'recorded', 'remote_status', 'corrected_at', 'alerted_at'],
  // 0015_provider_record
  record_differences: ['id', 'batch_id', 'identifier', 'line', 'field', 'ledger_value', 'provider_value', 'found_at', 'alerted_at'],
  pix_id_claims: ['id', 'item_id', 'pix_id', 'end_to_end_id', 'event_id', 'claimed_at'],
  // 0017_fencing
  stray_batches: ['id', 'batch_id', 'remote_id', 'found_at', 'deleted_at', 'kept_reason', 'alerted_at'],
  // 0019_daemon_passes
  daemon_passes: ['host', 'pid', 'interval_seconds', 'started_at', 'last_pass_at', 'stopped_at'],
  // 0021_remittances
  remittances: ['import_id', 'layout', 'file_header', 'company_document', 'encoding'],
  remittance_titles: ['identifier', 'import_id', 'line', 'lot', 'lot_header', 'records', 'your_number', 'payment_date'],
  return_files: ['batch_id', 'path', 'written_at', 'said'],
  // 0022_remittance_bills
  remittance_bills: ['bill_id', 'file_hash', 'file_name', 'layout', 'file_header', 'company_document', 'encoding', 'line', 'lot', 'lot_header', 'records', 'your_number'],
  bill_return_files: ['file_hash', 'path', 'written_at', 'said'],
  // 0024_bill_schedules
  bill_schedules: ['id', 'code', 'amount_cents', 'description', 'file', 'line', 'file_hash', 'remittance', 'pay_on', 'status', 'bill_id', 'error', 'created_at', 'updated_at'],
  // 0026_remittance_bill_lines
  remittance_bill_lines: ['id', 'file_hash', 'line'],
  // kysely's own bookkeeping
  kysely_migration: ['name', 'timestamp'],
  kysely_migration_lock: ['id', 'is_locked'],
};
const MIGRATIONS = ['0001_ledger', '0002_daemon', '0003_bills', '0004_provider_profile', '0005_import_claims', '0006_provider_confirmation', '0007_follow_up_watch', '0008_batch_claims', '0009_pay_on', '0010_retries', '0011_bill_documents', '0012_approvals', '0013_work_leases', '0014_record_state', '0015_provider_record', '0016_maker_signatures', '0017_fencing', '0018_bill_charges', '0019_daemon_passes', '0020_paid_at', '0021_remittances', '0022_remittance_bills', '0023_batch_totals_index', '0024_bill_schedules', '0025_receipts_due_index', '0026_remittance_bill_lines'];

/** Tables (sqlite's own left out) and their columns, in order. */
function schemaOf(db: Sqlite.Database): Record<string, string[]> {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
  return Object.fromEntries(tables.map((t) => [t, (db.pragma(`table_info(${t})`) as { name: string }[]).map((c) => c.name)]));
}

const migrationsOf = (db: Sqlite.Database) => db.prepare('SELECT name, timestamp FROM kysely_migration ORDER BY name').all() as { name: string; timestamp: string }[];

/** What openLedger promises of every connection it hands out. */
function expectConnectionSettings(db: Sqlite.Database): void {
  expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
  expect(db.pragma('synchronous', { simple: true })).toBe(2); // 2 = FULL
}

describe('the ledger', () => {
  it('is created with WAL, foreign keys, a busy timeout, synchronous=FULL and every migration applied', async () => {
    const file = join(tempDir(), 'sub', 'ledger.db');
    const ledger = await openLedger(file);
    expectConnectionSettings(sqliteOf(ledger));
    expect(schemaOf(sqliteOf(ledger))).toEqual(SCHEMA);
    expect(migrationsOf(sqliteOf(ledger)).map((m) => m.name)).toEqual(MIGRATIONS);
    await ledger.close();
    // WAL is a property of the file, not of a connection: a plain connection finds it too.
    const plain = new Sqlite(file, { readonly: true });
    expect(plain.pragma('journal_mode', { simple: true })).toBe('wal');
    plain.close();
  });

  it('opening again applies nothing, keeps the data, and sets the connection up the same way', async () => {
    const dir = tempDir();
    const file = join(dir, 'ledger.db');
    const ledger = await openLedger(file);
    const { importId, batchIds: [batchId] } = await recordImport(ledger, { fileHash: 'h1', fileName: 'a.csv', rowCount: 3, batchName: 'Folha', itemCount: 2, items: [item(2), item(3)], rejectedCount: 1, now });
    const migrations = migrationsOf(sqliteOf(ledger));
    await ledger.close();

    const again = await openLedger(file);
    expectConnectionSettings(sqliteOf(again));
    // The same migration rows (names and times): none ran a second time.
    expect(migrationsOf(sqliteOf(again))).toEqual(migrations);
    expect(schemaOf(sqliteOf(again))).toEqual(SCHEMA);
    expect(await findImportByHash(again, 'h1')).toMatchObject({ id: importId, batchIds: [batchId], rowCount: 3, itemCount: 2, rejectedCount: 1 });
    expect(await getBatch(again, batchId)).toMatchObject({ name: 'Folha', status: 'draft', item_count: 2, total_cents: 1002 + 1003 });
    expect((await itemsOfBatch(again, batchId)).map((i) => [i.line, i.identifier, i.amount_cents, i.status])).toEqual([
      [2, '00000000-0000-4000-8000-000000000002', 1002, 'resolved'],
      [3, '00000000-0000-4000-8000-000000000003', 1003, 'resolved'],
    ]);
    await again.close();
    // Nothing to migrate, so no backup was taken either: the folder holds the ledger and its WAL files only.
    expect(readdirSync(dir).filter((f) => !/^ledger\.db(-wal|-shm)?$/.test(f))).toEqual([]);
  });

  it('refuses a ledger written by a newer paybatch and leaves it untouched', async () => {
    const file = join(tempDir(), 'ledger.db');
    await (await openLedger(file)).close();
    const raw = new Sqlite(file);
    raw.prepare("INSERT INTO kysely_migration (name, timestamp) VALUES ('9999_from_the_future', '2030-01-01')").run();
    raw.close();
    await expect(openLedger(file)).rejects.toThrow(/newer paybatch/);
    const check = new Sqlite(file);
    expect(check.prepare("SELECT count(*) AS n FROM kysely_migration WHERE name = '9999_from_the_future'").get()).toEqual({ n: 1 });
    check.close();
  });

  it('keeps the provider call log append-only', async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    const intent = await logIntent(ledger, 'create_batch', 'batch:1', { name: 'x' }, now);
    await logOutcome(ledger, intent, 'ok', { remoteId: 'b1' }, now);
    expect(() => sqliteOf(ledger).prepare('UPDATE provider_calls SET outcome = NULL').run()).toThrow(/append-only/);
    expect(() => sqliteOf(ledger).prepare('DELETE FROM provider_calls').run()).toThrow(/append-only/);
    const rows = sqliteOf(ledger).prepare('SELECT phase, intent_id, outcome FROM provider_calls ORDER BY id').all();
    expect(rows).toEqual([
      { phase: 'intent', intent_id: null, outcome: null },
      { phase: 'outcome', intent_id: intent, outcome: 'ok' },
    ]);
    await ledger.close();
  });

  it('records an import, its batch named with its local id, and every item in one go', async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    // More rows than one INSERT takes (512): written in several, every one of them.
    const items = Array.from({ length: 1100 }, (_, i) => item(i + 2));
    const { importId, batchIds: [batchId] } = await recordImport(ledger, { fileHash: 'h1', fileName: 'a.csv', rowCount: 1101, batchName: 'Folha', itemCount: items.length, items, rejectedCount: 1, now });
    expect(await findImportByHash(ledger, 'h1')).toMatchObject({ id: importId, batchIds: [batchId], rowCount: 1101, itemCount: 1100, rejectedCount: 1 });
    expect(await findImportByHash(ledger, 'h2')).toBeUndefined();
    const batch = await getBatch(ledger, batchId);
    expect(batch).toMatchObject({ name: 'Folha', remote_name: `Folha [pb:${batchId}]`, status: 'draft', item_count: 1100 });
    expect(batch.total_cents).toBe(items.reduce((s, i) => s + i.amountCents, 0));
    const stored = await itemsOfBatch(ledger, batchId);
    expect(stored.map((s) => s.line)).toEqual(items.map((i) => i.line));
    expect(stored.every((s) => s.status === 'resolved')).toBe(true);
    expect(JSON.parse(stored[0]!.destination_json!)).toEqual(destination);
    await ledger.close();
  });

  it('splits an import into parts of at most partSize items, in sheet order, each with its own count and total', async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    // Read once, like the staging's pages: a generator, not an array.
    function* five() {
      for (let line = 2; line <= 6; line++) yield item(line);
    }
    const { batchIds } = await recordImport(ledger, { fileHash: 'h1', fileName: 'a.csv', rowCount: 5, batchName: 'Folha', itemCount: 5, items: five(), rejectedCount: 0, now, partSize: 2 });
    expect(batchIds).toHaveLength(3);
    // item(line) pays 1000 + line centavos.
    expect((await Promise.all(batchIds.map((id) => getBatch(ledger, id)))).map((b) => [b.name, b.item_count, b.total_cents])).toEqual([
      ['Folha (1/3)', 2, 1002 + 1003],
      ['Folha (2/3)', 2, 1004 + 1005],
      ['Folha (3/3)', 1, 1006],
    ]);
    expect(await Promise.all(batchIds.map(async (id) => (await itemsOfBatch(ledger, id)).map((i) => i.line)))).toEqual([[2, 3], [4, 5], [6]]);
    await expect(recordImport(ledger, { fileHash: 'h2', fileName: 'b.csv', rowCount: 2, batchName: 'B', itemCount: 2, items: [item(7)], rejectedCount: 0, now })).rejects.toThrow(/told of 2 items and given 1/);
    expect(await findImportByHash(ledger, 'h2')).toBeUndefined();
    await ledger.close();
  });

  it('refuses a second item with the same identifier, rolling back the whole import', async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    await recordImport(ledger, { fileHash: 'h1', fileName: 'a.csv', rowCount: 1, batchName: 'A', itemCount: 1, items: [item(2)], rejectedCount: 0, now });
    await expect(recordImport(ledger, { fileHash: 'h2', fileName: 'b.csv', rowCount: 2, batchName: 'B', itemCount: 2, items: [item(3), item(2)], rejectedCount: 0, now })).rejects.toThrow(/UNIQUE/);
    expect(await findImportByHash(ledger, 'h2')).toBeUndefined();
    expect(sqliteOf(ledger).prepare('SELECT count(*) AS n FROM batches').get()).toEqual({ n: 1 });
    await ledger.close();
  });
});
