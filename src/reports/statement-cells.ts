import type { Locale } from '../words/locale.js';
import { billReturnMeaningText, pixReasonText } from '../words/payment-reasons.js';
import { statusWord } from '../words/status-words.js';
import { lineageText } from './lineage-words.js';
import type { Outcome, OutcomeTotals, PeriodStatement, StatementBill, StatementPayment } from './period-statement.js';
import { payerDocument, shownDocument } from './shown-document.js';
import { STATEMENT_LABELS } from './statement-labels.js';

/** What every format of a statement says the same way: the payer line, a row's words, the totals' order. */

/** The totals' columns, in the order of the identity: imported = paid + failed + returned + open. */
export const TOTAL_COLUMNS: readonly (Outcome | 'all')[] = ['all', 'paid', 'failed', 'returned', 'open'];

/** `Pagador: ACME Ltda · 12.345.678/0001-90`, with "(não configurado)" for what the profile does not say. */
export function payerLine(payer: PeriodStatement['payer'], locale: Locale): string {
  const labels = STATEMENT_LABELS[locale];
  const { name, document } = payer;
  return `${labels.payer}: ${name ?? labels.unset} · ${document === null ? labels.unset : payerDocument(document)}`;
}

/** The words of a Pix payment's cells (amounts and dates stay values: each format writes them its way). */
export function paymentWords(p: StatementPayment, locale: Locale) {
  const last = p.lineage.payments.at(-1);
  return {
    document: shownDocument(p.payee.document),
    outcome: STATEMENT_LABELS[locale].outcome[p.outcome],
    status: statusWord(last?.status ?? p.outcome, locale),
    reason: p.reason === null ? '' : pixReasonText(p.reason, locale, p.outcome === 'returned' ? 'return' : 'rejection'),
    lineage: lineageText(p.lineage, locale),
  };
}

/** The words of a bill's cells; a returned bill's reason says what it means. */
export function billWords(b: StatementBill, locale: Locale) {
  const meaning = b.outcome === 'returned' && b.reason !== null ? billReturnMeaningText(b.reason, null, locale) : null;
  return {
    document: shownDocument(b.beneficiaryDocument),
    outcome: STATEMENT_LABELS[locale].outcome[b.outcome],
    status: statusWord(b.status, locale),
    reason: b.reason === null ? '' : meaning === null ? b.reason : `${b.reason} (${meaning})`,
  };
}

/** The kinds of a statement with their totals, Pix first. */
export function totalsByKind(statement: PeriodStatement, locale: Locale): readonly { readonly kind: string; readonly totals: OutcomeTotals }[] {
  const labels = STATEMENT_LABELS[locale];
  return [
    { kind: labels.kind.pix, totals: statement.totals.pix },
    { kind: labels.kind.bill, totals: statement.totals.bills },
  ];
}
