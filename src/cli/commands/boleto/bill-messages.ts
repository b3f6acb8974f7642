/**
 * The words of `boleto pay` and `boleto details`: refusals, warnings and payment outcomes, rendered from the values
 * the engine returns (engine/bills/bill-plan.ts, engine/bills/pay-bill.ts). Texts here are what people and `--json` documents
 * read; the engine never branches on them.
 */
import type { Locale } from '../../../words/locale.js';
import { saoPauloDateTime } from '../../../domain/bank-calendar.js';
import { formatBoletoLine, type BoletoDecode } from '../../../domain/boleto.js';
import { formatBRL } from '../../../domain/money.js';
import { isLedgerRefusal, ledgerAttempt, type BillRefusal, type BillTiming, type BillWarning } from '../../../engine/bills/index.js';
import type { BillOutcome, BillsRefusedError, PaymentWarning } from '../../../engine/bills/index.js';
import type { BillRequest } from '../../../engine/bills/index.js';
import { InputRejectedError, type InputProblem } from '../../../errors.js';
import type { BillRow } from '../../../engine/bills/index.js';
import * as billWordsPtBR from '../../messages/bill-pt-br.js';
import { alreadyDoneText, billWarningSentence, refusalSentence, type AmountWay } from '../../messages/bill-refusals.js';

/** The field of a request a refusal is about, as in sheet problems (`bills.csv:4 amount: …`). */
export function refusalField(r: BillRefusal): 'code' | 'amount' | 'description' {
  switch (r.code) {
    case 'invalid_amount':
    case 'fixed_amount':
    case 'amount_not_choosable':
    case 'below_minimum':
    case 'above_maximum':
    case 'reference_value':
    case 'amount_needed':
    case 'no_amount':
      return 'amount';
    case 'description_too_long':
      return 'description';
    case 'no_code':
    case 'invalid_code':
    case 'same_bill_twice':
    case 'already_paid_in_ledger':
    case 'unknown_outcome_in_ledger':
    case 'unfinished_payment_in_ledger':
    case 'unknown_to_provider':
    case 'code_refused_by_provider':
    case 'another_bill':
    case 'amount_mismatch':
      return 'code';
  }
}

/** Why a bill must not be paid, in English (`way`: how the run lets people give an amount). */
export function refusalText(r: BillRefusal, way: AmountWay): string {
  return refusalSentence(r, way, 'en');
}

/** A refusal as a problem of the request it refuses (`file:line field: reason`), with its stable code. */
export function refusalProblem(r: BillRefusal, request: Pick<BillRequest, 'file' | 'line'>, way: AmountWay, locale: Locale = 'en'): InputProblem {
  return { file: request.file, line: request.line, field: refusalField(r), code: r.code, reason: refusalSentence(r, way, locale) };
}

/**
 * The error to show for bills the engine refused: every reason, by line, and what to do next. In `locale` (English
 * for `--json` runs: the error document's texts are not translated).
 */
export function refusedBillsError(e: BillsRefusedError, requests: readonly BillRequest[], way: AmountWay, locale: Locale = 'en'): InputRejectedError {
  const words = billWords[locale];
  const problems = e.refused.flatMap((b) => b.reasons.map((r) => refusalProblem(r, b.request, way, locale)));
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
  return alreadyDoneText(ledgerAttempt(paidBy), 'en');
}

export function warningText(w: BillWarning | PaymentWarning): string {
  return billWarningSentence(w, 'en');
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

/** The words of bills for people, per language (`--json` documents keep the English functions above). */
export interface BillWords {
  refusalText(r: BillRefusal, way: AmountWay): string;
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
