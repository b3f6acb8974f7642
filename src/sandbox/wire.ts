import type { BatchRow, ItemRow } from './pix-store.js';

const seconds = (ms: number): number => Math.floor(ms / 1000);

/** A batch as SPEC.md shows it; `timestamp` is its creation in Unix seconds (simulated clock); `status` as the dialect words it. */
export function batchBody(batch: BatchRow, status: string): Record<string, unknown> {
  return {
    id: batch.id,
    name: batch.name,
    status,
    quantityItems: batch.quantity,
    timestamp: seconds(batch.created_at),
    type: 'pix',
  };
}

/** An item with exactly the fields SPEC.md shows; `status` as the dialect words it. */
export function specItemBody(item: ItemRow, status: string): Record<string, unknown> {
  return {
    itemId: item.id,
    status,
    description: item.description,
    to: JSON.parse(item.to_json) as unknown,
    amount: item.amount,
    identifier: item.identifier,
  };
}

/**
 * An item as SPEC.md shows it, plus the sandbox's extras: `batchId`, `updatedAt` (Unix seconds), and once known
 * `pixId`, `endToEndId` (paid, returned) and `reason` (failed, returned).
 */
export function itemBody(item: ItemRow, status: string): Record<string, unknown> {
  return {
    ...specItemBody(item, status),
    batchId: item.batch_id,
    updatedAt: seconds(item.updated_at),
    ...(item.pix_id ? { pixId: item.pix_id } : {}),
    ...(item.end_to_end_id ? { endToEndId: item.end_to_end_id } : {}),
    ...(item.reason ? { reason: item.reason } : {}),
  };
}
