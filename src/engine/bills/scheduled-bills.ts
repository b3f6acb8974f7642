/**
 * Bills of a CNAB 240 remittance due on a later day (`boleto pay --file REM.rem`): recorded as waiting once the
 * remittance is confirmed, nothing sent for them; the daemon pays each on its day (São Paulo) through the same flow
 * as `boleto pay` (prepareBillPayment → commitBillPayment), with no one to ask: the remittance was confirmed.
 */
import type { Alert, AlertItem, ChannelResult } from '../../alerts/alert.js';
import { storedAlertText } from '../../alerts/alert.js';
import { saoPauloDate } from '../../domain/bank-calendar.js';
import { formatReais, parseAmount } from '../../domain/money.js';
import { PaybatchError, ProviderError } from '../../errors.js';
import { recordAlert, recordAlertChannels } from '../../ledger/attention-store.js';
import {
  claimBillSchedule,
  dueBillSchedules,
  scheduledLinesOf,
  scheduleBills,
  settleBillSchedule,
  type BillSchedule,
  type NewBillSchedule,
} from '../../ledger/bill-schedule-store.js';
import type { Ledger } from '../../ledger/ledger.js';
import { passProblem, type PassProblem } from '../pass-problem.js';
import { BillsRefusedError, commitBillPayment, prepareBillPayment, type BillDeps } from './pay-bill.js';
import type { BillRequest } from './plan-bills.js';

/** A request read from a list of bills; a remittance's bill carries the day it asks to be paid on. */
export interface DatedBillRequest extends BillRequest {
  readonly payOn?: string;
}

/** A remittance's bill for a later day; `already`: an earlier run of the same file scheduled it. */
export interface ScheduledBill extends NewBillSchedule {
  readonly already: boolean;
}

/** A list of bills split by day: those to pay now, and a remittance's bills for a later day. */
export interface BillsByDay {
  readonly now: readonly BillRequest[];
  readonly later: readonly ScheduledBill[];
}

/**
 * Splits the requests: a remittance's bill whose `payOn` is after `today` (YYYY-MM-DD, São Paulo) is for later, each
 * marked `already` when the ledger has its title (remittance hash and line) scheduled. Writes nothing.
 */
export async function billsByDay(ledger: Ledger, requests: readonly DatedBillRequest[], today: string): Promise<BillsByDay> {
  const now: BillRequest[] = [];
  const later: ScheduledBill[] = [];
  const scheduled = new Map<string, Set<number>>();
  for (const { payOn, ...request } of requests) {
    const remittance = request.remittance;
    if (payOn === undefined || payOn <= today || remittance === undefined) {
      now.push(request);
      continue;
    }
    let lines = scheduled.get(remittance.fileHash);
    if (!lines) scheduled.set(remittance.fileHash, (lines = await scheduledLinesOf(ledger, remittance.fileHash)));
    const amount = parseAmount(request.amount ?? '');
    // The sheet writes a remittance's amount from its centavos: always readable.
    if (!amount.ok) throw new Error(`unreadable amount ${request.amount} of ${request.file}:${request.line}`);
    later.push({
      code: request.code, amountCents: amount.value, description: request.description ?? null, file: request.file ?? remittance.fileName,
      line: remittance.line, remittance, payOn, already: lines.has(remittance.line),
    });
  }
  return { now, later };
}

/**
 * Records the bills for later as waiting schedules, once the person confirmed them. A title another run scheduled
 * meanwhile is not scheduled again: it comes back `already`.
 */
export async function recordBillSchedules(deps: { readonly ledger: Ledger; readonly now: () => Date }, later: readonly ScheduledBill[]): Promise<ScheduledBill[]> {
  const fresh = later.filter((b) => !b.already);
  const had = await scheduleBills(deps.ledger, fresh, deps.now());
  return later.map((b) => (b.already ? b : { ...b, already: had[fresh.indexOf(b)]! }));
}

export interface ScheduledBillDeps extends BillDeps {
  readonly send: (alert: Alert) => Promise<readonly ChannelResult[]>;
  readonly profile: string;
  readonly sandbox: boolean;
}

export interface ScheduledBillsResult {
  /** Schedules whose bill was sent in this pass (or found paid already), by schedule id. */
  readonly sent: readonly number[];
  /** Schedules refused in this pass: each alerted. */
  readonly refused: readonly number[];
  /** Failures that leave a schedule waiting for the next pass (the provider out of reach), or that nobody expected. */
  readonly errors: readonly PassProblem[];
}

