import { describe, expect, it } from 'vitest';
import { approvalPolicyOf, batchApprovalNeed, billApprovalNeed } from '../../src/domain/approval-policy.js';

const batch = (totalCents: number, largestCents = totalCents, rows = 1) => ({ totalCents, largestCents, rows });

describe('the approval policy', () => {
  it('needs nothing when no threshold is set', () => {
    const policy = approvalPolicyOf({ approvalsRequired: 2 });
    expect(batchApprovalNeed(policy, batch(999_999_999, 999_999_999, 10_000))).toEqual({ required: 0, reasons: [] });
    expect(billApprovalNeed(policy, 999_999_999)).toEqual({ required: 0, reasons: [] });
  });

  it.each([
    [99_999, 0],
    [100_000, 0],
    [100_001, 1],
  ])('a total threshold of R$ 1.000,00: a batch of %i centavos needs %i approval', (total, required) => {
    const need = batchApprovalNeed(approvalPolicyOf({ approvalAbove: 100_000, approvalsRequired: 1 }), batch(total, 10_000, 20));
    expect(need.required).toBe(required);
    expect(need.reasons).toEqual(required ? [{ rule: 'total', aboveCents: 100_000 }] : []);
  });

  it('0 means every batch and every bill', () => {
    const policy = approvalPolicyOf({ approvalAbove: 0, approvalsRequired: 1 });
    expect(batchApprovalNeed(policy, batch(1))).toEqual({ required: 1, reasons: [{ rule: 'total', aboveCents: 0 }] });
    expect(billApprovalNeed(policy, 1)).toEqual({ required: 1, reasons: [{ rule: 'total', aboveCents: 0 }] });
  });

  it('an item threshold catches one large payment in a batch whose total is below the total threshold', () => {
    const policy = approvalPolicyOf({ approvalAbove: 1_000_000, approvalItemAbove: 500_000, approvalsRequired: 2 });
    expect(batchApprovalNeed(policy, batch(900_000, 500_000, 3))).toEqual({ required: 0, reasons: [] });
    expect(batchApprovalNeed(policy, batch(900_000, 500_001, 3))).toEqual({ required: 2, reasons: [{ rule: 'item', aboveCents: 500_000 }] });
    expect(batchApprovalNeed(policy, batch(1_200_000, 600_000, 3))).toEqual({
      required: 2,
      reasons: [
        { rule: 'total', aboveCents: 1_000_000 },
        { rule: 'item', aboveCents: 500_000 },
      ],
    });
  });

  it('a rows threshold counts the batch\'s rows, and does not apply to a bill', () => {
    const policy = approvalPolicyOf({ approvalRowsAbove: 100, approvalsRequired: 1 });
    expect(batchApprovalNeed(policy, batch(5_000, 50, 100)).required).toBe(0);
    expect(batchApprovalNeed(policy, batch(5_000, 50, 101))).toEqual({ required: 1, reasons: [{ rule: 'rows', above: 100 }] });
    expect(billApprovalNeed(approvalPolicyOf({ approvalRowsAbove: 0, approvalsRequired: 1 }), 5_000).required).toBe(0);
  });

  it('a bill is judged by its amount against both amount thresholds', () => {
    const policy = approvalPolicyOf({ approvalItemAbove: 200_000, approvalsRequired: 1 });
    expect(billApprovalNeed(policy, 200_000).required).toBe(0);
    expect(billApprovalNeed(policy, 200_001)).toEqual({ required: 1, reasons: [{ rule: 'item', aboveCents: 200_000 }] });
  });
});
