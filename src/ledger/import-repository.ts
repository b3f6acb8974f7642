import type { DestinationType } from '../domain/account-destination.js';
import type { Destination } from '../domain/destination.js';
import { insertDraftBatch, setBatchCounts } from './batch-repository.js';
import { insertRuns } from './chunks.js';
import type { Ledger } from './ledger.js';
import { recordRemittance, type RemittanceRecord } from './remittance-repository.js';

/** A sheet row the import will pay: valid offline, its key looked up, its identifier fixed. */
export interface PlannedItem {
  readonly line: number;
  readonly identifier: string;
  readonly key: string;
  readonly keyType: DestinationType;
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
export async function findImportByHash(ledger: Ledger, fileHash: string): Promise<ImportRecord | undefined> {
  const row = await ledger.first(
    ledger.db
      .selectFrom('imports')
      .select(['id', 'file_hash as fileHash', 'file_name as fileName', 'row_count as rowCount', 'item_count as itemCount', 'rejected_count as rejectedCount', 'created_at as createdAt'])
      .where('file_hash', '=', fileHash),
  );
  if (!row) return undefined;
  const batchIds = (await ledger.all(ledger.db.selectFrom('batches').select('id').where('import_id', '=', row.id).orderBy('id'))).map((b) => b.id);
  return { ...row, batchIds };
}

/** Items per INSERT: 15 columns each, well under either database's limit on bound values. */
const ITEMS_PER_INSERT = 512;

/**
 * Writes a planned import in one transaction: the import (with the count of rejected rows, which never become
 * items), its local batches (draft) and every planned item (resolved). A sheet of more than `partSize` items is
 * split into parts of at most that many, in sheet order, each a batch of its own (`Folha (2/3)`): providers limit
 * the items of one batch. The items are an iterable read once (a staged import pages them from its scratch
 * database), counted as they go, and written a few hundred rows per INSERT.
 */
export async function recordImport(
  ledger: Ledger,
  o: {
    fileHash: string;
    fileName: string;
    rowCount: number;
    batchName: string;
    /** How many items `items` holds: the parts are named `(i/n)` before they are written. */
    itemCount: number;
    /** Iterated once per run of the transaction (PostgreSQL runs it again after a conflict): not a one-shot generator. */
    items: Iterable<PlannedItem>;
    rejectedCount: number;
    now: Date;
    partSize?: number;
    /** Who imports (see batches.imported_by); null when unknown. */
    importedBy?: string | null;
    /**
     * What makes items part of the same batch beyond `partSize` (a remittance's payment dates): a new part begins
     * where it changes. The items are iterated once more to count the parts.
     */
    partOf?: (item: PlannedItem) => string;
    /** The CNAB 240 remittance the items were read from, written with them. */
    remittance?: RemittanceRecord;
  },
): Promise<{ importId: number; batchIds: [number, ...number[]] }> {
  const at = o.now.toISOString();
  const partSize = o.partSize ?? Math.max(o.itemCount, 1);
  const partOf = o.partOf ?? (() => '');
  const newPart = (written: number, sincePart: number, key: string, last: string | null) => written === 0 || sincePart === partSize || key !== last;
  let parts = Math.max(1, Math.ceil(o.itemCount / partSize));
  if (o.partOf) {
    parts = 0;
    let last: string | null = null;
    let sincePart = 0;
    let written = 0;
    for (const it of o.items) {
      const key = partOf(it);
      if (newPart(written, sincePart, key, last)) [parts, sincePart] = [parts + 1, 0];
      [last, sincePart, written] = [key, sincePart + 1, written + 1];
    }
    parts = Math.max(parts, 1);
  }
  return ledger.transaction(async (tx) => {
    const inserted = await tx.first(
      tx.db
        .insertInto('imports')
        .values({
          file_hash: o.fileHash,
          file_name: o.fileName,
          row_count: o.rowCount,
          item_count: o.itemCount,
          rejected_count: o.rejectedCount,
          created_at: at,
        })
        .returning('id'),
    );
    const importId = inserted!.id;
    const batchIds: number[] = [];
    const identifiers = new Set<string>();
    let part = { id: 0, count: 0, totalCents: 0 };
    let pending: PlannedItem[] = [];
    const flush = async () => {
      for (const run of insertRuns(pending, ITEMS_PER_INSERT)) {
        await tx.run(
          tx.db.insertInto('items').values(
            run.map((it) => ({
              batch_id: part.id,
              line: it.line,
              identifier: it.identifier,
              key: it.key,
              key_type: it.keyType,
              amount_cents: it.amountCents,
              description: it.description,
              sheet_name: it.sheetName,
              sheet_document: it.sheetDocument,
              destination_json: JSON.stringify(it.destination),
              recipient_name: it.destination.name || null,
              status: 'resolved' as const,
              created_at: at,
              updated_at: at,
              status_changed_at: at,
            })),
          ),
        );
      }
      pending = [];
    };
    const closePart = async () => {
      await flush();
      if (part.id) await setBatchCounts(tx, part.id, part.count, part.totalCents);
    };
    const openPart = async () => {
      const name = parts > 1 ? `${o.batchName} (${batchIds.length + 1}/${parts})` : o.batchName;
      part = { id: await insertDraftBatch(tx, { importId, kind: 'sheet', name, itemCount: 0, totalCents: 0, at, importedBy: o.importedBy ?? null }), count: 0, totalCents: 0 };
      batchIds.push(part.id);
    };
    let written = 0;
    let last: string | null = null;
    for (const it of o.items) {
      const key = partOf(it);
      if (newPart(written, part.count, key, last)) {
        await closePart();
        await openPart();
      }
      last = key;
      if (o.remittance) identifiers.add(it.identifier);
      pending.push(it);
      if (pending.length === ITEMS_PER_INSERT) await flush();
      part.count += 1;
      part.totalCents += it.amountCents;
      written += 1;
    }
    if (written !== o.itemCount) throw new Error(`recordImport was told of ${o.itemCount} items and given ${written}`);
    if (batchIds.length === 0) await openPart();
    await closePart();
    if (o.remittance) await recordRemittance(tx, importId, o.remittance, identifiers);
    return { importId, batchIds: batchIds as [number, ...number[]] };
  });
}
