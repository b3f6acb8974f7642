import { sqliteOf, type Ledger } from './ledger.js';

/** A money-moving call whose intent has no outcome: a run stopped while it was in flight. */
export interface OpenCall {
  readonly id: number;
  readonly operation: string;
  readonly subject: string;
  readonly createdAt: string;
  /** A later call of the same operation on the same subject ended ok (an idempotent retry settled it). */
  readonly settledByRetry: boolean;
}

/** A row of the call log that does not pair up: an outcome without its intent, or an intent with several outcomes. */
export interface StrayCall {
  readonly id: number;
  readonly operation: string;
  readonly subject: string;
  readonly problem: string;
}

/** One payment (a sheet row and its reprocess attempts, which share the original item) marked paid more than once. */
export interface PaidTwice {
  readonly originalItemId: number;
  readonly identifiers: readonly string[];
  readonly batchIds: readonly number[];
}

/** A batch whose item count or total differs from its items. */
export interface BatchMismatch {
  readonly batchId: number;
  readonly name: string;
  readonly itemCount: number;
  readonly items: number;
  readonly totalCents: number;
  readonly itemsTotalCents: number;
}

export interface LedgerCheck {
  /** What `PRAGMA integrity_check` reported; empty when it said ok. */
  readonly integrity: readonly string[];
  readonly calls: number;
  readonly openCalls: readonly OpenCall[];
  readonly strayCalls: readonly StrayCall[];
  readonly paidTwice: readonly PaidTwice[];
  readonly batches: number;
  readonly batchMismatches: readonly BatchMismatch[];
  /** Nothing needs attention: open calls settled by a retry are listed but do not count. */
  readonly clean: boolean;
}

/**
 * `paybatch ledger check`: SQLite's full integrity check, then the ledger's own rules: every money-moving call has
 * an intent and one outcome; no payment is marked paid twice (identifiers are unique by the schema, so the
 * check follows each sheet row through its reprocess attempts); each batch's count and total match its items.
 */
export function checkLedger(ledger: Ledger): LedgerCheck {
  const raw = sqliteOf(ledger);
  const integrity = (raw.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).filter((m) => m !== 'ok');

  const calls = raw.prepare("SELECT count(*) FROM provider_calls WHERE phase = 'intent'").pluck().get() as number;
  const openCalls = (
    raw
      .prepare(
        `SELECT i.id, i.operation, i.subject, i.created_at AS createdAt,
           EXISTS (SELECT 1 FROM provider_calls later JOIN provider_calls done ON done.intent_id = later.id
                   WHERE later.phase = 'intent' AND later.id > i.id AND later.operation = i.operation
                     AND later.subject = i.subject AND done.outcome = 'ok') AS settledByRetry
         FROM provider_calls i
         WHERE i.phase = 'intent' AND NOT EXISTS (SELECT 1 FROM provider_calls o WHERE o.intent_id = i.id AND o.phase = 'outcome')
         ORDER BY i.id`,
      )
      .all() as (Omit<OpenCall, 'settledByRetry'> & { settledByRetry: number })[]
  ).map((c) => ({ ...c, settledByRetry: c.settledByRetry === 1 }));
  const strayCalls = raw
    .prepare(
      `SELECT o.id, o.operation, o.subject, 'an outcome without its intent' AS problem
       FROM provider_calls o LEFT JOIN provider_calls i ON i.id = o.intent_id AND i.phase = 'intent'
       WHERE o.phase = 'outcome' AND i.id IS NULL
       UNION ALL
       SELECT i.id, i.operation, i.subject, count(*) || ' outcomes for one intent'
       FROM provider_calls i JOIN provider_calls o ON o.intent_id = i.id AND o.phase = 'outcome'
       WHERE i.phase = 'intent' GROUP BY i.id HAVING count(*) > 1
       ORDER BY 1`,
    )
    .all() as StrayCall[];

  const paidTwice = (
    raw
      .prepare(
        `SELECT coalesce(original_item_id, id) AS originalItemId, group_concat(identifier, ' ') AS identifiers, group_concat(batch_id, ' ') AS batchIds
         FROM items WHERE status = 'paid' GROUP BY coalesce(original_item_id, id) HAVING count(*) > 1 ORDER BY 1`,
      )
      .all() as { originalItemId: number; identifiers: string; batchIds: string }[]
  ).map((r) => ({ originalItemId: r.originalItemId, identifiers: r.identifiers.split(' '), batchIds: r.batchIds.split(' ').map(Number) }));

  const batches = raw.prepare('SELECT count(*) FROM batches').pluck().get() as number;
  const batchMismatches = raw
    .prepare(
      `SELECT b.id AS batchId, b.name, b.item_count AS itemCount, count(i.id) AS items, b.total_cents AS totalCents,
         coalesce(sum(i.amount_cents), 0) AS itemsTotalCents
       FROM batches b LEFT JOIN items i ON i.batch_id = b.id
       GROUP BY b.id HAVING items != itemCount OR itemsTotalCents != totalCents ORDER BY b.id`,
    )
    .all() as BatchMismatch[];

  const clean = !integrity.length && openCalls.every((c) => c.settledByRetry) && !strayCalls.length && !paidTwice.length && !batchMismatches.length;
  return { integrity, calls, openCalls, strayCalls, paidTwice, batches, batchMismatches, clean };
}
