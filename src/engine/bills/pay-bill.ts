/**
 * Paying bills (SPEC.md endpoints 12 and 13): every bill is decoded offline, checked against the ledger and against
 * the provider's details, and its amount and timing settled (the pure plan, plan-bills.ts), before anything is paid;
 * then, once a person confirmed that plan (prepareBillPayment, then commitBillPayment), each is paid with its intent
 * written to the ledger first. A payment's answer is final: it is never retried, and a lost answer leaves the bill
 * `unknown` for a person to check. Refusals, warnings and outcomes are values; the CLI words them.
 */
import { saoPauloDate } from '../../domain/bank-calendar.js';
import { decodeBoleto } from '../../domain/boleto.js';
import { itemStateFromWord } from '../../domain/provider-words.js';
import { ProviderError } from '../../errors.js';
import { blockingBills, getBill, insertBillIntent, updateBill, type BillRow, type BillUpdate } from '../../ledger/bill-repository.js';
import { closeOpenIntents, failureOutcome, hasOutcome, logIntent, logOutcome } from '../../ledger/call-log.js';
import type { Ledger } from '../../ledger/ledger.js';
import { recordRemittanceBill, recordRemittanceBillLines } from '../../ledger/remittance-bill-repository.js';
import type { ProviderClient } from '../../provider/client.js';
import { isAlreadyPaid } from '../../provider/error-meaning.js';
import type { BillDetails, BillPayment } from '../../provider/types.js';
import { writeBillDocument, type BillDocumentDeps } from './bill-documents.js';
import { checkDecode, checkDetails, ledgerRefusal, type BillRefusal, type BillTiming, type BillWarning, type ValidBillDecode } from './bill-plan.js';
import { billApprovalTarget, requireBillApprovals, signAsMaker, type ApprovalGate, type MakerKey } from '../approvals/index.js';
import { crashPoint } from '../crash-point.js';
import { detailsToAsk, planBills, type BillDecision, type BillPlanInput, type BillRequest, type DetailsAnswer, type PreparedBill, type RefusedBill, type SkippedBill } from './plan-bills.js';

/** `documents`: where and how the bill's documents are written (bound at the edge). */
export interface BillDeps extends BillDocumentDeps {
  /** Opened only once every offline check has passed. */
  readonly provider: () => Promise<Pick<ProviderClient, 'boletoDetails' | 'payBoleto'>>;
  /** The profile's approval policy and approvers: bills wait for the approvals they demand (absent: no policy). */
  readonly approvals?: ApprovalGate;
  /** The payer's key under an approval policy: they sign as each bill's maker, whose own approval never counts. */
  readonly maker?: MakerKey;
}

/** A valid code with the provider's details and what the rules say about them. */
export interface InspectedBill {
  readonly decoded: ValidBillDecode;
  readonly details: BillDetails;
  readonly timing: BillTiming;
  /** The details do not describe the bill typed: it must not be paid. */
  readonly refusals: readonly BillRefusal[];
  readonly warnings: readonly BillWarning[];
}

/** An inspection, or why it stopped: at the code (nothing was sent to the provider) or at the provider's details. */
export type Inspection =
  | { readonly ok: true; readonly bill: InspectedBill }
  | { readonly ok: false; readonly stage: 'code' | 'details'; readonly refusal: BillRefusal };

export type BillOutcomeStatus = 'paid' | 'scheduled' | 'unknown' | 'failed';

/** What the provider answered to a payment (endpoint 13). */
export type PaymentAnswer =
  /** The answer was lost (`error`: what was seen); the bill may or may not be paid. `startedAt`: when it was sent. */
  | { readonly kind: 'lost'; readonly error: string; readonly startedAt: Date }
  /** A definite refusal; `alreadyPaid`: the provider says the bill was paid or scheduled already (e.g. 409). */
  | { readonly kind: 'refused'; readonly error: string; readonly alreadyPaid: boolean; readonly providerHint: string | null }
  /** Taken; its status word decides paid, scheduled or (a word paybatch does not know) unknown. */
  | { readonly kind: 'taken'; readonly payment: BillPayment };

