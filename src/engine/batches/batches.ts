/**
 * What the CLI (and the dashboard) read about batches: a batch found by its local or provider id, the list, one
 * batch's details, its items, and whether a batch may start now. Views are plain values; the ledger's reads stay in
 * src/ledger/.
 */
import type { ItemState } from '../../domain/item-state.js';
import { batchesOfImport, batchProgress, getBatch, listBatches, type BatchRow, type StatusCount } from '../../ledger/batch-repository.js';
import { callsOf } from '../../ledger/call-log.js';
import { itemsOfBatch, type ItemRow } from '../../ledger/item-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import { schedulesOf, type BatchSchedule } from '../../ledger/schedule-store.js';
import { requireBatchApprovals, type ApprovalGate } from '../approvals/index.js';
import { notYetStarted } from './not-yet-started.js';

export type { BatchRow, BatchSchedule, ItemRow, StatusCount };
export type { RetryStatus } from '../../ledger/retry-store.js';
export { batchesSentToProvider, findBatch } from '../../ledger/batch-repository.js';

/** A batch with its `import --pay-on` schedule (undefined when it has none). */
export interface ScheduledBatch {
  readonly batch: BatchRow;
  readonly schedule: BatchSchedule | undefined;
}

/** Every batch of the ledger, with its schedule. */
export async function batchList(ledger: Ledger): Promise<ScheduledBatch[]> {
  const rows = await listBatches(ledger);
  const schedules = new Map((await schedulesOf(ledger, rows.map((b) => b.id))).map((s) => [s.batchId, s]));
  return rows.map((batch) => ({ batch, schedule: schedules.get(batch.id) }));
}

/** One of the batches a sheet larger than the provider takes in one batch was sent as. */
export interface BatchPart {
  readonly id: number;
  readonly name: string;
  readonly status: string;
  readonly items: number;
  readonly totalCents: number;
}

/** A call to the provider about a batch, as the call log has it. */
export interface BatchCall {
  readonly at: string;
  readonly phase: string;
  readonly operation: string;
  readonly outcome: string | null;
  readonly detail: unknown;
}

/** What `batch show` reports about a batch. */
export interface BatchDetails extends ScheduledBatch {
  /** The other parts of its sheet, itself included; empty when the sheet went as one batch. */
  readonly parts: readonly BatchPart[];
  /** Count and sum of its items by status. */
  readonly progress: readonly StatusCount[];
  /** Its calls to the provider, oldest first. */
  readonly calls: readonly BatchCall[];
}

/** Batch `id` with its schedule, the parts of its sheet, its progress and its calls to the provider. */
export async function batchDetails(ledger: Ledger, id: number): Promise<BatchDetails> {
  const batch = await getBatch(ledger, id);
  const progress = await batchProgress(ledger, id);
  const calls = (await callsOf(ledger, `batch:${id}`)).map((c) => ({
    at: c.created_at,
    phase: c.phase,
    operation: c.operation,
    outcome: c.outcome,
    detail: c.detail_json ? (JSON.parse(c.detail_json) as unknown) : null,
  }));
  // A sheet larger than the provider takes in one batch was sent as several: each part names the others.
  const siblings = batch.kind === 'sheet' && batch.import_id !== null ? await batchesOfImport(ledger, batch.import_id) : [];
  const parts = siblings.length > 1 ? siblings.map((p) => ({ id: p.id, name: p.name, status: p.status, items: p.item_count, totalCents: p.total_cents })) : [];
  const [schedule] = await schedulesOf(ledger, [id]);
  return { batch, schedule, parts, progress, calls };
}

/** The items of batch `id` in sheet order, only those in `status` when given. */
export async function batchItems(ledger: Ledger, id: number, status?: ItemState): Promise<ItemRow[]> {
  return itemsOfBatch(ledger, id, status);
}

/**
 * What `batch start` would do: nothing for a batch already started or settled; else start it under `approvals` (the
 * gate it was checked against) — before the day an `import --pay-on` scheduled it for (`earlyStartAt`) only when the
 * person says so.
 */
export type BatchStartPlan =
  | { readonly kind: 'already-started'; readonly batch: BatchRow }
  | { readonly kind: 'start'; readonly batch: BatchRow; readonly approvals: ApprovalGate; readonly earlyStartAt: string | null };

/**
 * The plan of starting `batch`; refused (ApprovalRequiredError) while approvals the gate demands are missing, before
 * anything is asked. The gate is read (`gateOf`) only for a batch to start.
 */
export async function planBatchStart(ledger: Ledger, batch: BatchRow, now: Date, gateOf: () => Promise<ApprovalGate>): Promise<BatchStartPlan> {
  if (batch.status === 'started' || batch.status === 'settled') return { kind: 'already-started', batch };
  const approvals = await gateOf();
  await requireBatchApprovals(ledger, approvals, batch);
  const [schedule] = await schedulesOf(ledger, [batch.id]);
  const early = schedule?.state === 'scheduled' && now < new Date(schedule.startAt);
  return { kind: 'start', batch, approvals, earlyStartAt: early ? schedule.startAt : null };
}

/** Whether any of these batches (an import's, found again on a re-run) is not started yet: the re-run resumes it. */
export async function anyNotYetStarted(ledger: Ledger, batchIds: readonly number[]): Promise<boolean> {
  for (const id of batchIds) if (notYetStarted((await getBatch(ledger, id)).status)) return true;
  return false;
}
