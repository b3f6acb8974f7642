/**
 * The pure rules of paying one bill: whether a code is a bill, whether the provider's details describe the bill that
 * was typed, which amount to pay, and when the bank window lets it be paid. No I/O and no wording: a refusal or a
 * warning is a code with the data its message needs, worded by the CLI (src/cli/messages/bill-refusals.ts).
 * plan-bills.ts applies these rules to a list; pay-bill.ts sequences the calls.
 */
import { addBusinessDays, billWindow, saoPauloDate } from '../../domain/bank-calendar.js';
import { billWindowCloseHour, type BoletoDecode, type BoletoProblem } from '../../domain/boleto.js';
import type { ValidationReason } from '../../domain/validation-reason.js';
import type { BillRow } from '../../ledger/bill-repository.js';
import type { BillDetails } from '../../provider/types.js';

/** A decode whose code is a bill: line, barcode and kind are known. */
export type ValidBillDecode = BoletoDecode & { readonly line: string; readonly barcode: string; readonly kind: 'bank' | 'collection' };

/** The ledger's earlier attempt at the same bill that blocks paying it again: its row, as data. */
export interface LedgerAttempt {
  readonly billId: number;
  readonly status: string;
  /** ISO instant the attempt was recorded. */
  readonly createdAt: string;
  readonly transactionId: string | null;
}

/** Why a bill must not be paid as requested: a code and its data. Amounts in centavos, dates YYYY-MM-DD. */
export type BillRefusal =
  // The request itself (offline).
  | { readonly code: 'no_code' }
  /** `problems`: what the decoder found wrong (check digits, length, …). */
  | { readonly code: 'invalid_code'; readonly problems: readonly BoletoProblem[] }
  /** `detail`: why the amount text does not read as reais. */
  | { readonly code: 'invalid_amount'; readonly reason: ValidationReason }
  | { readonly code: 'description_too_long'; readonly length: number; readonly max: number }
  /** The same bill is requested again; `firstLine`: the line of its first request, when read from a file. */
  | { readonly code: 'same_bill_twice'; readonly firstLine: number | null }
  // The ledger's newest earlier attempt at the same bill (passing --force pays it anyway).
  /** Paid or scheduled. */
  | ({ readonly code: 'already_paid_in_ledger' } & LedgerAttempt)
  | ({ readonly code: 'unknown_outcome_in_ledger' } & LedgerAttempt)
  /** An intent without an outcome: another run in flight, or one that stopped mid-call. */
  | ({ readonly code: 'unfinished_payment_in_ledger' } & LedgerAttempt)
  // The provider's answer to the details (endpoint 12).
  | { readonly code: 'unknown_to_provider' }
  /** `detail`: the provider's error (HTTP 400 or 422). */
  | { readonly code: 'code_refused_by_provider'; readonly detail: string }
  // The details against the code.
  | { readonly code: 'another_bill'; readonly providerLine: string }
  | { readonly code: 'amount_mismatch'; readonly codeCents: number; readonly providerCents: number }
  // The amount rules.
  | { readonly code: 'fixed_amount'; readonly billCents: number; readonly requestedCents: number }
  /** An amount was given, but the provider gives none and does not let the payer choose one. */
  | { readonly code: 'amount_not_choosable' }
  /** `requested`: the amount given (true) or the bill's own (false). */
  | { readonly code: 'below_minimum'; readonly requested: boolean; readonly amountCents: number; readonly minCents: number }
  | { readonly code: 'above_maximum'; readonly requested: boolean; readonly amountCents: number; readonly maxCents: number }
  /** The code holds a reference value, not the amount due: an amount must be given. */
  | { readonly code: 'reference_value' }
  /** The bill lets the payer choose its amount, and none was given; both limits when the provider gives them. */
  | { readonly code: 'amount_needed'; readonly minCents: number | null; readonly maxCents: number | null }
  | { readonly code: 'no_amount' };