/** Something to know about a payment that was made. Amounts in centavos. */
export type PaymentWarning =
  | { readonly code: 'paid_amount_differs'; readonly paidCents: number; readonly askedCents: number }
  | { readonly code: 'receipt_not_written'; readonly detail: string }
  /** Scheduled although the bank window was expected open (one of the two clocks is off). */
  | { readonly code: 'scheduled_unexpectedly' };

export interface BillOutcome {
  readonly bill: PreparedBill;
  readonly status: BillOutcomeStatus;
  /** The ledger row after the outcome. */
  readonly row: BillRow;
  readonly answer: PaymentAnswer;
  readonly receiptPath: string | null;
  readonly warnings: readonly PaymentWarning[];
}

export interface PayBillsOptions {
  /** Pay bills the ledger has as paid, scheduled or unknown. */
  readonly force: boolean;
  /**
   * Leave out (instead of refusing) bills the ledger has as paid or scheduled, so a list can be run again after an
   * interruption and pays only what is left. Bills with an unknown outcome are still refused.
   */
  readonly skipPaid?: boolean;
}

/** The bills to pay (one typed, or the rows of a list) and how. */
export interface BillPaymentRequest extends PayBillsOptions {
  readonly requests: readonly BillRequest[];
}

/** What a person confirms (between prepareBillPayment and commitBillPayment): every bill that passed its checks. */
export interface BillPaymentPlan {
  /** In order; each with its amount, timing, warnings and the ledger's earlier attempts. */
  readonly bills: readonly PreparedBill[];
  /** Requests left out because the ledger has them paid or scheduled (`skipPaid`). */
  readonly skipped: readonly SkippedBill[];
  readonly force: boolean;
}

/** A payment is either planned, to confirm and commit, or done already: nothing left to pay. */
export type BillPaymentPreparation = { readonly kind: 'plan'; readonly plan: BillPaymentPlan } | { readonly kind: 'done'; readonly result: PayBillsResult };

/** Called after each payment, for progress. */
export type OnBillOutcome = (outcome: BillOutcome, index: number, total: number) => void;

export interface PayBillsResult {
  readonly outcomes: readonly BillOutcome[];
  /** Bills not sent because an earlier one ended `unknown`. */
  readonly notAttempted: readonly PreparedBill[];
  /** Requests left out because the ledger has them paid or scheduled (`skipPaid`). */
  readonly skipped: readonly SkippedBill[];
}

/**
 * Bills the rules refuse, with every reason (values the CLI words). `stage`: `checking` when the checks before any
 * payment found them (nothing was paid); `paying` when the ledger, checked again as a bill was about to be sent, has
 * it paid or being paid by another run since.
 */
export class BillsRefusedError extends Error {
  constructor(
    readonly refused: readonly RefusedBill[],
    readonly stage: 'checking' | 'paying',
  ) {
    super(`${refused.length} bill request(s) refused while ${stage}`);
    this.name = 'BillsRefusedError';
  }
}

/**
 * Decodes a code offline and asks the provider for its details (endpoint 12). An invalid code never reaches the
 * provider. The cross-check of the details against the code is returned as refusals, so the details can still be
 * shown.
 */
export async function inspectBill(deps: Pick<BillDeps, 'provider' | 'now'>, code: string): Promise<Inspection> {
  const now = deps.now();
  const decoded = checkDecode(decodeBoleto(code, saoPauloDate(now)));
  if (!decoded.ok) return { ok: false, stage: 'code', refusal: decoded.refusal };
  const answer = await fetchDetails(await deps.provider(), decoded.value.line);
  if (!answer.ok) return { ok: false, stage: 'details', refusal: answer.refusal };
  return { ok: true, bill: { decoded: decoded.value, details: answer.details, ...checkDetails(decoded.value, answer.details, now) } };
}

/**
 * Paying bills, first half: plans every request (offline rules, the ledger, the provider's details, the amount
 * rules), and if any is refused throws a BillsRefusedError with every reason, nothing paid. Under an approval policy
 * the payer signs as each bill's maker and the approvals are required here, before anyone is asked to confirm.
 * Nothing of the payment is written; what is left to pay is the plan, or the result when nothing is.
 */
