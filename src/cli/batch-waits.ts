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

/** What each batch waits for, from the ledger and the profile's approval gate (read only when a batch may wait). */
export async function batchWaits(ctx: Context, listed: readonly { readonly batch: BatchRow; readonly schedule: BatchSchedule | undefined }[]): Promise<BatchWait[]> {
  if (!listed.some(({ batch }) => mayWait(batch))) return listed.map(() => null);
  const { awaitsApprovals } = await import('../engine/approvals/index.js');
  const { approvalGateOf } = await import('./approval-gate.js');
  const gate = await approvalGateOf(ctx);
  const ledger = await ctx.ledger();
  const waits: BatchWait[] = [];
  for (const { batch, schedule } of listed) {
    if (!mayWait(batch)) waits.push(null);
    else if (await awaitsApprovals(ledger, gate, batch)) waits.push('approvals');
    else waits.push(schedule?.state === 'scheduled' ? 'pay_on' : null);
  }
  return waits;
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
