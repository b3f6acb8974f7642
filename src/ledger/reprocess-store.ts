import { insertDraftBatch, updateBatch } from './batch-repository.js';
import type { ItemRow } from './item-repository.js';
import type { Ledger } from './ledger.js';

/**
 * Items returned for instability whose return the provider confirmed and that have no later attempt yet, each with
 * its root (the first attempt, whose identifier new attempts derive from), in ledger order.
 */
export async function confirmedReturnsToReprocess(ledger: Ledger): Promise<{ item: ItemRow; root: ItemRow }[]> {
  const returned = await ledger.all(
    ledger.db
      .selectFrom('items as i')
      .selectAll('i')
      .where('i.status', '=', 'returned')
      .where('i.return_action', '=', 'reprocess')
      // A webhook is a claim: only the provider's own item page showing the return allows paying again.
      .where('i.return_confirmed_at', 'is not', null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('items as next')
              .select('next.id')
              .whereRef('next.original_item_id', '=', eb.fn.coalesce('i.original_item_id', 'i.id'))
              .whereRef('next.attempt', '>', 'i.attempt'),
          ),
        ),
      )
      .orderBy('i.id'),
  );
  const found: { item: ItemRow; root: ItemRow }[] = [];
  for (const item of returned) {
    const root = item.original_item_id === null ? item : await ledger.first(ledger.db.selectFrom('items').selectAll().where('id', '=', item.original_item_id));
    found.push({ item, root: root! });
  }
  return found;
}

/** A new attempt of a returned payment: the same payment under a new identifier, linked to its root. */
export interface NewAttempt {
  readonly from: ItemRow;
  readonly rootId: number;
  readonly identifier: string;
  readonly attempt: number;
}

/** Writes a reprocess batch marked to start, holding `attempts`; returns its id. Call inside a transaction. */
export async function recordReprocessBatch(ledger: Ledger, o: { name: string; attempts: readonly NewAttempt[]; at: Date }): Promise<number> {
  const at = o.at.toISOString();
  const total = o.attempts.reduce((s, a) => s + a.from.amount_cents, 0);
  const batchId = await insertDraftBatch(ledger, { importId: null, kind: 'reprocess', name: o.name, itemCount: o.attempts.length, totalCents: total, at });
  await updateBatch(ledger, batchId, { start_requested: 1 }, o.at);
  for (const a of o.attempts) {
    const it = a.from;
    await ledger.run(
      ledger.db.insertInto('items').values({
        batch_id: batchId,
        line: it.line,
        identifier: a.identifier,
        key: it.key,
        key_type: it.key_type,
        amount_cents: it.amount_cents,
        description: it.description,
        sheet_name: it.sheet_name,
        sheet_document: it.sheet_document,
        destination_json: it.destination_json,
        recipient_name: it.recipient_name,
        status: 'resolved',
        remote_status: null,
        remote_item_id: null,
        pix_id: null,
        end_to_end_id: null,
        reason: null,
        return_action: null,
        attempt: a.attempt,
        original_item_id: a.rootId,
        last_error: null,
        receipt_path: null,
        alerted_at: null,
        created_at: at,
        updated_at: at,
        status_changed_at: at,
      }),
    );
  }
  return batchId;
}
