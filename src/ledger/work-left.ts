import type { Ledger } from './open-ledger.js';

/** What the daemon still has to do for the payments in the ledger, counted after a pass. */
export interface WorkLeft {
  /** Items sent and not yet settled, in started batches. */
  readonly pending: number;
  /** Batches that still need the provider (to be created, filled or started). */
  readonly unsent: number;
  /** Paid items whose receipt is not on disk yet, leaving out those reported as having no Pix id to fetch it by. */
  readonly missingReceipts: number;
  readonly openAlerts: number;
}

export function workLeft(ledger: Ledger): WorkLeft {
  const one = (sql: string) => (ledger.raw.prepare(sql).get() as { n: number }).n;
  return {
    pending: one(
      `SELECT count(*) AS n FROM items JOIN batches ON batches.id = items.batch_id
       WHERE batches.status = 'started' AND items.status IN ('submitted', 'processing')`,
    ),
    unsent: one(`SELECT count(*) AS n FROM batches WHERE status IN ('draft', 'created') OR (status = 'submitted' AND start_requested = 1)`),
    missingReceipts: one(`SELECT count(*) AS n FROM items WHERE status = 'paid' AND receipt_path IS NULL AND receipt_unavailable_at IS NULL`),
    openAlerts: one('SELECT count(*) AS n FROM alerts WHERE acked_at IS NULL'),
  };
}
