/**
 * Why a bill must not be paid, and what to know before or after paying it, in words: one table per language over
 * the codes of engine/bills/bill-plan.ts and engine/bills/pay-bill.ts. English is also the text of `--json` documents.
 */
import { formatBRL } from '../../domain/money.js';
import type { BillRefusal, BillWarning, LedgerAttempt } from '../../engine/bills/index.js';
import type { PaymentWarning } from '../../engine/bills/index.js';
import { boletoProblemsText } from '../../words/bills.js';
import type { Locale } from '../../words/locale.js';
import { localDateTime, localDay } from '../../words/local-time.js';
import { statusWord } from '../../words/status-words.js';
import { sayValidation } from '../../words/validation.js';

/** How the run lets people give an amount: the `--amount` option (a bill typed) or the amount column (a file). */
export type AmountWay = 'option' | 'column';

type RefusalWords = { readonly [C in BillRefusal['code']]: (r: Extract<BillRefusal, { code: C }>, way: AmountWay) => string };
type Warning = BillWarning | PaymentWarning;
type WarningWords = { readonly [C in Warning['code']]: (w: Extract<Warning, { code: C }>) => string };

interface LedgerWords {
  /** "already paid on 2025-03-07 13:00 UTC (bill #4, transaction tx-4)" */
  alreadyDone(a: LedgerAttempt): string;
  /** When the attempt was recorded. */
  when(a: LedgerAttempt): string;
}

const LEDGER: Readonly<Record<Locale, LedgerWords>> = {
  en: {
    when: (a) => `${a.createdAt.slice(0, 16).replace('T', ' ')} UTC`,
    alreadyDone: (a) => `already ${a.status} on ${LEDGER.en.when(a)} (bill #${a.billId}${a.transactionId ? `, transaction ${a.transactionId}` : ''})`,
  },
  'pt-BR': {
    when: (a) => `${localDateTime(new Date(a.createdAt), 'pt-BR')} (horário de São Paulo)`,
    alreadyDone: (a) => `já ${statusWord(a.status, 'pt-BR')} em ${LEDGER['pt-BR'].when(a)} (conta #${a.billId}${a.transactionId ? `, transação ${a.transactionId}` : ''})`,
  },
};

const GIVE: Readonly<Record<Locale, Readonly<Record<AmountWay, string>>>> = {
  en: { option: '--amount', column: 'the amount column' },
  'pt-BR': { option: '--amount', column: 'a coluna de valor' },
};

const range = (r: { minCents: number | null; maxCents: number | null }, between: string, and: string): string =>
  r.minCents === null || r.maxCents === null ? '' : ` ${between} ${formatBRL(r.minCents)} ${and} ${formatBRL(r.maxCents)}`;

