import type { Compilable, ExpressionBuilder } from 'kysely';
import type { Ledger } from './ledger.js';
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
}

/** An item in flight, or settled by an event's word alone: the provider's item pages have yet to show it so. */
export const awaitingRecord = (eb: ExpressionBuilder<Database, 'items'>) =>
  eb.or([
    eb('items.status', 'in', ['submitted', 'processing']),
    eb.and([eb('items.status', 'in', ['paid', 'failed', 'returned']), eb.or([eb('items.record_state', 'is', null), eb('items.record_state', '!=', eb.ref('items.status'))])]),
  ]);

export async function workLeft(ledger: Ledger): Promise<WorkLeft> {
  const { db } = ledger;
  const count = async (q: Compilable<{ n: number }>) => Number((await ledger.first(q))?.n ?? 0);
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
  };
}
