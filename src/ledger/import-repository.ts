import type { PixKeyType } from '../domain/pix-key.js';
import type { Destination } from '../domain/destination.js';
import { insertDraftBatch } from './batch-repository.js';
import { sqliteOf, type Ledger } from './ledger.js';

/** A sheet row the import will pay: valid offline, its key looked up, its identifier fixed. */
export interface PlannedItem {
  readonly line: number;
  readonly identifier: string;
  readonly key: string;
  readonly keyType: PixKeyType;
  readonly amountCents: number;
  readonly description: string;
  readonly sheetName: string | null;
  readonly sheetDocument: string | null;
  readonly destination: Destination;
}

export interface ImportRecord {
  readonly id: number;
  readonly fileHash: string;
  readonly fileName: string;
  readonly rowCount: number;
  readonly itemCount: number;
  readonly rejectedCount: number;
  readonly createdAt: string;
  readonly batchId: number;
}

/** The import of a sheet with these exact bytes, if the ledger has one. */
export function findImportByHash(ledger: Ledger, fileHash: string): ImportRecord | undefined {
  const row = ledger.first(
    ledger.db
      .selectFrom('imports')
      .innerJoin('batches', 'batches.import_id', 'imports.id')
      .select([
        'imports.id as id',
        'imports.file_hash as fileHash',
        'imports.file_name as fileName',
        'imports.row_count as rowCount',
        'imports.item_count as itemCount',
        'imports.rejected_count as rejectedCount',
        'imports.created_at as createdAt',
        'batches.id as batchId',
      ])
      .where('imports.file_hash', '=', fileHash),
  );
  return row;
}

/**
 * Writes a planned import in one transaction: the import (with the count of rejected rows, which never become
 * items), its local batch (draft) and every planned item (resolved). Items go through one prepared statement:
 * measured 2.5× faster than kysely chunks.
 */
export function recordImport(
  ledger: Ledger,
  o: {
    fileHash: string;
    fileName: string;
    rowCount: number;
    batchName: string;
    items: readonly PlannedItem[];
    rejectedCount: number;
    now: Date;
  },
): { importId: number; batchId: number } {
  const at = o.now.toISOString();
  return ledger.transaction(() => {
    const importId = ledger.run(
      ledger.db.insertInto('imports').values({
        file_hash: o.fileHash,
        file_name: o.fileName,
        row_count: o.rowCount,
        item_count: o.items.length,
        rejected_count: o.rejectedCount,
        created_at: at,
      }),
    ).lastInsertRowid;
    const total = o.items.reduce((s, it) => s + it.amountCents, 0);
    const batchId = insertDraftBatch(ledger, { importId, kind: 'sheet', name: o.batchName, itemCount: o.items.length, totalCents: total, at });
    const insert = sqliteOf(ledger).prepare(
      `INSERT INTO items (batch_id, line, identifier, key, key_type, amount_cents, description, sheet_name, sheet_document,
         destination_json, recipient_name, status, created_at, updated_at, status_changed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'resolved', ?, ?, ?)`,
    );
    for (const it of o.items) {
      insert.run(batchId, it.line, it.identifier, it.key, it.keyType, it.amountCents, it.description, it.sheetName, it.sheetDocument,
        JSON.stringify(it.destination), it.destination.name || null, at, at, at);
    }
    return { importId, batchId };
  });
}