export async function prepareBillPayment(deps: BillDeps, request: BillPaymentRequest): Promise<BillPaymentPreparation> {
  const decisions = await prepareBills(deps, request.requests, request);
  const refused = decisions.flatMap((d) => (d.action === 'refuse' ? [{ request: d.request, reasons: d.reasons }] : []));
  if (refused.length) throw new BillsRefusedError(refused, 'checking');
  const bills = decisions.flatMap((d) => (d.action === 'pay' ? [d.bill] : []));
  if (deps.approvals) {
    const targets = bills.map(billApprovalTarget);
    // The payer is each bill's maker: their signature keeps their own approval from counting.
    const { maker } = deps;
    if (maker) for (const target of targets) await signAsMaker({ ledger: deps.ledger, gate: deps.approvals, now: deps.now, signedFrom: maker.signedFrom }, target, maker.signer);
    await requireBillApprovals(deps.ledger, deps.approvals, targets);
  }
  const skipped = decisions.flatMap((d) => (d.action === 'skip' ? [{ request: d.request, paidBy: d.paidBy }] : []));
  if (bills.length === 0) return { kind: 'done', result: { outcomes: [], notAttempted: [], skipped } };
  return { kind: 'plan', plan: { bills, skipped, force: request.force } };
}

/**
 * Paying bills, second half, once the plan is confirmed: pays the bills one by one, each with its intent written
 * before the call. Each bill's ledger rows are read again in the transaction that writes its intent, so a bill
 * another run paid (or started paying) since the plan is refused, never paid twice; the approvals are required
 * again. Stops at the first outcome that is unknown, leaving the rest unsent. A definite refusal (e.g. 409, already
 * paid at the provider) marks that bill `failed` and goes on with the next.
 */
export async function commitBillPayment(deps: BillDeps, plan: BillPaymentPlan, onOutcome?: OnBillOutcome): Promise<PayBillsResult> {
  const { bills, skipped, force } = plan;
  if (deps.approvals) await requireBillApprovals(deps.ledger, deps.approvals, bills.map(billApprovalTarget));
  const provider = await deps.provider();
  // A remittance's bills are paid one after another: its return file waits for every line this run is to pay.
  await recordRemittanceBillLines(deps.ledger, bills.flatMap((b) => (b.request.remittance ? [{ fileHash: b.request.remittance.fileHash, line: b.request.remittance.line }] : [])));
  const outcomes: BillOutcome[] = [];
  for (const [i, bill] of bills.entries()) {
    const outcome = await payOne(deps, provider, bill, force);
    outcomes.push(outcome);
    onOutcome?.(outcome, i, bills.length);
    if (outcome.status === 'unknown') return { outcomes, notAttempted: bills.slice(i + 1), skipped };
  }
  return { outcomes, notAttempted: [], skipped };
}

/** Gathers what the plan needs (decodes, the ledger's earlier rows, the provider's details) and plans every request. */
export async function prepareBills(
  deps: Pick<BillDeps, 'ledger' | 'provider' | 'now'>,
  requests: readonly BillRequest[],
  o: Pick<PayBillsOptions, 'force' | 'skipPaid'>,
): Promise<BillDecision[]> {
  const now = deps.now();
  const options = { now, force: o.force, skipPaid: o.skipPaid ?? false };
  const today = saoPauloDate(now);
  const inputs: BillPlanInput[] = [];
  for (const request of requests) {
    const decoded = decodeBoleto(request.code, today);
    const valid = checkDecode(decoded);
    inputs.push({ request, decoded, previous: valid.ok ? await blockingBills(deps.ledger, valid.value.barcode) : [] });
  }
  const ask = detailsToAsk(inputs, options);
  if (ask.some((line) => line !== null)) {
    const provider = await deps.provider();
    for (const [i, line] of ask.entries()) {
      if (line !== null) inputs[i] = { ...inputs[i]!, details: await fetchDetails(provider, line) };
    }
  }
  return planBills(inputs, options);
}

