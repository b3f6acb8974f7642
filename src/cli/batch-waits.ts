import type { BatchRow, BatchSchedule } from '../engine/batches/index.js';
import type { Locale } from '../words/locale.js';
import { statusWord } from '../words/status-words.js';
import type { Context } from './context.js';
import { batchMessages } from './messages/batch.js';

/**
 * What a batch not started yet waits for, beyond its stored status (`submitted` for both): approvals the profile's
 * policy still demands, or the day `import --pay-on` scheduled it for. `--json` of `batch list|show`: `waitingFor`.
 */
export type BatchWait = 'approvals' | 'pay_on' | null;

/** What each batch waits for, from the ledger and the profile's approval gate (read only under an approval policy). */
export async function batchWaits(ctx: Context, listed: readonly { readonly batch: BatchRow; readonly schedule: BatchSchedule | undefined }[]): Promise<BatchWait[]> {
  const awaiting = listed.some(({ batch }) => mayWait(batch)) ? await approvalsAwaited(ctx) : null;
  const waits: BatchWait[] = [];
  for (const { batch, schedule } of listed) {
    if (!mayWait(batch)) waits.push(null);
    else if (awaiting && (await awaiting(batch))) waits.push('approvals');
    else waits.push(schedule?.state === 'scheduled' ? 'pay_on' : null);
  }
  return waits;
}

/**
 * Whether a batch still lacks approvals, under the profile's policy; null without one, which reads neither the
 * approvers nor the ledger's approvals (nor loads their code: `batch list` of a profile without a policy).
 */
async function approvalsAwaited(ctx: Context): Promise<((batch: BatchRow) => Promise<boolean>) | null> {
  const { approvalPolicyOf, policyActive } = await import('../domain/approval-policy.js');
  if (!policyActive(approvalPolicyOf((await ctx.profile()).settings))) return null;
  const { awaitsApprovals } = await import('../engine/approvals/index.js');
  const { approvalGateOf } = await import('./approval-gate.js');
  const gate = await approvalGateOf(ctx);
  const ledger = await ctx.ledger();
  return (batch) => awaitsApprovals(ledger, gate, batch);
}

/** A sheet batch not started, nor asked to start. */
function mayWait(batch: BatchRow): boolean {
  return batch.kind === 'sheet' && !batch.start_requested && ['draft', 'created', 'submitted'].includes(batch.status);
}

/** The state people read: the status word, unless the batch waits for approvals or for its scheduled day. */
export function batchStateWord(status: string, wait: BatchWait, schedule: BatchSchedule | undefined, locale: Locale): string {
  const w = batchMessages[locale];
  if (wait === 'approvals') return w.awaitingApproval;
  if (wait === 'pay_on' && schedule) return w.scheduledFor(schedule.payOn);
  return statusWord(status, locale);
}
