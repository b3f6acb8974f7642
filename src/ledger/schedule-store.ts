import type { Ledger } from './ledger.js';
import type { BatchStatus, ScheduleState } from './schema.js';

/** A batch's schedule as commands show it (`batch show|list --json`: a stable contract). */
export interface BatchSchedule {
  readonly batchId: number;
  /** The date asked, `YYYY-MM-DD`. */
  readonly payOn: string;
  /** ISO instant the daemon starts the batch at: 08:00 São Paulo of the business day it starts on. */
  readonly startAt: string;
  /** `started` also once a person started the batch before its day. */
  readonly state: ScheduleState;
  /** Why the last scheduled start failed, while it is retried; null otherwise. */
  readonly lastError: string | null;
}

/** A schedule whose time has come, with what the daemon needs of its batch. */
export interface DueSchedule extends BatchSchedule {
  readonly batchName: string;
  readonly batchStatus: BatchStatus;
  readonly startRequested: boolean;
}

/**
 * Schedules these batches to start at `startAt` (ISO), replacing an earlier schedule that has not started; batches
 * already started (or asked to start), settled or deleted are left out. Returns the schedules now recorded.
 */
export async function scheduleBatches(ledger: Ledger, batchIds: readonly number[], o: { payOn: string; startAt: string; now: Date }): Promise<BatchSchedule[]> {
  const at = o.now.toISOString();
  if (batchIds.length === 0) return [];
  return ledger.transaction(async (tx) => {
    const open = (
      await tx.all(tx.db.selectFrom('batches').select('id').where('id', 'in', [...batchIds]).where('start_requested', '=', 0).where('status', 'in', ['draft', 'created', 'submitted']))
    ).map((b) => b.id);
    for (const id of open) {
      await tx.run(tx.db.deleteFrom('batch_schedules').where('batch_id', '=', id).where('state', '!=', 'started'));
      await tx.run(
        tx.db
          .insertInto('batch_schedules')
          .values({ batch_id: id, pay_on: o.payOn, start_at: o.startAt, state: 'scheduled', created_at: at, updated_at: at, last_error: null, alerted_at: null })
          .onConflict((c) => c.doNothing()),
      );
    }
    return schedulesOf(tx, open);
  });
}

/** The schedules of these batches (those that have one), by batch id. */
export async function schedulesOf(ledger: Ledger, batchIds: readonly number[]): Promise<BatchSchedule[]> {
  if (batchIds.length === 0) return [];
  return (
    await ledger.all(
      ledger.db
        .selectFrom('batch_schedules')
        .innerJoin('batches', 'batches.id', 'batch_schedules.batch_id')
        .select(['batch_schedules.batch_id', 'pay_on', 'start_at', 'state', 'last_error', 'batches.start_requested', 'batches.status'])
        .where('batch_schedules.batch_id', 'in', [...batchIds])
        .orderBy('batch_schedules.batch_id'),
    )
  ).map((s) => ({
    batchId: s.batch_id,
    payOn: s.pay_on,
    startAt: s.start_at,
    // A person who started the batch before its day leaves nothing for the schedule to do.
    state: s.state === 'scheduled' && s.start_requested ? 'started' : s.state,
    // A failed start retried until it went through is history, not news.
    lastError: s.status === 'started' || s.status === 'settled' ? null : s.last_error,
  }));
}

/** Schedules still waiting whose start time is at or before `now`, oldest first. */
export async function dueSchedules(ledger: Ledger, now: Date): Promise<DueSchedule[]> {
  return (
    await ledger.all(
      ledger.db
        .selectFrom('batch_schedules')
        .innerJoin('batches', 'batches.id', 'batch_schedules.batch_id')
        .select(['batch_schedules.batch_id', 'pay_on', 'start_at', 'state', 'last_error', 'batches.name', 'batches.status', 'batches.start_requested'])
        .where('state', '=', 'scheduled')
        .where('start_at', '<=', now.toISOString())
        .orderBy('start_at')
        .orderBy('batch_schedules.batch_id'),
    )
  ).map((s) => ({
    batchId: s.batch_id,
    payOn: s.pay_on,
    startAt: s.start_at,
    state: s.state,
    lastError: s.last_error,
    batchName: s.name,
    batchStatus: s.status,
    startRequested: Boolean(s.start_requested),
  }));
}

/**
 * Moves a waiting schedule to `state`; with `started`, the batch is asked to start in the same transaction (so a
 * later pass, or another process, finishes the start). False when the schedule was no longer waiting: it moves once.
 */
export async function settleSchedule(ledger: Ledger, batchId: number, state: Exclude<ScheduleState, 'scheduled'>, now: Date): Promise<boolean> {
  const at = now.toISOString();
  return ledger.transaction(async (tx) => {
    const moved = (
      await tx.run(
        tx.db.updateTable('batch_schedules').set({ state, updated_at: at }).where('batch_id', '=', batchId).where('state', '=', 'scheduled'),
      )
    ).changes;
    if (moved === 0) return false;
    if (state === 'started') await tx.run(tx.db.updateTable('batches').set({ start_requested: 1, updated_at: at }).where('id', '=', batchId));
    return true;
  });
}

/** Notes why a scheduled start failed (null once it succeeded) and, with `alerted`, that an alert said so. */
export async function noteScheduleOutcome(ledger: Ledger, batchId: number, o: { error: string | null; alerted?: boolean; now: Date }): Promise<void> {
  const at = o.now.toISOString();
  await ledger.run(
    ledger.db
      .updateTable('batch_schedules')
      .set({ last_error: o.error, updated_at: at, ...(o.alerted ? { alerted_at: at } : {}) })
      .where('batch_id', '=', batchId),
  );
}

/** Whether an alert already named this schedule. */
export async function scheduleAlerted(ledger: Ledger, batchId: number): Promise<boolean> {
  const row = await ledger.first(ledger.db.selectFrom('batch_schedules').select('alerted_at').where('batch_id', '=', batchId));
  return row?.alerted_at != null;
}