/** Pays one prepared bill: intent (bill row + call log) committed first, then endpoint 13 once, then the outcome. */
async function payOne(deps: BillDeps, provider: Pick<ProviderClient, 'payBoleto'>, bill: PreparedBill, force: boolean): Promise<BillOutcome> {
  const { ledger } = deps;
  const startedAt = deps.now();
  const { decoded, details } = bill;
  const { billId, intentId } = await ledger.transaction(async (tx) => {
    // Checked again inside the transaction: another run may have paid the bill since it was prepared.
    const blocking = (await blockingBills(tx, decoded.barcode))[0];
    if (blocking && !force) throw new BillsRefusedError([{ request: bill.request, reasons: [ledgerRefusal(blocking)] }], 'paying');
    const id = await insertBillIntent(
      tx,
      {
        barcode: decoded.barcode,
        line: decoded.line,
        kind: decoded.kind,
        description: bill.description,
        beneficiary: details.beneficiary || null,
        beneficiaryDocument: details.beneficiaryDocument || null,
        assignor: details.assignor || null,
        dueDate: details.dueDate || decoded.dueDate,
        amountCents: bill.amountCents,
        forced: force && blocking !== undefined,
        // Kept from the details the payment was decided on: what the receipt and the statement show it made of.
        charges: { originalCents: details.originalAmountCents, discountCents: details.discountCents, interestCents: details.interestCents, fineCents: details.fineCents },
      },
      startedAt,
    );
    // A remittance's bill is never paid without its title: its return file is written from it.
    if (bill.request.remittance) await recordRemittanceBill(tx, id, bill.request.remittance);
    const intent = await logIntent(tx, 'pay_bill', `bill:${id}`, { code: decoded.line, amountCents: bill.amountCents, forced: force && blocking !== undefined }, startedAt);
    if (force) await supersedeUnresolved(tx, decoded.barcode, id, startedAt);
    return { billId: id, intentId: intent };
  });

  crashPoint('bill-intent');
  let result: BillPayment;
  try {
    result = await provider.payBoleto(decoded.line, bill.amountCents);
  } catch (error) {
    crashPoint('bill-outcome');
    const at = deps.now();
    const { outcome, detail } = failureOutcome(error);
    if (outcome === 'unknown') {
      await recordAnswer(ledger, { billId, intentId }, { status: 'unknown', error: errorText(error) }, { outcome: 'unknown', detail }, at);
      if (!(error instanceof ProviderError)) throw error;
      return { bill, status: 'unknown', row: await getBill(ledger, billId), answer: { kind: 'lost', error: error.message, startedAt }, receiptPath: null, warnings: [] };
    }
    const e = error as ProviderError;
    const alreadyPaid = isAlreadyPaid(e);
    await recordAnswer(ledger, { billId, intentId }, { status: 'failed', error: alreadyPaid ? `already paid at the provider: ${e.message}` : e.message }, { outcome: 'error', detail }, at);
    return {
      bill,
      status: 'failed',
      row: await getBill(ledger, billId),
      answer: { kind: 'refused', error: e.message, alreadyPaid, providerHint: e.hint ?? null },
      receiptPath: null,
      warnings: [],
    };
  }

  crashPoint('bill-outcome');
  const at = deps.now();
  const status = ledgerStatusOf(result.status);
  const warnings: PaymentWarning[] = [];
  if (result.amountPaidCents !== null && result.amountPaidCents !== bill.amountCents) {
    warnings.push({ code: 'paid_amount_differs', paidCents: result.amountPaidCents, askedCents: bill.amountCents });
  }
  await recordAnswer(
    ledger,
    { billId, intentId },
    {
      status: status ?? 'unknown',
      remote_status: result.status,
      transaction_id: result.transactionId || null,
      settle_date: result.settleDate || null,
      amount_paid_cents: result.amountPaidCents,
      result_json: JSON.stringify(result.raw),
      beneficiary: result.beneficiary || details.beneficiary || null,
      beneficiary_document: result.beneficiaryDocument || details.beneficiaryDocument || null,
      assignor: result.assignor || details.assignor || null,
      due_date: result.dueDate || details.dueDate || decoded.dueDate,
      payer: result.payer || null,
      payer_document: result.payerDocument || null,
      bill_amount_cents: result.amountCents,
      provider_timestamp: result.timestamp || null,
      error: status === null ? `the provider answered status "${result.status}", which paybatch does not know` : null,
    },
    { outcome: 'ok', detail: { transactionId: result.transactionId, status: result.status, settleDate: result.settleDate } },
    at,
  );

  let receiptPath: string | null = null;
  try {
    // The scheduling or the payment receipt, as the bill's status now says (an event may have moved it meanwhile).
    receiptPath = await writeBillDocument(deps, await getBill(ledger, billId));
  } catch (e) {
    warnings.push({ code: 'receipt_not_written', detail: errorText(e) });
  }

  if (status === 'scheduled' && bill.timing.scheduledFor === null) warnings.push({ code: 'scheduled_unexpectedly' });
  return { bill, status: status ?? 'unknown', row: await getBill(ledger, billId), answer: { kind: 'taken', payment: result }, receiptPath, warnings };
}

