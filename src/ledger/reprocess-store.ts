import { insertDraftBatch, updateBatch } from './batch-repository.js';
import type { ItemRow } from './item-repository.js';
import { sql } from 'kysely';
import type { Ledger } from './ledger.js';
import { anotherPaymentMayPay, rootOf } from './sheet-row.js';

// Unpaid for instability, by the provider's record: a rejection its item page shows, or a return it confirmed.
const PAY_AGAIN = sql.raw(`
  WITH cand AS (
    SELECT i.id AS id, ${rootOf('i', 'p')} AS root
    FROM items i LEFT JOIN items p ON p.id = i.original_item_id
    WHERE i.return_action = 'reprocess'
      AND ((i.status = 'returned' AND i.return_confirmed_at IS NOT NULL) OR (i.status = 'failed' AND i.record_state = 'failed')))
  SELECT i.* FROM cand JOIN items i ON i.id = cand.id
  WHERE NOT EXISTS (SELECT 1 FROM items n WHERE n.original_item_id = COALESCE(i.original_item_id, i.id) AND n.attempt > i.attempt)
    AND NOT ${anotherPaymentMayPay('cand.root', 'cand.id')}
  ORDER BY i.id`);

/**
 * Payments left unpaid by instability of the Pix scheme that no later attempt pays yet, each with the first attempt
 * (whose identifier new attempts derive from), in ledger order: rejected for instability as the provider's item page
 * shows, or returned for it with the return confirmed by the page — a webhook alone never qualifies — and only while
 * no other payment of the same sheet row (a `batch retry`) may still pay or has paid.
 */
export async function unpaidForInstability(ledger: Ledger): Promise<{ item: ItemRow; root: ItemRow }[]> {
  const found: { item: ItemRow; root: ItemRow }[] = [];
  for (const item of await ledger.all(sql<ItemRow>`${PAY_AGAIN}`)) {
    const root = item.original_item_id === null ? item : await ledger.first(ledger.db.selectFrom('items').selectAll().where('id', '=', item.original_item_id));
    found.push({ item, root: root! });
  }
  return found;
}

/** A new attempt of a payment unpaid for instability: the same payment under a new identifier, linked to its root. */
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
