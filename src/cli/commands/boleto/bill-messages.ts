/**
 * The words of `boleto pay` and `boleto details`: refusals, warnings and payment outcomes, rendered from the values
 * the engine returns (engine/bill-plan.ts, engine/pay-bill.ts). Texts here are what people and `--json` documents
 * read; the engine never branches on them.
 */
import type { Locale } from '../../../words/locale.js';
import { saoPauloDateTime } from '../../../domain/bank-calendar.js';
import { formatBoletoLine, type BoletoDecode } from '../../../domain/boleto.js';
import { formatBRL } from '../../../domain/money.js';
import { isLedgerRefusal, type BillRefusal, type BillTiming, type BillWarning } from '../../../engine/bill-plan.js';
import type { BillOutcome, BillsRefusedError, PaymentWarning } from '../../../engine/pay-bill.js';
import type { BillRequest } from '../../../engine/plan-bills.js';
import { InputRejectedError, type InputProblem } from '../../../errors.js';
import type { BillRow } from '../../../ledger/bill-repository.js';
import * as billWordsPtBR from '../../messages/bill-pt-br.js';

/** The field of a request a refusal is about, as in sheet problems (`bills.csv:4 amount: …`). */
export function refusalField(r: BillRefusal): 'code' | 'amount' | 'description' {
  switch (r.kind) {
    case 'invalid-amount':
    case 'fixed-amount':
    case 'amount-not-choosable':
    case 'below-minimum':
    case 'above-maximum':
    case 'reference-value':
    case 'amount-needed':
    case 'no-amount':
      return 'amount';
    case 'description-too-long':
      return 'description';
    case 'no-code':
    case 'invalid-code':
    case 'same-bill-twice':
    case 'already-paid-in-ledger':
    case 'unknown-outcome-in-ledger':
    case 'unfinished-payment-in-ledger':
    case 'unknown-to-provider':
    case 'code-refused-by-provider':
    case 'another-bill':
    case 'amount-mismatch':
      return 'code';
  }
}

/**
 * Why a bill must not be paid, for people. `howToGive` names the way to give an amount: "--amount" for a bill typed
 * on the command line, "the amount column" for a file.
 */
export function refusalText(r: BillRefusal, howToGive: string): string {
  switch (r.kind) {
    case 'no-code':
      return 'no bill code given';
    case 'invalid-code':
    case 'invalid-amount':
      return r.detail;
    case 'description-too-long':
      return `longer than ${r.max} characters (${r.length})`;
    case 'same-bill-twice':
      return `the same bill as ${r.firstLine === null ? 'another request' : `line ${r.firstLine}`}; a bill is paid once`;
    case 'already-paid-in-ledger':
      return `${paidInLedgerText(r.row)}; pass --force to pay it again`;
    case 'unknown-outcome-in-ledger':
      return `a payment of this bill on ${ledgerTime(r.row)} UTC has an unknown outcome (bill #${r.row.id}): check the provider's statement; pay again only if it is not there, with --force`;
    case 'unfinished-payment-in-ledger':
      return `a payment of this bill is being sent since ${ledgerTime(r.row)} UTC (bill #${r.row.id}), by another run right now or by one that stopped before recording its outcome: wait for that run, or check the provider's statement; pay again only if it is not there, with --force`;
    case 'unknown-to-provider':
      return 'the provider does not know this bill (HTTP 404); check the digits against the slip';
    case 'code-refused-by-provider':
      return `the provider refused the code: ${r.detail}`;
    case 'another-bill':
      return `the provider describes another bill (line ${r.providerLine}); compare every digit typed with the slip`;
    case 'amount-mismatch':
      return `the code says ${formatBRL(r.codeCents)} but the provider's bill is ${formatBRL(r.providerCents)}: a mistyped digit can pass the check digits; compare the line with the slip`;
    case 'fixed-amount':
      return `this bill's amount cannot change: it is ${formatBRL(r.billCents)}, not ${formatBRL(r.requestedCents)} (leave the amount out to pay it)`;
    case 'amount-not-choosable':
      return 'the provider gives no amount for this bill and does not let the payer choose one';
    case 'below-minimum':
      return `${r.requested ? 'the amount' : "the bill's amount"} ${formatBRL(r.amountCents)} is below the bill's minimum of ${formatBRL(r.minCents)}`;
    case 'above-maximum':
      return `${r.requested ? 'the amount' : "the bill's amount"} ${formatBRL(r.amountCents)} is above the bill's maximum of ${formatBRL(r.maxCents)}`;
    case 'reference-value':
      return `the code holds a reference value, not the amount due: give the amount to pay (${howToGive})`;
    case 'amount-needed': {
      const range = r.range === null ? '' : ` between ${formatBRL(r.range.minCents)} and ${formatBRL(r.range.maxCents)}`;
      return `this bill does not fix its amount: give the amount to pay${range} (${howToGive})`;
    }
    case 'no-amount':
      return 'the provider gives no amount for this bill';
  }
}

