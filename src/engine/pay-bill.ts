/**
 * Paying bills (SPEC.md endpoints 12 and 13): every bill is decoded offline, checked against the ledger and against
 * the provider's details, and its amount and timing settled, before anything is paid; then, after one confirmation,
 * each is paid with its intent written to the ledger first. A payment's answer is final: it is never retried, and a
 * lost answer leaves the bill `unknown` for a person to check.
 */
import { saoPauloDate, saoPauloDateTime } from '../domain/bank-calendar.js';
import { decodeBoleto, formatBoletoLine, type BoletoDecode } from '../domain/boleto.js';
import { formatBRL, parseAmount } from '../domain/money.js';
import { itemStateFromWord } from '../domain/provider-words.js';
import { CancelledError, InputRejectedError, ProviderError, type InputProblem } from '../errors.js';
import { blockingBills, getBill, insertBillIntent, updateBill, type BillRow } from '../ledger/bill-repository.js';
import { failureOutcome, logIntent, logOutcome } from '../ledger/call-log.js';
import type { Ledger } from '../ledger/open-ledger.js';
import type { ProviderClient } from '../provider/client.js';
import { isAlreadyPaid } from '../provider/error-meaning.js';
import type { BillDetails, BillPayment } from '../provider/types.js';
import { writeBillReceipt } from '../receipts/bill-receipt.js';
import { billKindName, billTiming, chooseAmount, crossCheck, type BillProblem, type BillTiming } from './bill-plan.js';
import { crashPoint } from './crash-point.js';

/** Longest description kept with a bill (as for sheet rows). */
export const MAX_BILL_DESCRIPTION = 140;

export interface BillDeps {
  readonly ledger: Ledger;
  /** Opened only once every offline check has passed. */
  readonly provider: () => Promise<Pick<ProviderClient, 'boletoDetails' | 'payBoleto'>>;
  readonly now: () => Date;
  readonly receiptsDir: string;
}

/** One bill to pay, as typed on the command line or read from a row of a file. */
export interface BillRequest {
  readonly code: string;
  /** Amount in reais as people write it; absent: the bill's own amount. */
  readonly amount?: string | null;
  readonly description?: string | null;
  /** Where it was read, for problems (`bills.csv:4 code: …`). */
  readonly file?: string;
  readonly line?: number;
}

/** A valid code with the provider's details and what the rules say about them. */
export interface InspectedBill {
  readonly decoded: BoletoDecode & { readonly line: string; readonly barcode: string; readonly kind: 'bank' | 'collection' };
  readonly details: BillDetails;
  readonly kindName: string;
  readonly timing: BillTiming;
  /** The details do not describe the bill typed: it must not be paid. */
  readonly problems: readonly BillProblem[];
  readonly warnings: readonly string[];
}

/** A bill ready to pay: every check passed. Amount in centavos. */
export interface PreparedBill extends InspectedBill {
  readonly request: BillRequest;
  readonly amountCents: number;
  readonly description: string | null;
  /** Ledger rows of the same bill that would block it without --force (paid, scheduled, unknown, intent). */
  readonly previous: readonly BillRow[];
}

export type BillOutcomeStatus = 'paid' | 'scheduled' | 'unknown' | 'failed';

export interface BillOutcome {
  readonly bill: PreparedBill;
  readonly status: BillOutcomeStatus;
  /** The ledger row after the outcome. */
  readonly row: BillRow;
  readonly message: string;
  /** What to do next (unknown and failed outcomes). */
  readonly hint: string | null;
  readonly receiptPath: string | null;
  readonly warnings: readonly string[];
}

export interface PayBillsOptions {
  /** Pay bills the ledger has as paid, scheduled or unknown. */
  readonly force: boolean;
  /**
   * Leave out (instead of refusing) bills the ledger has as paid or scheduled, so a list can be run again after an
   * interruption and pays only what is left. Bills with an unknown outcome are still refused.
   */
  readonly skipPaid?: boolean;
  /** How a missing amount is given, for problems: "--amount" or "the amount column". */
  readonly howToGive: string;
  /** Asked once, after every bill passed its checks; false cancels (nothing is paid). */
  readonly confirm: (bills: readonly PreparedBill[]) => Promise<boolean>;
  /** Called after each payment, for progress. */
  readonly onOutcome?: (outcome: BillOutcome, index: number, total: number) => void;
}

