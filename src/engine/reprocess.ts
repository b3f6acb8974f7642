import { reprocessIdentifier } from '../domain/identifier.js';
import { saoPauloDate } from '../domain/bank-calendar.js';
import { insertBatch } from '../ledger/import-repository.js';
import { updateBatch } from '../ledger/batch-repository.js';
import type { ItemRow } from '../ledger/item-repository.js';
import type { Ledger } from '../ledger/open-ledger.js';

export interface ReprocessPlanResult {
  /** The new local batch holding the new attempts (submitted and started by the follow-up pass), if any. */
  readonly batchId: number | null;
  readonly attempts: number;
  /** Returned for instability but out of attempts: final, and reported. */
  readonly exhausted: readonly ItemRow[];
}

/**
 * Turns every payment returned for instability of the Pix scheme into a new attempt: a new identifier derived
 * from the original one and the attempt number, linked to the original item, in a new batch marked to start.
 * Only confirmed returns qualify (status `returned` with a reprocess reason, and the return shown by the provider's
 * own item page, not only by an event), and each return gets at most one
 * successor: the successor's existence is the guard, written in the same transaction as the new batch.
 */
export function planReprocessing(ledger: Ledger, o: { maxReprocess: number; now: Date }): ReprocessPlanResult {
  return ledger.transaction(() => {
    const returned = ledger.all(
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
    const exhausted = returned.filter((it) => it.attempt > o.maxReprocess);
    const due = returned.filter((it) => it.attempt <= o.maxReprocess);
    if (due.length === 0) return { batchId: null, attempts: 0, exhausted };

    const at = o.now.toISOString();
    const total = due.reduce((s, it) => s + it.amount_cents, 0);
    const batchId = insertBatch(ledger, { importId: null, kind: 'reprocess', name: `Reprocess ${saoPauloDate(o.now)}`, itemCount: due.length, totalCents: total, at });
    updateBatch(ledger, batchId, { start_requested: 1 }, o.now);
    for (const it of due) {
      const rootId = it.original_item_id ?? it.id;
      const root = it.original_item_id === null ? it : ledger.first(ledger.db.selectFrom('items').selectAll().where('id', '=', rootId))!;
      ledger.run(
        ledger.db.insertInto('items').values({
          batch_id: batchId,
          line: it.line,
          identifier: reprocessIdentifier(root.identifier, it.attempt + 1),
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
          attempt: it.attempt + 1,
          original_item_id: rootId,
          last_error: null,
          receipt_path: null,
          alerted_at: null,
          created_at: at,
          updated_at: at,
          status_changed_at: at,
        }),
      );
    }
    return { batchId, attempts: due.length, exhausted };
  });
}
