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
  /** Its batches, in order: one, or the parts of a sheet larger than the provider takes in one batch. */
  readonly batchIds: readonly number[];
}

/** The import of a sheet with these exact bytes, if the ledger has one. */
export function findImportByHash(ledger: Ledger, fileHash: string): ImportRecord | undefined {
  const row = ledger.first(
    ledger.db
      .selectFrom('imports')
      .select(['id', 'file_hash as fileHash', 'file_name as fileName', 'row_count as rowCount', 'item_count as itemCount', 'rejected_count as rejectedCount', 'created_at as createdAt'])
      .where('file_hash', '=', fileHash),
  );
  if (!row) return undefined;
  const batchIds = ledger.all(ledger.db.selectFrom('batches').select('id').where('import_id', '=', row.id).orderBy('id')).map((b) => b.id);
  return { ...row, batchIds };
}

/**
 * Writes a planned import in one transaction: the import (with the count of rejected rows, which never become
 * items), its local batches (draft) and every planned item (resolved). A sheet of more than `partSize` items is
 * split into parts of at most that many, in sheet order, each a batch of its own (`Folha (2/3)`): providers limit
 * the items of one batch. Items go through one prepared statement: measured 2.5× faster than kysely chunks.
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
    partSize?: number;
  },
): { importId: number; batchIds: [number, ...number[]] } {
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
    const insert = sqliteOf(ledger).prepare(
      `INSERT INTO items (batch_id, line, identifier, key, key_type, amount_cents, description, sheet_name, sheet_document,
         destination_json, recipient_name, status, created_at, updated_at, status_changed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'resolved', ?, ?, ?)`,
    );
    const parts = splitIntoParts(o.items, o.partSize ?? o.items.length);
    const batchIds = parts.map((part, i) => {
      const name = parts.length > 1 ? `${o.batchName} (${i + 1}/${parts.length})` : o.batchName;
      const totalCents = part.reduce((sum, it) => sum + it.amountCents, 0);
      const batchId = insertDraftBatch(ledger, { importId, kind: 'sheet', name, itemCount: part.length, totalCents, at });
      for (const it of part) {
        insert.run(batchId, it.line, it.identifier, it.key, it.keyType, it.amountCents, it.description, it.sheetName, it.sheetDocument,
          JSON.stringify(it.destination), it.destination.name || null, at, at, at);
      }
      return batchId;
    });
    // One batch at least: splitIntoParts never returns no part.
    return { importId, batchIds: batchIds as [number, ...number[]] };
  });
}

/** Consecutive parts of at most `size` items; a single (possibly empty) part when all fit. */
function splitIntoParts<T>(items: readonly T[], size: number): (readonly T[])[] {
  if (items.length <= size) return [items];
  const parts: (readonly T[])[] = [];
  for (let i = 0; i < items.length; i += size) parts.push(items.slice(i, i + size));
  return parts;
}
