import { sql, type RawBuilder } from 'kysely';
import { inLists } from './chunks.js';
import { sqliteOf, type Ledger } from './ledger.js';
import { batchesRefused } from './refused-batches.js';
import { strayBatchesKept } from './stray-batch-store.js';

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

/** A remote batch a run created after losing its claim, still at the provider (stray-batch-store.ts). */
export interface StrayRemoteBatch {
  readonly batchId: number;
  readonly remoteId: string;
  /** Why it was not deleted; null while the daemon has not looked at it yet. */
  readonly reason: string | null;
  readonly foundAt: string;
}

export interface LedgerCheck {
  /** What SQLite's `PRAGMA integrity_check` reported; empty when it said ok (and on PostgreSQL, which has none). */
  readonly integrity: readonly string[];
  readonly calls: number;
  readonly openCalls: readonly OpenCall[];
  readonly strayCalls: readonly StrayCall[];
  readonly paidTwice: readonly PaidTwice[];
  readonly batches: number;
  readonly batchMismatches: readonly BatchMismatch[];
  /** Remote batches left at the provider by a run that lost its claim: the ledger's batch is not on them. */
  readonly strayBatches: readonly StrayRemoteBatch[];
  /** Unfinished batches the provider refused REFUSALS_BEFORE_GIVING_UP times in a row (an empty remote batch, say). */
  readonly refusedBatches: readonly number[];
  /** Nothing needs attention: open calls settled by a retry are listed but do not count. */
  readonly clean: boolean;
}

/**
 * `paybatch ledger check`: on SQLite, its full integrity check; then the ledger's own rules: every money-moving call
 * has an intent and one outcome; no payment is marked paid twice (identifiers are unique by the schema, so the
 * check follows each sheet row through its reprocess attempts); each batch's count and total match its items; no
 * remote batch is left stray at the provider; no batch is stuck on the provider's refusals.
 */
export async function checkLedger(ledger: Ledger): Promise<LedgerCheck> {
  const integrity =
    ledger.dialect === 'sqlite'
      ? (sqliteOf(ledger).pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).filter((m) => m !== 'ok')
      : [];
  const query = <R>(q: RawBuilder<R>) => ledger.all(q);

  const calls = Number((await query(sql<{ n: number }>`SELECT COUNT(*) AS n FROM provider_calls WHERE phase = 'intent'`))[0]?.n ?? 0);
  const openCalls = (
    await query(
      sql<Omit<OpenCall, 'settledByRetry'> & { settledByRetry: number }>`SELECT i.id, i.operation, i.subject, i.created_at AS "createdAt",
         CASE WHEN EXISTS (SELECT 1 FROM provider_calls later JOIN provider_calls done ON done.intent_id = later.id
                   WHERE later.phase = 'intent' AND later.id > i.id AND later.operation = i.operation
                     AND later.subject = i.subject AND done.outcome = 'ok') THEN 1 ELSE 0 END AS "settledByRetry"
         FROM provider_calls i
         WHERE i.phase = 'intent' AND NOT EXISTS (SELECT 1 FROM provider_calls o WHERE o.intent_id = i.id AND o.phase = 'outcome')
         ORDER BY i.id`,
    )
  ).map((c) => ({ ...c, settledByRetry: Number(c.settledByRetry) === 1 }));
  const strayCalls = await query(
    sql<StrayCall>`SELECT o.id, o.operation, o.subject, 'an outcome without its intent' AS problem
       FROM provider_calls o LEFT JOIN provider_calls i ON i.id = o.intent_id AND i.phase = 'intent'
       WHERE o.phase = 'outcome' AND i.id IS NULL
       UNION ALL
       SELECT i.id, i.operation, i.subject, CAST(COUNT(*) AS TEXT) || ' outcomes for one intent'
       FROM provider_calls i JOIN provider_calls o ON o.intent_id = i.id AND o.phase = 'outcome'
       WHERE i.phase = 'intent' GROUP BY i.id, i.operation, i.subject HAVING COUNT(*) > 1
       ORDER BY 1`,
  );

  const paidTwice: PaidTwice[] = [];
  const roots = await query(
    sql<{ root: number }>`SELECT COALESCE(original_item_id, id) AS root FROM items WHERE status = 'paid'
       GROUP BY COALESCE(original_item_id, id) HAVING COUNT(*) > 1 ORDER BY 1`,
  );
  for (const list of inLists(roots.map((r) => Number(r.root)))) {
    const paid = await ledger.all(
      ledger.db
        .selectFrom('items')
        .select((eb) => [eb.fn.coalesce('original_item_id', 'id').as('root'), 'identifier', 'batch_id'])
        .where('status', '=', 'paid')
        .where((eb) => eb(eb.fn.coalesce('original_item_id', 'id'), 'in', list))
        .orderBy('id'),
    );
    for (const root of list) {
      const of = paid.filter((p) => Number(p.root) === root);
      paidTwice.push({ originalItemId: root, identifiers: of.map((p) => p.identifier), batchIds: of.map((p) => p.batch_id) });
    }
  }

  const batches = Number((await query(sql<{ n: number }>`SELECT COUNT(*) AS n FROM batches`))[0]?.n ?? 0);
  const batchMismatches = (
    await query(
      sql<BatchMismatch>`SELECT b.id AS "batchId", b.name, b.item_count AS "itemCount", COUNT(i.id) AS items, b.total_cents AS "totalCents",
         COALESCE(SUM(i.amount_cents), 0) AS "itemsTotalCents"
       FROM batches b LEFT JOIN items i ON i.batch_id = b.id
       GROUP BY b.id, b.name, b.item_count, b.total_cents
       HAVING COUNT(i.id) <> b.item_count OR COALESCE(SUM(i.amount_cents), 0) <> b.total_cents
       ORDER BY b.id`,
    )
  ).map((m) => ({ ...m, items: Number(m.items), totalCents: Number(m.totalCents), itemsTotalCents: Number(m.itemsTotalCents) }));

  const strayBatches = await strayBatchesKept(ledger);
  const refusedBatches = [...(await batchesRefused(ledger))];
  const clean =
    !integrity.length && openCalls.every((c) => c.settledByRetry) && !strayCalls.length && !paidTwice.length && !batchMismatches.length && !strayBatches.length && !refusedBatches.length;
  return { integrity, calls, openCalls, strayCalls, paidTwice, batches, batchMismatches, strayBatches, refusedBatches, clean };
}