export interface PayBillsResult {
  readonly outcomes: readonly BillOutcome[];
  /** Bills not sent because an earlier one ended `unknown`. */
  readonly notAttempted: readonly PreparedBill[];
  /** Requests left out because the ledger has them paid or scheduled (`skipPaid`). */
  readonly skipped: readonly SkippedBill[];
}

export interface SkippedBill {
  readonly request: BillRequest;
  /** The ledger row that pays it. */
  readonly paidBy: BillRow;
  readonly reason: string;
}

/**
 * Decodes a code offline and asks the provider for its details (endpoint 12). An invalid code never reaches the
 * provider; it, and a bill the provider does not know, are an InputRejectedError. The cross-check of the details
 * against the code is returned as problems, not thrown, so the details can still be shown.
 */
export async function inspectBill(deps: Pick<BillDeps, 'provider' | 'now'>, code: string): Promise<InspectedBill> {
  const now = deps.now();
  const decoded = decodeValid(code, now);
  if (!decoded.ok) throw new InputRejectedError('This is not a valid bill code; nothing was sent to the provider.', [decoded.problem]);
  const details = await fetchDetails(await deps.provider(), decoded.value.line);
  if (!details.ok) throw new InputRejectedError('The provider cannot give the details of this bill.', [details.problem]);
  return inspection(decoded.value, details.value, now);
}

/**
 * Pays bills: validates every request first (offline rules, the ledger, the provider's details, the amount rules),
 * and if any fails throws an InputRejectedError listing every problem with nothing paid. Then asks `confirm` once
 * and pays them one by one, each with its intent written before the call. Stops at the first outcome that is
 * unknown, leaving the rest unsent. A definite refusal (e.g. 409, already paid at the provider) marks that bill
 * `failed` and goes on with the next.
 */
export async function payBills(deps: BillDeps, requests: readonly BillRequest[], o: PayBillsOptions): Promise<PayBillsResult> {
  const { bills: prepared, skipped } = await prepareBills(deps, requests, o);
  if (prepared.length === 0) return { outcomes: [], notAttempted: [], skipped };
  if (!(await o.confirm(prepared))) throw new CancelledError('Cancelled; nothing was paid.');
  const provider = await deps.provider();
  const outcomes: BillOutcome[] = [];
  for (const [i, bill] of prepared.entries()) {
    const outcome = await payOne(deps, provider, bill, o.force);
    outcomes.push(outcome);
    o.onOutcome?.(outcome, i, prepared.length);
    if (outcome.status === 'unknown') return { outcomes, notAttempted: prepared.slice(i + 1), skipped };
  }
  return { outcomes, notAttempted: [], skipped };
}

