import type { Settings } from '../../config/settings.js';
import type { Alert, ChannelResult } from '../../alerts/alert.js';
import { addBusinessDays, saoPauloDate, saoPauloInstant } from '../../domain/bank-calendar.js';
import { ApprovalRequiredError, PaybatchError, UsageError } from '../../errors.js';
import { recordAlert, recordAlertChannels } from '../../ledger/attention-store.js';
import { getBatch } from '../../ledger/batch-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import {
  dueSchedules,
  noteScheduleOutcome,
  scheduleAlerted,
  scheduleBatches,
  settleSchedule,
  type BatchSchedule,
  type DueSchedule,
} from '../../ledger/schedule-store.js';
import type { ProviderClient } from '../../provider/client.js';
import { requireBatchApprovals, type ApprovalGate } from '../approvals/index.js';
import { claimOf, submitBatch } from './submit-batch.js';
import { passProblem, type PassProblem } from '../pass-problem.js';

/** The hour (São Paulo) a business day opens: scheduled batches start then. */
const OPENING_HOUR = 8;

/** When a batch asked to be paid on `payOn` starts: the day it starts on (a business day) and the instant. */
export interface PayOnStart {
  readonly payOn: string;
  /** `payOn`, or the next business day when `payOn` is a weekend or a bank holiday. */
  readonly startDay: string;
  readonly startAt: Date;
}

/**
 * Reads `--pay-on`: a `YYYY-MM-DD` date, today or later in São Paulo, whose batches start at 08:00 of that business
 * day (the next one for a weekend or a holiday). Anything else is a UsageError saying why, before anything is done.
 */
export function payOnStart(payOn: string, now: Date): PayOnStart {
  let startDay: string;
  try {
    startDay = addBusinessDays(payOn, 0);
  } catch (e) {
    throw new UsageError(`--pay-on must be a date as YYYY-MM-DD, like 2026-12-05: ${(e as Error).message}.`, { reason: { code: 'pay_on_invalid', value: payOn } });
  }
  const today = saoPauloDate(now);
  if (payOn < today) {
    throw new UsageError(`--pay-on ${payOn} is in the past (today is ${today} in São Paulo); nothing was imported.`, { reason: { code: 'pay_on_past', payOn, today } });
  }
  return { payOn, startDay, startAt: saoPauloInstant(startDay, OPENING_HOUR) };
}

/**
 * Schedules an import's batches to start on their pay-on day (`paybatch import --pay-on`). Batches already started
 * are not scheduled: they are paying already. Run after the import is recorded; running it again re-schedules.
 */
export function scheduleImportBatches(ledger: Ledger, batchIds: readonly number[], start: PayOnStart, now: Date): Promise<BatchSchedule[]> {
  return scheduleBatches(ledger, batchIds, { payOn: start.payOn, startAt: start.startAt.toISOString(), now });
}

export interface ScheduledStartDeps {
  readonly ledger: Ledger;
  readonly provider: ProviderClient;
  readonly now: () => Date;
  readonly send: (alert: Alert) => Promise<readonly ChannelResult[]>;
  readonly profile: string;
  readonly sandbox: boolean;
  /** The profile's approval policy and approvers (absent: no policy). */
  readonly approvals?: ApprovalGate;
  readonly settings: Pick<Settings, 'claimTime'>;
}

export interface ScheduledStarts {
  /** Batches started in this pass because their time came (or left to the run already sending them). */
  readonly started: readonly number[];
  /** Batches whose business day passed before the daemon could start them: alerted, not started. */
  readonly missed: readonly number[];
  /** Starts that failed in this pass; each is tried again at the next pass, and alerted once. */
  readonly errors: readonly PassProblem[];
}

/**
 * The daemon's part of scheduled payroll, once per pass: each schedule whose time has come is started — once, as
 * the schedule moves to `started` with the batch's start request in one transaction, so a second pass or a second
 * daemon never starts it again. A start that fails is kept asked (every later pass tries again, as for any batch
 * owed a start) and alerted once. A schedule whose business day has already ended (the daemon was down) is not
 * started late on its own — paying on another day is a person's decision — but alerted, for `batch start`.
 */