/**
 * Writes what the call's answer says about its bill, and the call's outcome, in one transaction. A provider event
 * may have settled the bill while the call was in flight (a lost answer, a slow one): its news stands, so the
 * answer then adds its details but never moves the bill's status, and the outcome the event wrote is kept.
 */
async function recordAnswer(ledger: Ledger, call: { billId: number; intentId: number }, changes: BillUpdate, result: { outcome: 'ok' | 'error' | 'unknown'; detail: unknown }, at: Date): Promise<void> {
  await ledger.transaction(async (tx) => {
    const { status: _status, error: _error, ...details } = changes;
    await updateBill(tx, call.billId, (await getBill(tx, call.billId)).status === 'intent' ? changes : details, at);
    if (!(await hasOutcome(tx, call.intentId))) await logOutcome(tx, call.intentId, result.outcome, result.detail, at);
  });
}

/**
 * `--force` pays a bill again once a person found no payment of the earlier attempts whose outcome was not known
 * (a kill mid-call, a lost answer): those are closed as not paid — no longer blocking, their calls no longer open —
 * naming the payment that replaced them.
 */
async function supersedeUnresolved(ledger: Ledger, barcode: string, byBillId: number, at: Date): Promise<void> {
  for (const earlier of await blockingBills(ledger, barcode)) {
    if (earlier.id === byBillId || (earlier.status !== 'intent' && earlier.status !== 'unknown')) continue;
    const why = `not found at the provider when it was paid again with --force as bill #${byBillId}`;
    await updateBill(ledger, earlier.id, { status: 'failed', error: why }, at);
    await closeOpenIntents(ledger, 'pay_bill', `bill:${earlier.id}`, 'unknown', { closedBy: 'forced payment', billId: byBillId, note: why }, at);
  }
}

/**
 * The ledger status of the provider's word for a bill payment, read with the table of payment words: paid
 * (`paid`, `pago`, `liquidado`, …), scheduled (`scheduled`, `agendado`, `pending`, …: accepted for a later window),
 * or null for any other word — `processing` included, whose outcome is not known yet.
 */
export function ledgerStatusOf(remote: string): 'paid' | 'scheduled' | null {
  const state = itemStateFromWord(remote);
  if (state === 'paid') return 'paid';
  return state === 'submitted' ? 'scheduled' : null;
}

/** The provider's details; its refusals of the code itself (400, 404, 422) are refusals of the request. */
async function fetchDetails(provider: Pick<ProviderClient, 'boletoDetails'>, line: string): Promise<DetailsAnswer> {
  try {
    return { ok: true, details: await provider.boletoDetails(line) };
  } catch (e) {
    if (!(e instanceof ProviderError) || (e.status !== 400 && e.status !== 404 && e.status !== 422)) throw e;
    return { ok: false, refusal: e.status === 404 ? { code: 'unknown_to_provider' } : { code: 'code_refused_by_provider', detail: e.message } };
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