/** Every check of every request; throws an InputRejectedError with all problems when any fails. */
export async function prepareBills(
  deps: Pick<BillDeps, 'ledger' | 'provider' | 'now'>,
  requests: readonly BillRequest[],
  o: Pick<PayBillsOptions, 'force' | 'howToGive' | 'skipPaid'>,
): Promise<{ bills: PreparedBill[]; skipped: SkippedBill[] }> {
  const now = deps.now();
  const problems: InputProblem[] = [];
  const firstLineOf = new Map<string, number | undefined>();
  const skipped: SkippedBill[] = [];
  const offline: { request: BillRequest; decoded: InspectedBill['decoded']; requestedCents: number | null; description: string | null; previous: BillRow[] }[] = [];

  for (const request of requests) {
    const where = { file: request.file, line: request.line };
    const rowProblems: InputProblem[] = [];
    const decoded = decodeValid(request.code, now);
    if (!decoded.ok) rowProblems.push({ ...where, ...decoded.problem });
    let requestedCents: number | null = null;
    if (request.amount !== undefined && request.amount !== null && request.amount.trim() !== '') {
      const parsed = parseAmount(request.amount);
      if (parsed.ok) requestedCents = parsed.value;
      else rowProblems.push({ ...where, field: 'amount', reason: parsed.error });
    }
    const description = request.description?.trim() || null;
    if (description !== null && description.length > MAX_BILL_DESCRIPTION) {
      rowProblems.push({ ...where, field: 'description', reason: `longer than ${MAX_BILL_DESCRIPTION} characters (${description.length})` });
    }
    let previous: BillRow[] = [];
    if (decoded.ok) {
      const { barcode } = decoded.value;
      if (firstLineOf.has(barcode)) {
        const first = firstLineOf.get(barcode);
        rowProblems.push({ ...where, field: 'code', reason: `the same bill as ${first === undefined ? 'another request' : `line ${first}`}; a bill is paid once` });
      } else firstLineOf.set(barcode, request.line);
      previous = blockingBills(deps.ledger, barcode);
      // The newest attempt decides: a bill paid with --force after an unknown attempt is paid.
      const newest = previous.at(-1);
      if (newest && !o.force) {
        if (o.skipPaid && (newest.status === 'paid' || newest.status === 'scheduled') && rowProblems.length === 0) {
          skipped.push({ request, paidBy: newest, reason: blockedReason(newest).replace(/; pass --force.*$/, '') });
          continue;
        }
        rowProblems.push({ ...where, field: 'code', reason: blockedReason(newest) });
      }
    }
    problems.push(...rowProblems);
    if (decoded.ok && rowProblems.length === 0) offline.push({ request, decoded: decoded.value, requestedCents, description, previous });
  }

  // Only codes that passed every offline check reach the provider.
  const prepared: PreparedBill[] = [];
  if (offline.length) {
    const provider = await deps.provider();
    for (const r of offline) {
      const where = { file: r.request.file, line: r.request.line };
      const details = await fetchDetails(provider, r.decoded.line);
      if (!details.ok) {
        problems.push({ ...where, ...details.problem });
        continue;
      }
      const inspected = inspection(r.decoded, details.value, now);
      const amount = chooseAmount(r.decoded, details.value, r.requestedCents, o.howToGive);
      const rowProblems = [...inspected.problems, ...(amount.ok ? [] : [amount.problem])];
      if (rowProblems.length) {
        problems.push(...rowProblems.map((p) => ({ ...where, ...p })));
        continue;
      }
      if (!amount.ok) continue;
      prepared.push({ ...inspected, request: r.request, amountCents: amount.amountCents, description: r.description, previous: r.previous });
    }
  }

  if (problems.length) {
    problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    const fromFile = requests[0]?.file;
    const bad = new Set(problems.map((p) => p.line)).size;
    throw new InputRejectedError(
      fromFile === undefined ? 'This bill cannot be paid; nothing was paid.' : `${bad} of ${requests.length} bills in ${fromFile} cannot be paid; nothing was paid.`,
      problems,
      problems.some((p) => p.reason.includes('--force')) ? { hint: 'Check the ledger with `paybatch boleto list` before paying again.' } : undefined,
    );
  }
  return { bills: prepared, skipped };
}

