import { sql, type ExpressionBuilder } from 'kysely';
import type { Ledger, LedgerQuery } from './ledger.js';
import type { Database } from './schema.js';

/** What the daemon still has to do for the payments in the ledger, counted after a pass. */
export interface WorkLeft {
  /** Items sent and not yet settled as the provider's item pages show them, in started batches. */
  readonly pending: number;
  /** Batches that still need the provider (to be created, filled or started). */
  readonly unsent: number;
  /** Paid items whose receipt is not on disk yet, leaving out those reported as having no Pix id to fetch it by. */
  readonly missingReceipts: number;
  readonly openAlerts: number;
  /**
   * Batches the ledger still holds started: their items may all be settled, but the batch is settled only by the
   * next read of its item pages (`batch list` says started until then).
   */
  readonly unsettledBatches: number;
  /** Bills whose payment's answer was lost (status `unknown`, or `intent` left by a run that died): paid or not, nobody knows. */
  readonly unknownBills: number;
  /**
   * Batches not started whose last call of a kind (create, add items, start) has no known answer — lost, or never
   * written (a run that died) — and was not made again since: the provider may have applied it.
   */
  readonly unknownPixCalls: number;
}

/** An item in flight, or settled by an event's word alone: the provider's item pages have yet to show it so. */
export const awaitingRecord = (eb: ExpressionBuilder<Database, 'items'>) =>
  eb.or([
    eb('items.status', 'in', ['submitted', 'processing']),
    eb.and([eb('items.status', 'in', ['paid', 'failed', 'returned']), eb.or([eb('items.record_state', 'is', null), eb('items.record_state', '!=', eb.ref('items.status'))])]),
  ]);

export async function workLeft(ledger: Ledger): Promise<WorkLeft> {
  const { db } = ledger;
  const count = async (q: LedgerQuery<{ n: number }>) => Number((await ledger.first(q))?.n ?? 0);
  return {
    pending: await count(
      db
        .selectFrom('items')
        .innerJoin('batches', 'batches.id', 'items.batch_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('batches.status', '=', 'started')
        .where(awaitingRecord),
    ),
    unsent: await count(
      db
        .selectFrom('batches')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => eb.or([eb('status', 'in', ['draft', 'created']), eb.and([eb('status', '=', 'submitted'), eb('start_requested', '=', 1)])])),
    ),
    missingReceipts: await count(
      db
        .selectFrom('items')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'paid')
        .where('receipt_path', 'is', null)
        .where('receipt_unavailable_at', 'is', null),
    ),
    openAlerts: await count(db.selectFrom('alerts').select((eb) => eb.fn.countAll<number>().as('n')).where('acked_at', 'is', null)),
    unsettledBatches: await count(db.selectFrom('batches').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'started')),
    unknownBills: await count(db.selectFrom('bills').select((eb) => eb.fn.countAll<number>().as('n')).where('status', 'in', ['unknown', 'intent'])),
    // A batch the ledger holds started (or settled) had every call before its start answered; only earlier ones can be in doubt.
    unknownPixCalls: await count(sql<{ n: number }>`
      SELECT COUNT(DISTINCT b.id) AS n FROM batches b JOIN provider_calls i ON i.subject = 'batch:' || b.id
      WHERE b.status IN ('draft', 'created', 'submitted') AND i.phase = 'intent' AND i.operation IN ('create_batch', 'add_items', 'start_batch')
        AND NOT EXISTS (SELECT 1 FROM provider_calls later WHERE later.subject = i.subject AND later.operation = i.operation AND later.phase = 'intent' AND later.id > i.id)
        AND NOT EXISTS (SELECT 1 FROM provider_calls o WHERE o.subject = i.subject AND o.intent_id = i.id AND o.outcome IN ('ok', 'error'))`),
  };
}