/**
 * The daemon's part of scheduled bills, once per pass: each waiting schedule whose day has come (São Paulo) is
 * claimed — only the run whose update moved it goes on, so daemons sharing a ledger pay it once — and paid as
 * `boleto pay` would, a bill the ledger has paid already left out; one whose day passed with no pass is not paid
 * late. A refusal (a missed day, the rules, the approvals, the provider) marks it refused and raises an alert naming
 * its file, line and day; the provider out of reach before anything was sent gives it back to the next pass (on its
 * day). Never throws for one schedule.
 */
export async function payScheduledBills(deps: ScheduledBillDeps): Promise<ScheduledBillsResult> {
  const sent: number[] = [];
  const refused: number[] = [];
  const errors: PassProblem[] = [];
  const today = saoPauloDate(deps.now());
  for (const due of await dueBillSchedules(deps.ledger, today)) {
    if (!(await claimBillSchedule(deps.ledger, due.id, deps.now()))) continue;
    const subject = `${due.file}:${due.line}`;
    const request: BillRequest = {
      code: due.code, amount: formatReais(due.amountCents), description: due.description, file: due.file, line: due.line, remittance: due.remittance,
    };
    let outcome: { billId: number | null; error: string | null };
    // A day that passed with no daemon pass is not made up for: the ERP asked for that day, and a late payment may owe
    // charges it did not plan. A person decides (`boleto pay` on the bill), as for a scheduled batch whose day passed.
    if (due.payOn < today) {
      outcome = { billId: null, error: `missed: no daemon pass on ${due.payOn}` };
    } else {
      try {
        const prepared = await prepareBillPayment(deps, { requests: [request], force: false, skipPaid: true });
        if (prepared.kind === 'done') outcome = { billId: prepared.result.skipped[0]?.paidBy.id ?? null, error: null };
        else {
          const [paid] = (await commitBillPayment(deps, prepared.plan)).outcomes;
          outcome = { billId: paid?.row.id ?? null, error: paid?.status === 'failed' ? `bill_failed: ${paid.row.error ?? ''}` : null };
        }
      } catch (e) {
        if (e instanceof ProviderError && !e.outcomeUnknown && (e.status === null || e.status >= 500)) {
          // Nothing was sent: the schedule waits for the next pass.
          await settleBillSchedule(deps.ledger, due.id, { status: 'waiting', billId: null, error: e.message }, deps.now());
          errors.push(passProblem('scheduled_bill', { subject }, e));
          continue;
        }
        if (!(e instanceof PaybatchError || e instanceof BillsRefusedError)) errors.push(passProblem('scheduled_bill', { subject }, errorText(e)));
        outcome = { billId: null, error: refusalText(e) };
      }
    }
    if (outcome.error === null) {
      await settleBillSchedule(deps.ledger, due.id, { status: 'sent', billId: outcome.billId, error: null }, deps.now());
      sent.push(due.id);
      continue;
    }
    await settleBillSchedule(deps.ledger, due.id, { status: 'refused', ...outcome }, deps.now());
    refused.push(due.id);
    try {
      await alertRefused(deps, due, outcome.error);
    } catch (e) {
      if (!(e instanceof PaybatchError)) throw e;
      errors.push(passProblem('scheduled_bill', { subject }, e));
    }
  }
  return { sent, refused, errors };
}

/** `code: message` of a refusal, as the schedule keeps it. */
function refusalText(e: unknown): string {
  if (e instanceof BillsRefusedError) return e.refused.flatMap((r) => r.reasons.map((reason) => reason.code)).join(', ');
  if (e instanceof PaybatchError) return `${e.reason?.code ?? e.type}: ${e.message}`;
  return `unexpected: ${errorText(e)}`;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Records and sends the alert of a refused schedule, naming its file, line and day. */
async function alertRefused(deps: ScheduledBillDeps, due: BillSchedule, error: string): Promise<void> {
  const at = deps.now();
  const kind = 'scheduled-bill-refused';
  const { title, summary } = storedAlertText(kind, { file: due.file, line: due.line, payOn: due.payOn, error }, 1);
  const item: AlertItem = {
    identifier: `bill-schedule:${due.id}`, batch: due.file, line: due.line, key: due.code, amountCents: due.amountCents,
    status: `refused: ${error}`, lastUpdate: at.toISOString(), recipient: null,
  };
  const send = await recordAlert(deps.ledger, { kind, title, summary, rows: [], itemsJson: JSON.stringify([item]), mark: null, at });
  const alert: Alert = { id: send.alertId, kind, title, summary, items: [item], createdAt: at.toISOString(), profile: deps.profile, sandbox: deps.sandbox };
  const results = await deps.send(alert);
  await recordAlertChannels(deps.ledger, send, results, JSON.stringify(results));
}