/** Pays one prepared bill: intent (bill row + call log) committed first, then endpoint 13 once, then the outcome. */
async function payOne(deps: BillDeps, provider: Pick<ProviderClient, 'payBoleto'>, bill: PreparedBill, force: boolean): Promise<BillOutcome> {
  const { ledger } = deps;
  const startedAt = deps.now();
  const { decoded, details } = bill;
  const { billId, intentId } = ledger.transaction(() => {
    // Checked again inside the transaction: another run may have paid the bill since it was prepared.
    const blocking = blockingBills(ledger, decoded.barcode)[0];
    if (blocking && !force) {
      throw new InputRejectedError('This bill cannot be paid; nothing was paid.', [{ file: bill.request.file, line: bill.request.line, field: 'code', reason: blockedReason(blocking) }]);
    }
    const id = insertBillIntent(
      ledger,
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
      },
      startedAt,
    );
    const intent = logIntent(ledger, 'pay_bill', `bill:${id}`, { code: decoded.line, amountCents: bill.amountCents, forced: force && blocking !== undefined }, startedAt);
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
      ledger.transaction(() => {
        updateBill(ledger, billId, { status: 'unknown', error: errorText(error) }, at);
        logOutcome(ledger, intentId, 'unknown', detail, at);
      });
      if (!(error instanceof ProviderError)) throw error;
      return {
        bill,
        status: 'unknown',
        row: getBill(ledger, billId),
        message: `The answer to the payment of ${formatBRL(bill.amountCents)} to ${details.beneficiary || 'the beneficiary'} was lost (${error.message}): the bill may or may not be paid. It is recorded as unknown (bill #${billId}) and will not be retried.`,
        hint:
          `Check the provider's statement, or its bill payments for the line ${formatBoletoLine(decoded.line)}, around ${saoPauloDateTime(startedAt)} (São Paulo). ` +
          'If the payment is not there, pay again with --force; if it is, do nothing (a daemon receiving webhooks also settles it when the provider reports it).',
        receiptPath: null,
        warnings: [],
      };
    }
    const e = error as ProviderError;
    const alreadyPaid = isAlreadyPaid(e);
    const message = alreadyPaid
      ? `The provider refused the payment: this bill was already paid or scheduled at the provider (${e.message}). Nothing was paid now.`
      : `The provider refused the payment (${e.message}). Nothing was paid.`;
    ledger.transaction(() => {
      updateBill(ledger, billId, { status: 'failed', error: alreadyPaid ? `already paid at the provider: ${e.message}` : e.message }, at);
      logOutcome(ledger, intentId, 'error', detail, at);
    });
    return {
      bill,
      status: 'failed',
      row: getBill(ledger, billId),
      message,
      hint: alreadyPaid
        ? bill.previous.length
          ? `The ledger has this bill as ${bill.previous.map((p) => `${p.status} (#${p.id})`).join(', ')}: that payment most likely went through. Check the provider's statement.`
          : "Someone else may have paid it: check the provider's statement and the beneficiary before anything else."
        : (e.hint ?? null),
      receiptPath: null,
      warnings: [],
    };
  }

  crashPoint('bill-outcome');
  const at = deps.now();
  const status = ledgerStatusOf(result.status);
  const warnings: string[] = [];
  if (result.amountPaidCents !== null && result.amountPaidCents !== bill.amountCents) {
    warnings.push(`the provider reports ${formatBRL(result.amountPaidCents)} paid, but ${formatBRL(bill.amountCents)} was asked for`);
  }
  ledger.transaction(() => {
    updateBill(
      ledger,
      billId,
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
        error: status === null ? `the provider answered status "${result.status}", which paybatch does not know` : null,
      },
      at,
    );
    logOutcome(ledger, intentId, 'ok', { transactionId: result.transactionId, status: result.status, settleDate: result.settleDate }, at);
  });

  let receiptPath: string | null = null;
  try {
    const row = getBill(ledger, billId);
    receiptPath = await writeBillReceipt(deps.receiptsDir, {
      status: result.status,
      amountPaidCents: result.amountPaidCents ?? bill.amountCents,
      billAmountCents: result.amountCents,
      payer: result.payer,
      payerDocument: result.payerDocument,
      beneficiary: row.beneficiary ?? '',
      beneficiaryDocument: row.beneficiary_document ?? '',
      assignor: row.assignor ?? '',
      line: decoded.line,
      barcode: decoded.barcode,
      dueDate: row.due_date ?? '',
      settleDate: result.settleDate,
      timestamp: result.timestamp,
      transactionId: result.transactionId,
      description: bill.description,
      billId,
      forced: row.forced === 1,
    });
    updateBill(ledger, billId, { receipt_path: receiptPath }, deps.now());
  } catch (e) {
    warnings.push(`the receipt could not be written: ${e instanceof Error ? e.message : String(e)}`);
  }

  const amount = formatBRL(result.amountPaidCents ?? bill.amountCents);
  const to = result.beneficiary || details.beneficiary || 'the beneficiary';
  const tx = result.transactionId ? `transaction ${result.transactionId}` : 'no transaction id';
  if (status === null) {
    return {
      bill,
      status: 'unknown',
      row: getBill(ledger, billId),
      message: `The provider took the payment of ${amount} to ${to} (${tx}) with status "${result.status}", which paybatch does not know; it is recorded as unknown (bill #${billId}).`,
      hint: "Check the payment at the provider before doing anything else; it will not be retried.",
      receiptPath,
      warnings,
    };
  }
  const expectedSchedule = bill.timing.scheduledFor;
  if (status === 'scheduled') {
    if (expectedSchedule === null) warnings.push('the provider scheduled a payment paybatch expected to be made at once (check the clock of this computer)');
    return { bill, status, row: getBill(ledger, billId), message: `Scheduled: ${amount} to ${to} for ${result.settleDate || 'the next bank window'} (${tx}).`, hint: null, receiptPath, warnings };
  }
  return { bill, status, row: getBill(ledger, billId), message: `Paid ${amount} to ${to} (${tx}${result.settleDate ? `, settle date ${result.settleDate}` : ''}).`, hint: null, receiptPath, warnings };
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

