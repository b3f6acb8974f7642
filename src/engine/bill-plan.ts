/**
 * The pure rules of paying one bill: what kind of bill it is, whether the provider's details describe the bill that
 * was typed, which amount to pay, and when the bank window lets it be paid. No I/O: pay-bill.ts sequences the calls.
 */
import { addBusinessDays, billWindow, saoPauloDate, saoPauloDateTime } from '../domain/bank-calendar.js';
import { billWindowCloseHour, type BoletoDecode } from '../domain/boleto.js';
import { formatBRL } from '../domain/money.js';
import type { BillDetails } from '../provider/types.js';

/** A problem that stops the payment, in the terms of a sheet problem (`field: reason`). */
export interface BillProblem {
  readonly field: 'code' | 'amount' | 'description';
  readonly reason: string;
}

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
  /** One sentence for people. */
  readonly message: string;
}

/** What kind of bill a valid decode is, in words: "bank slip (bank 237)", "utility bill: electricity and gas …". */
export function billKindName(decoded: BoletoDecode): string {
  if (decoded.kind === 'bank') return `bank slip (bank ${decoded.bankCode ?? '?'})`;
  const segment = decoded.segmentName ?? `segment ${decoded.segment ?? '?'}`;
  if (decoded.government) return `government collection: ${segment}`;
  if (decoded.utility) return `utility bill: ${segment}`;
  return `collection slip: ${segment}`;
}

/**
 * The bank window at `now` for this bill (business days 08:00 to 20:00 São Paulo, 22:00 for utility and government
 * collection slips). Outside it the provider schedules the payment for the next window.
 */
export function billTiming(decoded: BoletoDecode, now: Date): BillTiming {
  const closeHour = billWindowCloseHour(decoded);
  const w = billWindow(now, closeHour);
  const hours = `business days 08:00–${closeHour}:00, São Paulo`;
  return {
    windowOpen: w.open,
    closeHour,
    opensAt: w.opensAt.toISOString(),
    closesAt: w.closesAt.toISOString(),
    scheduledFor: w.open ? null : saoPauloDate(w.opensAt),
    message: w.open
      ? `Inside the bank window (${hours}): paid at once.`
      : `Outside the bank window (${hours}): the payment will be scheduled for ${saoPauloDateTime(w.opensAt)}.`,
  };
}

/**
 * Checks that the provider's details describe the bill that was decoded. Problems (the bill must not be paid):
 * the provider's line is another bill's; the amount written in the code is not the provider's original amount —
 * a single mistyped digit can survive the check digits and point at another bill or amount. Warnings: a different
 * due date, a bill past due (interest), a discount.
 */
export function crossCheck(decoded: BoletoDecode, details: BillDetails, today: string): { problems: BillProblem[]; warnings: string[] } {
  const problems: BillProblem[] = [];
  const warnings: string[] = [];
  const providerDigits = details.typefulLine.replace(/\D/g, '');
  if (providerDigits !== '' && providerDigits !== decoded.line && providerDigits !== decoded.barcode) {
    problems.push({
      field: 'code',
      reason: `the provider describes another bill (line ${providerDigits}); compare every digit typed with the slip`,
    });
  }
  if (decoded.amountCents !== null) {
    const adjusted = (details.discountCents ?? 0) !== 0 || (details.interestCents ?? 0) !== 0;
    const providerFace = details.originalAmountCents ?? (adjusted ? null : details.amountCents);
    if (providerFace !== null && providerFace !== decoded.amountCents) {
      problems.push({
        field: 'code',
        reason:
          `the code says ${formatBRL(decoded.amountCents)} but the provider's bill is ${formatBRL(providerFace)}: ` +
          'a mistyped digit can pass the check digits; compare the line with the slip',
      });
    }
  }
  if (decoded.dueDate !== null && details.dueDate !== '' && details.dueDate !== decoded.dueDate) {
    warnings.push(`the code's due date is ${decoded.dueDate}, the provider's is ${details.dueDate}`);
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(details.dueDate) && details.dueDate < today) {
    const interest = details.interestCents ? `; the provider adds ${formatBRL(details.interestCents)} of interest and fines` : '';
    warnings.push(`past due since ${details.dueDate}${interest}`);
  }
  if (details.discountCents) warnings.push(`the provider grants a discount of ${formatBRL(details.discountCents)}`);
  return { problems, warnings };
}

/**
 * The amount to pay, in centavos: the bill's own (the provider's amount due today), or `requestedCents` when the
 * bill lets the payer choose (canChangeAmount) and it lies within min and max. A bill whose amount cannot change
 * accepts only its own amount; a reference-value collection slip or a bill without an amount needs one given.
 * `howToGive` names the way to give it ("--amount", "the amount column").
 */
export function chooseAmount(
  decoded: BoletoDecode,
  details: BillDetails,
  requestedCents: number | null,
  howToGive: string,
): { ok: true; amountCents: number } | { ok: false; problem: BillProblem } {
  const due = details.amountCents !== null && details.amountCents > 0 ? details.amountCents : null;
  const min = details.minValueCents;
  const max = details.maxValueCents;
  const refuse = (reason: string) => ({ ok: false as const, problem: { field: 'amount' as const, reason } });
  const withinLimits = (cents: number, whose: string) => {
    if (min !== null && min > 0 && cents < min) return refuse(`${whose} ${formatBRL(cents)} is below the bill's minimum of ${formatBRL(min)}`);
    if (max !== null && max > 0 && cents > max) return refuse(`${whose} ${formatBRL(cents)} is above the bill's maximum of ${formatBRL(max)}`);
    return { ok: true as const, amountCents: cents };
  };

  if (requestedCents !== null) {
    if (!details.canChangeAmount) {
      if (due !== null && requestedCents !== due) {
        return refuse(`this bill's amount cannot change: it is ${formatBRL(due)}, not ${formatBRL(requestedCents)} (leave the amount out to pay it)`);
      }
      if (due === null && min === null && max === null) return refuse('the provider gives no amount for this bill and does not let the payer choose one');
    }
    return withinLimits(requestedCents, 'the amount');
  }
  if (decoded.valueIsReference) {
    return refuse(`the code holds a reference value, not the amount due: give the amount to pay (${howToGive})`);
  }
  if (due === null) {
    if (details.canChangeAmount) {
      const range = min !== null && max !== null ? ` between ${formatBRL(Math.max(min, 1))} and ${formatBRL(max)}` : '';
      return refuse(`this bill does not fix its amount: give the amount to pay${range} (${howToGive})`);
    }
    return refuse('the provider gives no amount for this bill');
  }
  return withinLimits(due, "the bill's amount");
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
