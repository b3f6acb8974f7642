import type { Locale } from '../words/locale.js';
import { localDateTime, localDay, zoneLabel } from '../words/local-time.js';
import { csvLine, UTF8_BOM } from '../sheet/csv-text.js';
import type { PeriodStatement } from './period-statement.js';
import { plainAmount } from './report-csv.js';
import { billWords, payerLine, paymentWords, TOTAL_COLUMNS, totalsByKind } from './statement-cells.js';
import { STATEMENT_LABELS } from './statement-labels.js';

/** The column headings of a statement's table, Pix and bills alike (dates labelled with their time zone). */
export function statementHeadings(locale: Locale): string[] {
  const c = STATEMENT_LABELS[locale].columns;
  const zone = zoneLabel(locale);
  const at = (label: string) => `${label} (${zone})`;
  return [
    c.kind, c.batch, c.line, c.payee, c.document, `${c.key} / ${c.typeableLine}`, c.description, c.amount, c.original, c.discount, c.interest, c.fine,
    c.paidAmount, c.outcome, c.status, c.reason, at(c.sent), at(c.paid), at(c.returned), at(c.failed), c.due, `${c.endToEndId} / ${c.transactionId}`, c.lineage,
  ];
}

/**
 * A period statement as one CSV: a few lines naming the period, the profile and the payer; then one table of Pix
 * payments and bills with a kind column (a bill's charges in its own columns, a Pix row's lineage in words); then the
 * totals of each kind as the identity they prove, in count and in reais. Written like the batch report's CSV
 * (report-csv.ts): the locale's delimiter and decimal mark, São Paulo times, cells neutralised against formulas,
 * UTF-8 BOM and CRLF.
 */
export function statementCsv(statement: PeriodStatement, locale: Locale): string {
  const labels = STATEMENT_LABELS[locale];
  const delimiter = locale === 'pt-BR' ? ';' : ',';
  const line = (cells: readonly string[]) => csvLine(cells, delimiter);
  const time = (iso: string | null) => (iso === null ? '' : localDateTime(new Date(iso), locale));
  const money = (cents: number | null) => (cents === null ? '' : plainAmount(cents, locale));

  const lines = [
    line([labels.title, labels.period(statement.period.from, statement.period.to)]),
    line([labels.profile, statement.profile]),
    line([payerLine(statement.payer, locale)]),
    line([`${labels.generated} (${zoneLabel(locale)})`, time(statement.generatedAt)]),
    '',
    line(statementHeadings(locale)),
  ];
  for (const p of statement.payments) {
    const w = paymentWords(p, locale);
    lines.push(line([
      labels.kind.pix, String(p.batch.id), p.line === null ? '' : String(p.line), p.payee.name ?? '', w.document, p.payee.key, '', money(p.amountCents),
      '', '', '', '', p.outcome === 'paid' ? money(p.amountCents) : '', w.outcome, w.status, w.reason,
      time(p.sentAt), time(p.paidAt), time(p.returnedAt), time(p.failedAt), '', p.endToEndId ?? '', w.lineage,
    ]));
  }
  for (const b of statement.bills) {
    const w = billWords(b, locale);
    lines.push(line([
      labels.kind.bill, '', '', b.beneficiary ?? '', w.document, b.line, b.description ?? '', money(b.amountCents),
      money(b.originalCents), money(b.discountCents), money(b.interestCents), money(b.fineCents), money(b.paidCents), w.outcome, w.status, w.reason,
      time(b.sentAt), b.paidOn === null ? '' : localDay(b.paidOn, locale), time(b.returnedAt), '', b.dueDate === null ? '' : localDay(b.dueDate, locale), b.transactionId ?? '', '',
    ]));
  }
  lines.push('', line([`${labels.totalsTitle}: ${labels.identity}`]));
  lines.push(line([labels.columns.kind, '', ...TOTAL_COLUMNS.map((o) => labels.outcomes[o])]));
  for (const { kind, totals } of totalsByKind(statement, locale)) {
    lines.push(line([kind, labels.count, ...TOTAL_COLUMNS.map((o) => String(totals[o].count))]));
    lines.push(line([kind, labels.columns.amount, ...TOTAL_COLUMNS.map((o) => money(totals[o].cents))]));
  }
  return UTF8_BOM + lines.join('\r\n') + '\r\n';
}