/** Why a ledger row blocks another payment of the same bill, naming --force. */
export function blockedReason(row: BillRow): string {
  const when = row.created_at.slice(0, 16).replace('T', ' ');
  const tx = row.transaction_id ? `, transaction ${row.transaction_id}` : '';
  switch (row.status) {
    case 'unknown':
      return `a payment of this bill on ${when} UTC has an unknown outcome (bill #${row.id}): check the provider's statement; pay again only if it is not there, with --force`;
    case 'intent':
      return `a payment of this bill was being sent on ${when} UTC (bill #${row.id}) and its outcome was never recorded: check the provider's statement; pay again only if it is not there, with --force`;
    default:
      return `already ${row.status} on ${when} UTC (bill #${row.id}${tx}); pass --force to pay it again`;
  }
}

function inspection(decoded: InspectedBill['decoded'], details: BillDetails, now: Date): InspectedBill {
  const { problems, warnings } = crossCheck(decoded, details, saoPauloDate(now));
  const timing = billTiming(decoded, now);
  const expected = timing.scheduledFor ?? saoPauloDate(now);
  if (/^\d{4}-\d{2}-\d{2}$/.test(details.settleDate) && details.settleDate !== expected) {
    // The provider's clock and calendar decide; a disagreement means one of the two clocks is off.
    warnings.push(`the provider gives ${details.settleDate} as the settle date, while this computer's clock expects ${expected}: the provider's clock decides`);
  }
  return { decoded, details, kindName: billKindName(decoded), timing, problems, warnings };
}

function decodeValid(code: string, now: Date): { ok: true; value: InspectedBill['decoded'] } | { ok: false; problem: InputProblem } {
  if (code.trim() === '') return { ok: false, problem: { field: 'code', reason: 'no bill code given' } };
  const d = decodeBoleto(code, saoPauloDate(now));
  if (!d.valid || d.line === null || d.barcode === null || d.kind === null) {
    return { ok: false, problem: { field: 'code', reason: d.error ?? 'not a bill line or barcode' } };
  }
  return { ok: true, value: { ...d, line: d.line, barcode: d.barcode, kind: d.kind } };
}

/** The provider's details; its refusals of the code itself (400, 404, 422) are problems with the input. */
async function fetchDetails(provider: Pick<ProviderClient, 'boletoDetails'>, line: string): Promise<{ ok: true; value: BillDetails } | { ok: false; problem: InputProblem }> {
  try {
    return { ok: true, value: await provider.boletoDetails(line) };
  } catch (e) {
    if (!(e instanceof ProviderError) || (e.status !== 400 && e.status !== 404 && e.status !== 422)) throw e;
    const reason = e.status === 404 ? `the provider does not know this bill (HTTP 404); check the digits against the slip` : `the provider refused the code: ${e.message}`;
    return { ok: false, problem: { field: 'code', reason } };
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
