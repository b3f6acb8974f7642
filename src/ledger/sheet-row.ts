import type { ExpressionBuilder } from 'kysely';
import type { Database } from './schema.js';

/**
 * A sheet row's payments, in SQL: its first item (the root), the `batch retry` items that name it, and the reprocess
 * attempts of either. `batch retry` and reprocessing both pay a row again, so both ask the same question before they
 * do: may another payment of this row still pay, or has it paid? Aliases come from code, never from input.
 */

/** The root of item `i` whose reprocess original (if any) is joined as `p`: a retry names it; an attempt's original is it, or a retry that names it. */
export const rootOf = (i: string, p: string): string => `COALESCE(${i}.retry_root_id, ${p}.retry_root_id, ${p}.id, ${i}.id)`;

/**
 * Item `f` may still pay, or has paid: anything but failed, or returned for good (a confirmed final return, or a
 * return whose reprocess attempt exists and is counted on its own).
 */
export const mayPay = (f: string): string => `NOT (
  ${f}.status = 'failed'
  OR (${f}.status = 'returned' AND ${f}.return_confirmed_at IS NOT NULL AND (
    ${f}.return_action = 'final'
    OR EXISTS (SELECT 1 FROM items n WHERE n.original_item_id = COALESCE(${f}.original_item_id, ${f}.id) AND n.attempt > ${f}.attempt))))`;

/** True when a payment of the row whose root id is `root`, other than item `self`, may still pay or has paid. */
export const anotherPaymentMayPay = (root: string, self: string): string => `(
  EXISTS (SELECT 1 FROM items h WHERE (h.id = ${root} OR h.retry_root_id = ${root}) AND h.id <> ${self} AND ${mayPay('h')})
  OR EXISTS (
    SELECT 1 FROM items h JOIN items a ON a.original_item_id = h.id
    WHERE (h.id = ${root} OR h.retry_root_id = ${root}) AND a.id <> ${self} AND ${mayPay('a')}))`;

/**
 * Item `items` may have paid its payee: anything but a failure its item page confirmed. An event's "failed" is a
 * claim the provider may still contradict by paying, so the import's duplicate rule counts such an item as a payment.
 */
export const mayHavePaid = (eb: ExpressionBuilder<Database, 'items'>) =>
  eb.or([eb('items.status', '!=', 'failed'), eb('items.record_state', 'is', null), eb('items.record_state', '!=', 'failed')]);
