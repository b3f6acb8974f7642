import type { ErrorReason } from '../errors.js';

/** A step of a daemon pass that can fail on its own while the others go on. */
export type PassStep = 'reconcile' | 'reprocess' | 'send' | 'stray_batches' | 'scheduled_start' | 'scheduled_bill' | 'receipt';

/**
 * A failure inside a pass, as data: the step, what it was about, and the failure's own message (and reason, when it
 * has one). Each is tried again next pass; the daemon words it at the edge.
 */
export interface PassProblem {
  readonly step: PassStep;
  readonly batchId?: number;
  /** What the step was for when it is not a batch: a receipt's item identifier, `bill #3`, or a scheduled bill's `file:line`. */
  readonly subject?: string;
  readonly error: string;
  readonly reason?: ErrorReason;
}

/** A failure as data, from what was caught. */
export function passProblem(step: PassStep, about: { batchId?: number; subject?: string }, e: { message: string; reason?: ErrorReason } | string): PassProblem {
  const failure = typeof e === 'string' ? { error: e } : { error: e.message, ...(e.reason === undefined ? {} : { reason: e.reason }) };
  return { step, ...about, ...failure };
}
