import type { ApprovalGate } from '../engine/approvals.js';
import type { Context } from './context.js';

/**
 * The profile's approval gate for a command that moves money: its policy, its registered approvers, and refusals in
 * the run's language (English under --json, whose documents never change with the locale).
 */
export async function approvalGateOf(ctx: Context): Promise<ApprovalGate> {
  const { approvalGate } = await import('../engine/approvals.js');
  return approvalGate(await ctx.profile(), ctx.out.json ? 'en' : await ctx.locale());
}

/** Who is importing, for the batch's `imported_by`: this user's approver key fingerprint, else user@host. */
export async function makerOf(ctx: Context): Promise<string> {
  const { approverKeyFiles, makerIdentity } = await import('../config/approver-key.js');
  return makerIdentity(approverKeyFiles(ctx.io.env, ctx.io.env.PAYBATCH_APPROVER_KEY || undefined));
}