/** Something to know before paying a bill that may still be paid. Amounts in centavos, dates YYYY-MM-DD. */
export type BillWarning =
  | { readonly code: 'due_date_differs'; readonly codeDueDate: string; readonly providerDueDate: string }
  /** `interestCents`: the provider's interest and fines, when it gives any. */
  | { readonly code: 'past_due'; readonly dueDate: string; readonly interestCents: number | null }
  | { readonly code: 'discount'; readonly discountCents: number }
  /** The provider's clock and calendar decide; a disagreement means one of the two clocks is off. */
  | { readonly code: 'settle_date_differs'; readonly providerSettleDate: string; readonly expectedSettleDate: string };

/** When a payment asked for at some instant is made. */
export interface BillTiming {
  /** Inside the bank window: paid at once. */
  readonly windowOpen: boolean;
  /** 20, or 22 for utility and government collection slips (São Paulo time). */
  readonly closeHour: 20 | 22;
  /** The current window when open, the next one when closed (ISO instants). */
  readonly opensAt: string;
  readonly closesAt: string;
  /** YYYY-MM-DD the provider is expected to schedule the payment for; null when the window is open. */
  readonly scheduledFor: string | null;
}

/** A decode as a bill, or why the code is not one (an empty code, or the decoder's error). */
export function checkDecode(decoded: BoletoDecode): { ok: true; value: ValidBillDecode } | { ok: false; refusal: BillRefusal } {
  if (decoded.input.trim() === '') return { ok: false, refusal: { code: 'no_code' } };
  if (!decoded.valid || decoded.line === null || decoded.barcode === null || decoded.kind === null) {
    return { ok: false, refusal: { code: 'invalid_code', problems: decoded.problems } };
  }
  return { ok: true, value: { ...decoded, line: decoded.line, barcode: decoded.barcode, kind: decoded.kind } };
}

/** Why a ledger row of the same bill (a blocking status: paid, scheduled, unknown, intent) blocks paying it again. */
export function ledgerRefusal(row: BillRow): BillRefusal {
  const attempt = ledgerAttempt(row);
  switch (row.status) {
    case 'unknown':
      return { code: 'unknown_outcome_in_ledger', ...attempt };
    case 'intent':
      return { code: 'unfinished_payment_in_ledger', ...attempt };
    default:
      return { code: 'already_paid_in_ledger', ...attempt };
  }
}

/** A ledger row of a bill as the data of a refusal. */
export function ledgerAttempt(row: BillRow): LedgerAttempt {
  return { billId: row.id, status: row.status, createdAt: row.created_at, transactionId: row.transaction_id };
}

/** Whether a refusal is the ledger's: an earlier attempt at the same bill, which --force overrides. */
export function isLedgerRefusal(r: BillRefusal): boolean {
  return r.code === 'already_paid_in_ledger' || r.code === 'unknown_outcome_in_ledger' || r.code === 'unfinished_payment_in_ledger';
}

/**
 * The bank window at `now` for this bill (business days 08:00 to 20:00 São Paulo, 22:00 for utility and government
 * collection slips). Outside it the provider schedules the payment for the next window.
 */
export function billTiming(decoded: BoletoDecode, now: Date): BillTiming {
  const closeHour = billWindowCloseHour(decoded);
  const w = billWindow(now, closeHour);
  return {
    windowOpen: w.open,
    closeHour,
    opensAt: w.opensAt.toISOString(),
    closesAt: w.closesAt.toISOString(),
    scheduledFor: w.open ? null : saoPauloDate(w.opensAt),
  };
}

/**
 * Checks that the provider's details describe the bill that was decoded. Refusals (the bill must not be paid):
 * the provider's line is another bill's; the amount written in the code is not the provider's original amount —
 * a single mistyped digit can survive the check digits and point at another bill or amount. Warnings: a different
 * due date, a bill past due (interest), a discount. `today`: YYYY-MM-DD, São Paulo.
 */
