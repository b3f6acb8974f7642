import type { Locale } from '../words/locale.js';
import { batchName } from '../words/batch-name.js';
import { localDateTime, zoneLabel } from '../words/local-time.js';
import { formatBRL } from '../domain/money.js';
import { loadPdfKit } from '../receipts/pdfkit.js';
import type { BatchReport } from './batch-report.js';
import { REPORT_LABELS } from './report-labels.js';

/** Columns of the payments table: what they show and how wide they are (points, A4 landscape). */
const COLUMNS = [
  { width: 40, align: 'right' as const },
  { width: 170, align: 'left' as const },
  { width: 100, align: 'left' as const },
  { width: 170, align: 'left' as const },
  { width: 85, align: 'right' as const },
  { width: 90, align: 'left' as const },
  { width: 75, align: 'left' as const },
];

/**
 * A batch report as a consolidated statement (PDF, pdfkit's standard fonts): the batch, the totals by status, then
 * one line per payment (line, name, document, key, amount, status, date it settled), in the locale's words and
 * São Paulo dates.
 */
export async function reportPdf(report: BatchReport, locale: Locale): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  const labels = REPORT_LABELS[locale];
  const c = labels.columns;
  const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: 40, info: { Title: labels.title, Producer: 'paybatch', Creator: 'paybatch' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const time = (iso: string) => localDateTime(new Date(iso), locale);
  const left = doc.page.margins.left;
  const bottom = () => doc.page.height - doc.page.margins.bottom - 14;

  const row = (cells: readonly string[], bold = false) => {
    if (doc.y > bottom()) doc.addPage();
    const y = doc.y;
    let x = left;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8.5);
    cells.forEach((cell, i) => {
      const col = COLUMNS[i]!;
      doc.text(cell, x, y, { width: col.width - 6, align: col.align, lineBreak: false, ellipsis: true });
      x += col.width;
    });
    doc.x = left;
    doc.y = y + 13;
  };

  doc.font('Helvetica-Bold').fontSize(18).text(labels.title);
  doc.font('Helvetica').fontSize(10);
  doc.text(`${labels.batch} #${report.batch.id} "${batchName(report.batch, locale)}"${report.batch.remoteId ? ` · ${labels.providerId} ${report.batch.remoteId}` : ''}`);
  doc.text(`${labels.generated} ${time(report.generatedAt)} (${zoneLabel(locale)})`).moveDown();

  doc.font('Helvetica-Bold').fontSize(12).text(labels.totalsTitle).moveDown(0.3);
  for (const t of report.totals) row(['', labels.status(t.status), '', `${t.count} × `, formatBRL(t.sumCents)]);
  row(['', labels.total, '', `${report.count} × `, formatBRL(report.sumCents)], true);
  doc.moveDown();

  const head = [c.line, c.name, c.document, c.key, c.amount, c.status, `${c.settled}`];
  row(head, true);
  for (const l of report.lines) {
    row([
      l.line === null ? '' : String(l.line), l.name ?? '', l.document ?? '', l.key, formatBRL(l.amountCents), labels.status(l.status),
      l.settledAt ? time(l.settledAt).slice(0, 10) : '',
    ]);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
