/**
 * Which batches and bills need signed approvals before money moves (maker-checker), from the profile's settings.
 * Every threshold is "above": a batch whose total equals `totalAbove` does not need approval, one centavo more does.
 * A threshold of 0 therefore catches everything (amounts are positive), and an unset one catches nothing.
 */
export interface ApprovalPolicy {
  /** A batch whose total is above this, in centavos, needs approval; so does a bill whose amount is. */
  readonly totalAbove?: number;
  /** A batch with any payment above this, in centavos, needs approval; so does a bill whose amount is. */
  readonly itemAbove?: number;
  /** A batch of more rows than this needs approval. */
  readonly rowsAbove?: number;
  /** How many distinct approvers it then needs: 1 or 2. */
  readonly required: 1 | 2;
}

/** What the policy looks at in a batch. Amounts in centavos. */
export interface BatchFigures {
  readonly totalCents: number;
  readonly largestCents: number;
  readonly rows: number;
}

/** Why a batch or bill needs approval: the rules it crossed, with their thresholds. */
export type ApprovalReason =
  | { readonly rule: 'total'; readonly aboveCents: number }
  | { readonly rule: 'item'; readonly aboveCents: number }
  | { readonly rule: 'rows'; readonly above: number };

export interface ApprovalNeed {
  /** Distinct approvals needed: 0 when no rule applies. */
  readonly required: 0 | 1 | 2;
  readonly reasons: readonly ApprovalReason[];
}

/** True when the policy can ask for approvals at all (a threshold is set): makers then sign what they make. */
export function policyActive(policy: ApprovalPolicy): boolean {
  return policy.totalAbove !== undefined || policy.itemAbove !== undefined || policy.rowsAbove !== undefined;
}

/** The approvals a batch needs under `policy`. */
export function batchApprovalNeed(policy: ApprovalPolicy, batch: BatchFigures): ApprovalNeed {
  const reasons: ApprovalReason[] = [];
  if (policy.totalAbove !== undefined && batch.totalCents > policy.totalAbove) reasons.push({ rule: 'total', aboveCents: policy.totalAbove });
  if (policy.itemAbove !== undefined && batch.largestCents > policy.itemAbove) reasons.push({ rule: 'item', aboveCents: policy.itemAbove });
  if (policy.rowsAbove !== undefined && batch.rows > policy.rowsAbove) reasons.push({ rule: 'rows', above: policy.rowsAbove });
  return { required: reasons.length ? policy.required : 0, reasons };
}

/** The approvals a bill of `amountCents` needs: a bill is one payment, its amount both total and item. */
export function billApprovalNeed(policy: ApprovalPolicy, amountCents: number): ApprovalNeed {
  return batchApprovalNeed({ ...policy, rowsAbove: undefined }, { totalCents: amountCents, largestCents: amountCents, rows: 1 });
}

/** The policy of a profile's settings (see config/settings.ts: approvalAbove, approvalItemAbove, …). */
export function approvalPolicyOf(s: {
  readonly approvalAbove?: number;
  readonly approvalItemAbove?: number;
  readonly approvalRowsAbove?: number;
  readonly approvalsRequired: 1 | 2;
}): ApprovalPolicy {
  return {
    ...(s.approvalAbove === undefined ? {} : { totalAbove: s.approvalAbove }),
    ...(s.approvalItemAbove === undefined ? {} : { itemAbove: s.approvalItemAbove }),
    ...(s.approvalRowsAbove === undefined ? {} : { rowsAbove: s.approvalRowsAbove }),
    required: s.approvalsRequired,
  };
}