export function crossCheck(decoded: BoletoDecode, details: BillDetails, today: string): { refusals: BillRefusal[]; warnings: BillWarning[] } {
  const refusals: BillRefusal[] = [];
  const warnings: BillWarning[] = [];
  const providerDigits = details.typefulLine.replace(/\D/g, '');
  if (providerDigits !== '' && providerDigits !== decoded.line && providerDigits !== decoded.barcode) {
    refusals.push({ code: 'another_bill', providerLine: providerDigits });
  }
  if (decoded.amountCents !== null) {
    const adjusted = (details.discountCents ?? 0) !== 0 || (details.interestCents ?? 0) !== 0;
    const providerFace = details.originalAmountCents ?? (adjusted ? null : details.amountCents);
    if (providerFace !== null && providerFace !== decoded.amountCents) {
      refusals.push({ code: 'amount_mismatch', codeCents: decoded.amountCents, providerCents: providerFace });
    }
  }
  if (decoded.dueDate !== null && details.dueDate !== '' && details.dueDate !== decoded.dueDate) {
    warnings.push({ code: 'due_date_differs', codeDueDate: decoded.dueDate, providerDueDate: details.dueDate });
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(details.dueDate) && details.dueDate < today) {
    warnings.push({ code: 'past_due', dueDate: details.dueDate, interestCents: details.interestCents });
  }
  if (details.discountCents) warnings.push({ code: 'discount', discountCents: details.discountCents });
  return { refusals, warnings };
}

/**
 * Every rule on the provider's details of a decoded bill at `now`: the cross-check, the bank window, and a warning
 * when the provider's settle date is not the one this clock expects.
 */
export function checkDetails(decoded: BoletoDecode, details: BillDetails, now: Date): { refusals: BillRefusal[]; warnings: BillWarning[]; timing: BillTiming } {
  const { refusals, warnings } = crossCheck(decoded, details, saoPauloDate(now));
  const timing = billTiming(decoded, now);
  const expected = timing.scheduledFor ?? saoPauloDate(now);
  if (/^\d{4}-\d{2}-\d{2}$/.test(details.settleDate) && details.settleDate !== expected) {
    warnings.push({ code: 'settle_date_differs', providerSettleDate: details.settleDate, expectedSettleDate: expected });
  }
  return { refusals, warnings, timing };
}

/**
 * The amount to pay, in centavos: the bill's own (the provider's amount due today), or `requestedCents` when the
 * bill lets the payer choose (canChangeAmount) and it lies within min and max. A bill whose amount cannot change
 * accepts only its own amount; a reference-value collection slip or a bill without an amount needs one given.
 */
export function chooseAmount(
  decoded: BoletoDecode,
  details: BillDetails,
  requestedCents: number | null,
): { ok: true; amountCents: number } | { ok: false; refusal: BillRefusal } {
  const due = details.amountCents !== null && details.amountCents > 0 ? details.amountCents : null;
  const min = details.minValueCents;
  const max = details.maxValueCents;
  const refuse = (refusal: BillRefusal) => ({ ok: false as const, refusal });
  const withinLimits = (cents: number, requested: boolean) => {
    if (min !== null && min > 0 && cents < min) return refuse({ code: 'below_minimum', requested, amountCents: cents, minCents: min });
    if (max !== null && max > 0 && cents > max) return refuse({ code: 'above_maximum', requested, amountCents: cents, maxCents: max });
    return { ok: true as const, amountCents: cents };
  };

  if (requestedCents !== null) {
    if (!details.canChangeAmount) {
      if (due !== null && requestedCents !== due) return refuse({ code: 'fixed_amount', billCents: due, requestedCents });
      if (due === null && min === null && max === null) return refuse({ code: 'amount_not_choosable' });
    }
    return withinLimits(requestedCents, true);
  }
  if (decoded.valueIsReference) return refuse({ code: 'reference_value' });
  if (due === null) {
    if (details.canChangeAmount) {
      const both = min !== null && max !== null;
      return refuse({ code: 'amount_needed', minCents: both ? Math.max(min, 1) : null, maxCents: both ? max : null });
    }
    return refuse({ code: 'no_amount' });
  }
  return withinLimits(due, false);
}

/** SPEC.md Limits 2: a paid bill can be returned by its beneficiary up to 5 business days after payment. */
export const BILL_RETURN_BUSINESS_DAYS = 5;

/** The last day a return of a bill settled on `settleDate` (YYYY-MM-DD) can arrive; null without a valid date. */
export function returnPossibleUntil(settleDate: string | null): string | null {
  if (settleDate === null || !/^\d{4}-\d{2}-\d{2}$/.test(settleDate)) return null;
  try {
    return addBusinessDays(settleDate, BILL_RETURN_BUSINESS_DAYS);
  } catch {
    return null;
  }
}