export const REFUSAL_WORDS: Readonly<Record<Locale, RefusalWords>> = {
  en: {
    no_code: () => 'no bill code given',
    invalid_code: (r) => (r.problems.length ? boletoProblemsText(r.problems, 'en') : 'not a bill line or barcode'),
    invalid_amount: (r) => sayValidation(r.reason, 'en'),
    description_too_long: (r) => `longer than ${r.max} characters (${r.length})`,
    same_bill_twice: (r) => `the same bill as ${r.firstLine === null ? 'another request' : `line ${r.firstLine}`}; a bill is paid once`,
    already_paid_in_ledger: (r) => `${LEDGER.en.alreadyDone(r)}; pass --force to pay it again`,
    unknown_outcome_in_ledger: (r) =>
      `a payment of this bill on ${LEDGER.en.when(r)} has an unknown outcome (bill #${r.billId}): check the provider's statement; pay again only if it is not there, with --force`,
    unfinished_payment_in_ledger: (r) =>
      `a payment of this bill is being sent since ${LEDGER.en.when(r)} (bill #${r.billId}), by another run right now or by one that stopped before recording its outcome: wait for that run, or check the provider's statement; pay again only if it is not there, with --force`,
    unknown_to_provider: () => 'the provider does not know this bill (HTTP 404); check the digits against the slip',
    code_refused_by_provider: (r) => `the provider refused the code: ${r.detail}`,
    another_bill: (r) => `the provider describes another bill (line ${r.providerLine}); compare every digit typed with the slip`,
    amount_mismatch: (r) =>
      `the code says ${formatBRL(r.codeCents)} but the provider's bill is ${formatBRL(r.providerCents)}: a mistyped digit can pass the check digits; compare the line with the slip`,
    fixed_amount: (r) => `this bill's amount cannot change: it is ${formatBRL(r.billCents)}, not ${formatBRL(r.requestedCents)} (leave the amount out to pay it)`,
    amount_not_choosable: () => 'the provider gives no amount for this bill and does not let the payer choose one',
    below_minimum: (r) => `${r.requested ? 'the amount' : "the bill's amount"} ${formatBRL(r.amountCents)} is below the bill's minimum of ${formatBRL(r.minCents)}`,
    above_maximum: (r) => `${r.requested ? 'the amount' : "the bill's amount"} ${formatBRL(r.amountCents)} is above the bill's maximum of ${formatBRL(r.maxCents)}`,
    reference_value: (_r, way) => `the code holds a reference value, not the amount due: give the amount to pay (${GIVE.en[way]})`,
    amount_needed: (r, way) => `this bill does not fix its amount: give the amount to pay${range(r, 'between', 'and')} (${GIVE.en[way]})`,
    no_amount: () => 'the provider gives no amount for this bill',
  },
  'pt-BR': {
    no_code: () => 'nenhum código de conta informado',
    invalid_code: (r) => (r.problems.length ? boletoProblemsText(r.problems, 'pt-BR') : 'não é uma linha digitável nem um código de barras de conta'),
    invalid_amount: (r) => sayValidation(r.reason, 'pt-BR'),
    description_too_long: (r) => `mais longa que ${r.max} caracteres (${r.length})`,
    same_bill_twice: (r) => `a mesma conta que ${r.firstLine === null ? 'outro pedido' : `a linha ${r.firstLine}`}; uma conta é paga uma vez só`,
    already_paid_in_ledger: (r) => `${LEDGER['pt-BR'].alreadyDone(r)}; use --force para pagá-la de novo`,
    unknown_outcome_in_ledger: (r) =>
      `um pagamento desta conta em ${LEDGER['pt-BR'].when(r)} tem resultado desconhecido (conta #${r.billId}): confira o extrato do provedor; pague de novo só se ele não estiver lá, com --force`,
    unfinished_payment_in_ledger: (r) =>
      `um pagamento desta conta está sendo enviado desde ${LEDGER['pt-BR'].when(r)} (conta #${r.billId}), por outra execução agora ou por uma que parou antes de registrar o resultado: espere essa execução ou confira o extrato do provedor; pague de novo só se ele não estiver lá, com --force`,
    unknown_to_provider: () => 'o provedor não conhece esta conta (HTTP 404); confira os dígitos com o boleto',
    code_refused_by_provider: (r) => `o provedor recusou o código: ${r.detail}`,
    another_bill: (r) => `o provedor descreve outra conta (linha ${r.providerLine}); compare cada dígito digitado com o boleto`,
    amount_mismatch: (r) =>
      `o código diz ${formatBRL(r.codeCents)}, mas a conta do provedor é de ${formatBRL(r.providerCents)}: um dígito errado pode passar pelos dígitos verificadores; compare a linha com o boleto`,
    fixed_amount: (r) => `o valor desta conta não pode mudar: é ${formatBRL(r.billCents)}, não ${formatBRL(r.requestedCents)} (deixe o valor de fora para pagá-la)`,
    amount_not_choosable: () => 'o provedor não dá valor para esta conta e não deixa o pagador escolher um',
    below_minimum: (r) => `${r.requested ? 'o valor' : 'o valor da conta'} ${formatBRL(r.amountCents)} está abaixo do mínimo da conta, ${formatBRL(r.minCents)}`,
    above_maximum: (r) => `${r.requested ? 'o valor' : 'o valor da conta'} ${formatBRL(r.amountCents)} está acima do máximo da conta, ${formatBRL(r.maxCents)}`,
    reference_value: (_r, way) => `o código traz um valor de referência, não o valor devido: informe o valor a pagar (${GIVE['pt-BR'][way]})`,
    amount_needed: (r, way) => `esta conta não fixa o valor: informe o valor a pagar${range(r, 'entre', 'e')} (${GIVE['pt-BR'][way]})`,
    no_amount: () => 'o provedor não dá valor para esta conta',
  },
};

