import type { Locale } from '../words/locale.js';
import { batchName } from '../words/batch-name.js';
import { localDate, localDateTime, zoneLabel } from '../words/local-time.js';
import { pixReasonText } from '../words/payment-reasons.js';
import { formatBRL } from '../domain/money.js';
import type { BatchReport } from './batch-report.js';
import { lineageText } from './lineage-words.js';
import { landscapePdf, pdfTable, type PdfColumn } from './pdf-table.js';
import { REPORT_LABELS } from './report-labels.js';
import { shownDocument } from './shown-document.js';
import { payerLine } from './statement-cells.js';
import { STATEMENT_LABELS } from './statement-labels.js';

/** Totals: status, count, amount. */
const TOTALS: readonly PdfColumn[] = [{ width: 160 }, { width: 70, align: 'right' }, { width: 100, align: 'right' }];
/** Payments: line, name, document, key, amount, status, the day it settled, end-to-end id (points, A4 landscape). */
const LINES: readonly PdfColumn[] = [
  { width: 30, align: 'right' }, { width: 110 }, { width: 84 }, { width: 160 }, { width: 70, align: 'right' }, { width: 80 }, { width: 64 }, { width: 164 },
];

/**
 * A batch report as a consolidated statement (PDF, pdfkit's standard fonts): the batch and the payer line, the
 * totals by status, then one line per payment (line, name, masked document, key, amount, status, the day it settled,
 * end-to-end id) with, below it, its reason and — when the row was paid again elsewhere — its lineage, in the
 * locale's words and São Paulo dates. Counts and amounts right-aligned.
 */
export async function reportPdf(report: BatchReport, locale: Locale): Promise<Buffer> {
  const labels = REPORT_LABELS[locale];
  const c = labels.columns;
  const { doc, bytes } = await landscapePdf(labels.title);

  doc.font('Helvetica-Bold').fontSize(18).text(labels.title);
  doc.font('Helvetica').fontSize(10);
  doc.text(`${labels.batch} #${report.batch.id} "${batchName(report.batch, locale)}"${report.batch.remoteId ? ` · ${labels.providerId} ${report.batch.remoteId}` : ''}`);
  if (report.payer) doc.font('Helvetica-Bold').text(payerLine(report.payer, locale)).font('Helvetica');
  doc.text(`${labels.generated} ${localDateTime(new Date(report.generatedAt), locale)} (${zoneLabel(locale)})`).moveDown();

  doc.font('Helvetica-Bold').fontSize(12).text(labels.totalsTitle).moveDown(0.3);
  const totals = pdfTable(doc, TOTALS, [c.status, labels.count, c.amount]);
  for (const t of report.totals) totals.row([labels.status(t.status), String(t.count), formatBRL(t.sumCents)]);
  totals.row([labels.total, String(report.count), formatBRL(report.sumCents)], { bold: true });
  totals.end();

  const lineage = STATEMENT_LABELS[locale].columns.lineage;
  const table = pdfTable(doc, LINES, [c.line, c.name, c.document, c.key, c.amount, c.status, c.settled, c.endToEndId]);
  for (const l of report.lines) {
    const detail = [
      l.reason === null ? null : `${c.reason}: ${pixReasonText(l.reason, locale, l.status === 'returned' ? 'return' : 'rejection')}`,
      // A row paid (or tried) only here says nothing more than its status.
      l.lineage && l.lineage.payments.length > 1 ? `${lineage}: ${lineageText(l.lineage, locale)}` : null,
    ].filter((p) => p !== null);
    table.row(
      [
        l.line === null ? '' : String(l.line), l.name ?? '', shownDocument(l.document), l.key, formatBRL(l.amountCents), labels.status(l.status),
        l.settledAt ? localDate(new Date(l.settledAt), locale) : '', l.endToEndId ?? '',
      ],
      { detail: detail.join(' · ') },
    );
  }
  table.end();
  doc.end();
  return bytes;
}
