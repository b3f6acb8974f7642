import type { Locale } from '../words/locale.js';
import { localDate, localDateTime, localDay, zoneLabel } from '../words/local-time.js';
import { formatBRL } from '../domain/money.js';
import { landscapePdf, pdfTable, type PdfColumn } from './pdf-table.js';
import type { PeriodStatement } from './period-statement.js';
import { billWords, payerLine, paymentWords, TOTAL_COLUMNS, totalsByKind } from './statement-cells.js';
import { STATEMENT_LABELS } from './statement-labels.js';

const left = (width: number): PdfColumn => ({ width, align: 'left' });
const right = (width: number): PdfColumn => ({ width, align: 'right' });

/** The totals as their identity: kind, measure, imported, =, paid, +, failed, +, returned, +, open. */
const TOTALS = [left(60), left(70), right(105), { width: 16, align: 'left' as const }, right(105), left(16), right(105), left(16), right(105), left(16), right(105)];
/** Pix: batch, line, payee, document, key, amount, outcome, the day it was settled (paid, returned or failed), end-to-end id. */
const PIX = [right(30), right(28), left(110), left(84), left(160), right(70), left(52), left(64), left(164)];
/** Bills: beneficiary, document, due, original, discount, interest, fine, paid, outcome, paid on. */
const BILLS = [left(140), left(96), left(62), right(78), right(64), right(64), right(64), right(78), left(56), left(60)];

/**
 * A period statement as a PDF an accountant signs (A4 landscape, pdfkit's standard fonts): the period and the profile,
 * the payer line, the totals written as the identity they prove (imported = paid + failed + returned + open, in count
 * and in reais), then a table of Pix payments (each with its status, reason, lineage and when it was sent on a line
 * below) and a table of bills with their charges. Amounts and counts right-aligned; São Paulo dates.
 */
export async function statementPdf(statement: PeriodStatement, locale: Locale): Promise<Buffer> {
  const labels = STATEMENT_LABELS[locale];
  const c = labels.columns;
  const { doc, bytes } = await landscapePdf(`${labels.title} ${statement.period.from} – ${statement.period.to}`);
  const time = (iso: string | null) => (iso === null ? '' : localDateTime(new Date(iso), locale));
  const detail = (parts: readonly (string | false)[]) => parts.filter((p): p is string => p !== false && p !== '').join(' · ');

  doc.font('Helvetica-Bold').fontSize(18).text(labels.title);
  doc.font('Helvetica').fontSize(10);
  doc.text(`${labels.period(statement.period.from, statement.period.to)} · ${labels.profile} ${statement.profile}`);
  doc.font('Helvetica-Bold').text(payerLine(statement.payer, locale));
  doc.font('Helvetica').text(`${labels.generated} ${time(statement.generatedAt)} (${zoneLabel(locale)})`).moveDown();

  doc.font('Helvetica-Bold').fontSize(12).text(`${labels.totalsTitle}: ${labels.identity}`).moveDown(0.3);
  const withSigns = (values: readonly string[]) => values.flatMap((v, i) => (i === 0 ? [v] : [i > 1 ? '+' : '=', v]));
  const totals = pdfTable(doc, TOTALS, ['', '', ...withSigns(TOTAL_COLUMNS.map((o) => labels.outcomes[o]))]);
  for (const { kind, totals: t } of totalsByKind(statement, locale)) {
    totals.row([kind, labels.count, ...withSigns(TOTAL_COLUMNS.map((o) => String(t[o].count)))]);
    totals.row([kind, c.amount, ...withSigns(TOTAL_COLUMNS.map((o) => formatBRL(t[o].cents)))], { bold: true });
  }
  totals.end();

  doc.font('Helvetica-Bold').fontSize(12).text(labels.pixTitle).moveDown(0.3);
  const pix = pdfTable(doc, PIX, [c.batch, c.line, c.payee, c.document, c.key, c.amount, c.outcome, c.settled, c.endToEndId]);
  for (const p of statement.payments) {
    const w = paymentWords(p, locale);
    const ended = p.outcome === 'paid' ? p.paidAt : p.outcome === 'returned' ? p.returnedAt : p.outcome === 'failed' ? p.failedAt : null;
    pix.row(
      [`#${p.batch.id}`, p.line === null ? '' : String(p.line), p.payee.name ?? '', w.document, p.payee.key, formatBRL(p.amountCents), w.outcome, ended === null ? '' : localDate(new Date(ended), locale), p.endToEndId ?? ''],
      {
        detail: detail([
          `${c.status}: ${w.status}`, w.reason !== '' && `${c.reason}: ${w.reason}`, `${c.lineage}: ${w.lineage}`, `${c.sent} ${time(p.sentAt)}`,
          p.paidAt !== null && `${c.paid} ${time(p.paidAt)}`, p.returnedAt !== null && `${c.returned} ${time(p.returnedAt)}`, p.failedAt !== null && `${c.failed} ${time(p.failedAt)}`,
        ]),
      },
    );
  }
  pix.end();

  doc.font('Helvetica-Bold').fontSize(12).text(labels.billsTitle).moveDown(0.3);
  const money = (cents: number | null) => (cents === null ? '' : formatBRL(cents));
  const bills = pdfTable(doc, BILLS, [c.beneficiary, c.document, c.due, c.original, c.discount, c.interest, c.fine, c.paidAmount, c.outcome, c.paid]);
  for (const b of statement.bills) {
    const w = billWords(b, locale);
    bills.row(
      [
        b.beneficiary ?? '', w.document, b.dueDate === null ? '' : localDay(b.dueDate, locale), money(b.originalCents), money(b.discountCents),
        money(b.interestCents), money(b.fineCents), money(b.paidCents), w.outcome, b.paidOn === null ? '' : localDay(b.paidOn, locale),
      ],
      {
        detail: detail([
          b.description ?? false, `${c.typeableLine} ${b.line}`, `${c.amount} ${formatBRL(b.amountCents)}`, `${c.status}: ${w.status}`,
          w.reason !== '' && `${c.reason}: ${w.reason}`, `${c.sent} ${time(b.sentAt)}`, b.returnedAt !== null && `${c.returned} ${time(b.returnedAt)}`,
          b.transactionId !== null && `${c.transactionId} ${b.transactionId}`,
        ]),
      },
    );
  }
  bills.end();
  doc.end();
  return bytes;
}