/** A refusal as a problem of the request it refuses (`file:line field: reason`). */
export function refusalProblem(r: BillRefusal, request: Pick<BillRequest, 'file' | 'line'>, howToGive: string): InputProblem {
  return { file: request.file, line: request.line, field: refusalField(r), reason: refusalText(r, howToGive) };
}

/**
 * The error to show for bills the engine refused: every reason, by line, and what to do next. In `locale` (English
 * for `--json` runs: the error document's texts are not translated).
 */
export function refusedBillsError(e: BillsRefusedError, requests: readonly BillRequest[], howToGive: string, locale: Locale = 'en'): InputRejectedError {
  const words = billWords[locale];
  const problems = e.refused.flatMap((b) => b.reasons.map((r) => ({ ...refusalProblem(r, b.request, howToGive), reason: words.refusalText(r, howToGive) })));
  if (e.stage === 'paying') return new InputRejectedError(words.cannotPay, problems);
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const fromFile = requests[0]?.file;
  const bad = new Set(problems.map((p) => p.line)).size;
  return new InputRejectedError(
    fromFile === undefined ? words.cannotPay : words.cannotPayFile(bad, requests.length, fromFile),
    problems,
    e.refused.some((b) => b.reasons.some(isLedgerRefusal)) ? { hint: words.checkLedger } : undefined,
  );
}

/** Why a request of a file was left out: the ledger row that pays its bill. */
export function leftOutText(paidBy: BillRow): string {
  return paidInLedgerText(paidBy);
}

export function warningText(w: BillWarning | PaymentWarning): string {
  switch (w.kind) {
    case 'due-date-differs':
      return `the code's due date is ${w.codeDueDate}, the provider's is ${w.providerDueDate}`;
    case 'past-due':
      return `past due since ${w.dueDate}${w.interestCents ? `; the provider adds ${formatBRL(w.interestCents)} of interest and fines` : ''}`;
    case 'discount':
      return `the provider grants a discount of ${formatBRL(w.discountCents)}`;
    case 'settle-date-differs':
      return `the provider gives ${w.providerSettleDate} as the settle date, while this computer's clock expects ${w.expectedSettleDate}: the provider's clock decides`;
    case 'paid-amount-differs':
      return `the provider reports ${formatBRL(w.paidCents)} paid, but ${formatBRL(w.askedCents)} was asked for`;
    case 'receipt-not-written':
      return `the receipt could not be written: ${w.detail}`;
    case 'scheduled-unexpectedly':
      return 'the provider scheduled a payment paybatch expected to be made at once (check the clock of this computer)';
  }
}

/** The bank window in one sentence. */
export function timingText(t: BillTiming): string {
  const hours = `business days 08:00–${t.closeHour}:00, São Paulo`;
  return t.windowOpen
    ? `Inside the bank window (${hours}): paid at once.`
    : `Outside the bank window (${hours}): the payment will be scheduled for ${saoPauloDateTime(new Date(t.opensAt))}.`;
}

/** What kind of bill a valid decode is, in words: "bank slip (bank 237)", "utility bill: electricity and gas …". */
export function billKindName(decoded: BoletoDecode): string {
  if (decoded.kind === 'bank') return `bank slip (bank ${decoded.bankCode ?? '?'})`;
  const segment = decoded.segmentName ?? `segment ${decoded.segment ?? '?'}`;
  if (decoded.government) return `government collection: ${segment}`;
  if (decoded.utility) return `utility bill: ${segment}`;
  return `collection slip: ${segment}`;
}

/** The ledger's earlier rows of a bill: "paid (#1), unknown (#3)". */
export function previousText(rows: readonly BillRow[]): string {
  return rows.map((p) => `${p.status} (#${p.id})`).join(', ');
}

