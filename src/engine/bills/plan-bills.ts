/**
 * The plan of paying a list of bills: from each request as read, its decoded code, the ledger's earlier rows of the
 * same bill and the provider's details, whether to pay it (amount, timing, warnings), leave it out, or refuse it with
 * reasons. Pure and without wording (see bill-plan.ts); pay-bill.ts gathers the inputs and pays.
 */
import type { BoletoDecode } from '../../domain/boleto.js';
import { parseAmount } from '../../domain/money.js';
import type { BillRow } from '../../ledger/bill-repository.js';
import type { RemittanceBill } from '../../domain/remittance-bill.js';
import type { BillDetails } from '../../provider/types.js';
import { checkDecode, checkDetails, chooseAmount, ledgerRefusal, type BillRefusal, type BillTiming, type BillWarning, type ValidBillDecode } from './bill-plan.js';

/** Longest description kept with a bill (as for sheet rows). */
export const MAX_BILL_DESCRIPTION = 140;

/** One bill to pay, as typed on the command line or read from a row of a file. */
export interface BillRequest {
  readonly code: string;
  /** Amount in reais as people write it; absent: the bill's own amount. */
  readonly amount?: string | null;
  readonly description?: string | null;
  /** Where it was read, for problems (`bills.csv:4 code: …`). */
  readonly file?: string;
  readonly line?: number;
  /** A bill of a CNAB 240 remittance: its title, linked to the bill with its intent (its return file's source). */
  readonly remittance?: RemittanceBill;
}

/** The provider's answer to a request for a bill's details (endpoint 12): the details, or its refusal of the code. */
export type DetailsAnswer = { readonly ok: true; readonly details: BillDetails } | { readonly ok: false; readonly refusal: BillRefusal };

export interface BillPlanInput {
  readonly request: BillRequest;
  /** decodeBoleto of the request's code, on the plan's day. */
  readonly decoded: BoletoDecode;
  /** Ledger rows of the same bill whose status blocks another payment, oldest first; [] for an invalid code. */
  readonly previous: readonly BillRow[];
  /** Present for the requests `detailsToAsk` names, and only for them. */
  readonly details?: DetailsAnswer;
}

export interface BillPlanOptions {
  readonly now: Date;
  /** Pay bills the ledger has as paid, scheduled or unknown. */
  readonly force: boolean;
  /**
   * Leave out (instead of refusing) bills the ledger has as paid or scheduled, so a list can be run again after an
   * interruption and pays only what is left. Bills with an unknown outcome are still refused.
   */
  readonly skipPaid: boolean;
}

/** A bill ready to pay: every check passed. Amount in centavos. */
export interface PreparedBill {
  readonly request: BillRequest;
  readonly decoded: ValidBillDecode;
  readonly details: BillDetails;
  readonly timing: BillTiming;
  readonly warnings: readonly BillWarning[];
  readonly amountCents: number;
  readonly description: string | null;
  /** Ledger rows of the same bill that would block it without --force (paid, scheduled, unknown, intent). */
  readonly previous: readonly BillRow[];
}

/** A request left out because the ledger has its bill paid or scheduled (`skipPaid`). */
export interface SkippedBill {
  readonly request: BillRequest;
  /** The ledger row that pays it. */
  readonly paidBy: BillRow;
}

/** A request that must not be paid, with every reason found. */
export interface RefusedBill {
  readonly request: BillRequest;
  readonly reasons: readonly BillRefusal[];
}

/** What to do with one request. */
export type BillDecision =
  | { readonly action: 'pay'; readonly bill: PreparedBill }
  | ({ readonly action: 'skip' } & SkippedBill)
  | ({ readonly action: 'refuse' } & RefusedBill);

type OfflineVerdict =
  | Exclude<BillDecision, { action: 'pay' }>
  | { readonly action: 'ask'; readonly request: BillRequest; readonly decoded: ValidBillDecode; readonly requestedCents: number | null; readonly description: string | null; readonly previous: readonly BillRow[] };

/**
 * The line whose details the provider must be asked for, for each input (null: none, it fails an offline check or is
 * left out). Only codes that pass every offline check reach the provider.
 */
export function detailsToAsk(inputs: readonly BillPlanInput[], o: BillPlanOptions): (string | null)[] {
  return offlineVerdicts(inputs, o).map((v) => (v.action === 'ask' ? v.decoded.line : null));
}

/**
 * One decision per input, in order: pay (amount in centavos, timing, warnings), skip, or refuse with every reason
 * found — the offline ones (code, amount text, description, the same bill twice, the ledger's newest earlier attempt
 * unless `force`) and, for requests that pass them, the provider's (its refusal of the code, details that describe
 * another bill, the amount rules). Throws if an input `detailsToAsk` names has no details.
 */
export function planBills(inputs: readonly BillPlanInput[], o: BillPlanOptions): BillDecision[] {
  return offlineVerdicts(inputs, o).map((v, i): BillDecision => {
    if (v.action !== 'ask') return v;
    const answer = inputs[i]?.details;
    if (answer === undefined) throw new Error(`planBills: no details for request ${i + 1} (line ${v.decoded.line})`);
    if (!answer.ok) return { action: 'refuse', request: v.request, reasons: [answer.refusal] };
    const checked = checkDetails(v.decoded, answer.details, o.now);
    const amount = chooseAmount(v.decoded, answer.details, v.requestedCents);
    if (!amount.ok || checked.refusals.length) {
      return { action: 'refuse', request: v.request, reasons: [...checked.refusals, ...(amount.ok ? [] : [amount.refusal])] };
    }
    return {
      action: 'pay',
      bill: {
        request: v.request,
        decoded: v.decoded,
        details: answer.details,
        timing: checked.timing,
        warnings: checked.warnings,
        amountCents: amount.amountCents,
        description: v.description,
        previous: v.previous,
      },
    };
  });
}

function offlineVerdicts(inputs: readonly BillPlanInput[], o: BillPlanOptions): OfflineVerdict[] {
  const firstLineOf = new Map<string, number | undefined>();
  return inputs.map(({ request, decoded, previous }): OfflineVerdict => {
    const reasons: BillRefusal[] = [];
    const code = checkDecode(decoded);
    if (!code.ok) reasons.push(code.refusal);
    let requestedCents: number | null = null;
    if (request.amount !== undefined && request.amount !== null && request.amount.trim() !== '') {
      const parsed = parseAmount(request.amount);
      if (parsed.ok) requestedCents = parsed.value;
      else reasons.push({ code: 'invalid_amount', reason: parsed.error });
    }
    const description = request.description?.trim() || null;
    if (description !== null && description.length > MAX_BILL_DESCRIPTION) {
      reasons.push({ code: 'description_too_long', length: description.length, max: MAX_BILL_DESCRIPTION });
    }
    if (!code.ok) return { action: 'refuse', request, reasons };

    const { barcode } = code.value;
    if (firstLineOf.has(barcode)) reasons.push({ code: 'same_bill_twice', firstLine: firstLineOf.get(barcode) ?? null });
    else firstLineOf.set(barcode, request.line);
    // The newest attempt decides: a bill paid with --force after an unknown attempt is paid.
    const newest = previous.at(-1);
    if (newest && !o.force) {
      if (o.skipPaid && (newest.status === 'paid' || newest.status === 'scheduled') && reasons.length === 0) return { action: 'skip', request, paidBy: newest };
      reasons.push(ledgerRefusal(newest));
    }
    if (reasons.length) return { action: 'refuse', request, reasons };
    return { action: 'ask', request, decoded: code.value, requestedCents, description, previous };
  });
}