const ptDay = (ymd: string) => (/^\d{4}-\d{2}-\d{2}$/.test(ymd) ? localDay(ymd, 'pt-BR') : ymd);

export const BILL_WARNING_WORDS: Readonly<Record<Locale, WarningWords>> = {
  en: {
    due_date_differs: (w) => `the code's due date is ${w.codeDueDate}, the provider's is ${w.providerDueDate}`,
    past_due: (w) => `past due since ${w.dueDate}${w.interestCents ? `; the provider adds ${formatBRL(w.interestCents)} of interest and fines` : ''}`,
    discount: (w) => `the provider grants a discount of ${formatBRL(w.discountCents)}`,
    settle_date_differs: (w) =>
      `the provider gives ${w.providerSettleDate} as the settle date, while this computer's clock expects ${w.expectedSettleDate}: the provider's clock decides`,
    paid_amount_differs: (w) => `the provider reports ${formatBRL(w.paidCents)} paid, but ${formatBRL(w.askedCents)} was asked for`,
    receipt_not_written: (w) => `the receipt could not be written: ${w.detail}`,
    scheduled_unexpectedly: () => 'the provider scheduled a payment paybatch expected to be made at once (check the clock of this computer)',
  },
  'pt-BR': {
    due_date_differs: (w) => `o vencimento do código é ${ptDay(w.codeDueDate)}, o do provedor é ${ptDay(w.providerDueDate)}`,
    past_due: (w) => `vencida desde ${ptDay(w.dueDate)}${w.interestCents ? `; o provedor acrescenta ${formatBRL(w.interestCents)} de juros e multa` : ''}`,
    discount: (w) => `o provedor concede um desconto de ${formatBRL(w.discountCents)}`,
    settle_date_differs: (w) =>
      `o provedor dá ${ptDay(w.providerSettleDate)} como data de liquidação, mas o relógio deste computador espera ${ptDay(w.expectedSettleDate)}: vale o relógio do provedor`,
    paid_amount_differs: (w) => `o provedor informa ${formatBRL(w.paidCents)} pagos, mas foram pedidos ${formatBRL(w.askedCents)}`,
    receipt_not_written: (w) => `o comprovante não pôde ser gravado: ${w.detail}`,
    scheduled_unexpectedly: () => 'o provedor agendou um pagamento que o paybatch esperava ver feito na hora (confira o relógio deste computador)',
  },
};

export function refusalSentence(r: BillRefusal, way: AmountWay, locale: Locale): string {
  return (REFUSAL_WORDS[locale][r.code] as (r: BillRefusal, way: AmountWay) => string)(r, way);
}

export function billWarningSentence(w: Warning, locale: Locale): string {
  return (BILL_WARNING_WORDS[locale][w.code] as (w: Warning) => string)(w);
}

/** A ledger attempt that pays the bill already ("already paid on … (bill #4, transaction tx-4)"). */
export function alreadyDoneText(a: LedgerAttempt, locale: Locale): string {
  return LEDGER[locale].alreadyDone(a);
}