export async function startScheduledBatches(deps: ScheduledStartDeps): Promise<ScheduledStarts> {
  const { ledger } = deps;
  const now = deps.now();
  const started: number[] = [];
  const missed: number[] = [];
  const errors: PassProblem[] = [];
  for (const due of await dueSchedules(ledger, now)) {
    if (due.batchStatus === 'deleted') {
      await settleSchedule(ledger, due.batchId, 'cancelled', now);
      continue;
    }
    // Started by a person before its day: nothing left to do.
    if (due.startRequested || due.batchStatus === 'started' || due.batchStatus === 'settled') {
      await settleSchedule(ledger, due.batchId, 'started', now);
      continue;
    }
    if (saoPauloDate(now) > saoPauloDate(new Date(due.startAt))) {
      if (!(await settleSchedule(ledger, due.batchId, 'missed', now))) continue;
      missed.push(due.batchId);
      await alertOnce(deps, due, null, 'scheduled-start-missed', `Scheduled batch #${due.batchId} "${due.batchName}" was not started on its day`,
        `It was to start at ${startText(due)}, but no daemon pass ran that business day. It was not started late on its own: ` +
        `check that nobody paid these people meanwhile, then start it with 'paybatch batch start ${due.batchId}'.`);
      continue;
    }
    // Without the approvals the policy demands, the schedule stays as it is: every pass that day checks again.
    const lacking = await lackingApprovals(deps, due.batchId);
    if (lacking) {
      errors.push(passProblem('scheduled_start', { batchId: due.batchId }, lacking));
      await noteScheduleOutcome(ledger, due.batchId, { error: lacking.message, now });
      await alertOnce(deps, due, lacking.message, 'scheduled-start-failed', `Scheduled batch #${due.batchId} "${due.batchName}" lacks the approvals it needs`,
        `It was to start at ${startText(due)}, but: ${lacking.message} ${lacking.hint ?? ''} The daemon checks again at every pass that day.`);
      continue;
    }
    if (!(await settleSchedule(ledger, due.batchId, 'started', now))) continue;
    try {
      await submitBatch({ ledger, provider: deps.provider, now: deps.now, approvals: deps.approvals, ...claimOf(deps.settings) }, due.batchId, { start: true, onBusy: 'skip' });
      await noteScheduleOutcome(ledger, due.batchId, { error: null, now });
      started.push(due.batchId);
    } catch (e) {
      if (!(e instanceof PaybatchError)) throw e;
      errors.push(passProblem('scheduled_start', { batchId: due.batchId }, e));
      await noteScheduleOutcome(ledger, due.batchId, { error: e.message, now });
      await alertOnce(deps, due, e.message, 'scheduled-start-failed', `Scheduled batch #${due.batchId} "${due.batchName}" could not be started`,
        `Its start at ${startText(due)} failed: ${e.message}. The daemon tries again at every pass; ` +
        `'paybatch batch show ${due.batchId}' shows where it stands.`);
    }
  }
  return { started, missed, errors };
}

/** The refusal of the approval gate for a scheduled batch, or null when it may start. */
async function lackingApprovals(deps: ScheduledStartDeps, batchId: number): Promise<ApprovalRequiredError | null> {
  if (!deps.approvals) return null;
  try {
    await requireBatchApprovals(deps.ledger, deps.approvals, await getBatch(deps.ledger, batchId));
    return null;
  } catch (e) {
    if (e instanceof ApprovalRequiredError) return e;
    throw e;
  }
}

function startText(due: DueSchedule): string {
  const day = saoPauloDate(new Date(due.startAt));
  return `${day} 08:00 São Paulo time${day === due.payOn ? '' : ` (asked for ${due.payOn}, not a business day)`}`;
}

/** Records and sends one alert about a schedule, unless one already named it. */
async function alertOnce(deps: ScheduledStartDeps, due: DueSchedule, error: string | null, kind: string, title: string, summary: string): Promise<void> {
  if (await scheduleAlerted(deps.ledger, due.batchId)) return;
  const at = deps.now();
  const send = await deps.ledger.transaction(async (tx) => {
    const recorded = await recordAlert(tx, { kind, title, summary, rows: [], itemsJson: '[]', mark: { table: 'items', column: 'alerted_at' }, at });
    await noteScheduleOutcome(tx, due.batchId, { error, alerted: true, now: at });
    return recorded;
  });
  const alert: Alert = { id: send.alertId, kind, title, summary, items: [], createdAt: at.toISOString(), profile: deps.profile, sandbox: deps.sandbox };
  const results = await deps.send(alert);
  await recordAlertChannels(deps.ledger, send, results, JSON.stringify(results));
}