/** What happened to one payment, and what to do next (unknown and failed outcomes). */
export function outcomeText(o: BillOutcome): { message: string; hint: string | null } {
  const { bill, answer } = o;
  const billId = o.row.id;
  switch (answer.kind) {
    case 'lost':
      return {
        message: `The answer to the payment of ${formatBRL(bill.amountCents)} to ${bill.details.beneficiary || 'the beneficiary'} was lost (${answer.error}): the bill may or may not be paid. It is recorded as unknown (bill #${billId}) and will not be retried.`,
        hint:
          `Check the provider's statement, or its bill payments for the line ${formatBoletoLine(bill.decoded.line)}, around ${saoPauloDateTime(answer.startedAt)} (São Paulo). ` +
          'If the payment is not there, pay again with --force; if it is, do nothing (a daemon receiving webhooks also settles it when the provider reports it).',
      };
    case 'refused':
      return {
        message: answer.alreadyPaid
          ? `The provider refused the payment: this bill was already paid or scheduled at the provider (${answer.error}). Nothing was paid now.`
          : `The provider refused the payment (${answer.error}). Nothing was paid.`,
        hint: answer.alreadyPaid
          ? bill.previous.length
            ? `The ledger has this bill as ${previousText(bill.previous)}: that payment most likely went through. Check the provider's statement.`
            : "Someone else may have paid it: check the provider's statement and the beneficiary before anything else."
          : answer.providerHint,
      };
    case 'taken': {
      const result = answer.payment;
      const amount = formatBRL(result.amountPaidCents ?? bill.amountCents);
      const to = result.beneficiary || bill.details.beneficiary || 'the beneficiary';
      const tx = result.transactionId ? `transaction ${result.transactionId}` : 'no transaction id';
      if (o.status === 'scheduled') return { message: `Scheduled: ${amount} to ${to} for ${result.settleDate || 'the next bank window'} (${tx}).`, hint: null };
      if (o.status === 'paid') return { message: `Paid ${amount} to ${to} (${tx}${result.settleDate ? `, settle date ${result.settleDate}` : ''}).`, hint: null };
      return {
        message: `The provider took the payment of ${amount} to ${to} (${tx}) with status "${result.status}", which paybatch does not know; it is recorded as unknown (bill #${billId}).`,
        hint: "Check the payment at the provider before doing anything else; it will not be retried.",
      };
    }
  }
}

function paidInLedgerText(row: BillRow): string {
  const tx = row.transaction_id ? `, transaction ${row.transaction_id}` : '';
  return `already ${row.status} on ${ledgerTime(row)} UTC (bill #${row.id}${tx})`;
}

function ledgerTime(row: BillRow): string {
  return row.created_at.slice(0, 16).replace('T', ' ');
}

/** The words of bills for people, per language (`--json` documents keep the English functions above). */
export interface BillWords {
  refusalText(r: BillRefusal, howToGive: string): string;
  warningText(w: BillWarning | PaymentWarning): string;
  timingText(t: BillTiming): string;
  billKindName(decoded: BoletoDecode): string;
  previousText(rows: readonly BillRow[]): string;
  outcomeText(o: BillOutcome): { message: string; hint: string | null };
  leftOutText(paidBy: BillRow): string;
  readonly cannotPay: string;
  cannotPayFile(bad: number, total: number, file: string): string;
  readonly checkLedger: string;
}

export const billWords: Readonly<Record<Locale, BillWords>> = {
  en: {
    refusalText,
    warningText,
    timingText,
    billKindName,
    previousText,
    outcomeText,
    leftOutText,
    cannotPay: 'This bill cannot be paid; nothing was paid.',
    cannotPayFile: (bad, total, file) => `${bad} of ${total} bills in ${file} cannot be paid; nothing was paid.`,
    checkLedger: 'Check the ledger with `paybatch boleto list` before paying again.',
  },
  'pt-BR': {
    ...billWordsPtBR,
    cannotPay: 'Esta conta não pode ser paga; nada foi pago.',
    cannotPayFile: (bad, total, file) => `${bad} de ${total} contas de ${file} não podem ser pagas; nada foi pago.`,
    checkLedger: 'Confira o registro local com `paybatch boleto list` antes de pagar de novo.',
  },
};
