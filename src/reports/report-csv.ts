import type { Locale } from '../words/locale.js';
import { pixReasonText } from '../words/payment-reasons.js';
import { localDateTime, zoneLabel } from '../words/local-time.js';
import { formatReais } from '../domain/money.js';
import { csvLine, UTF8_BOM } from '../sheet/csv-text.js';
import type { BatchReport, ReportLine } from './batch-report.js';
import { lineageText } from './lineage-words.js';
import { REPORT_LABELS } from './report-labels.js';

/** The column headings of a report table, in order (dates labelled with their time zone). */
export function reportHeadings(locale: Locale): string[] {
  const c = REPORT_LABELS[locale].columns;
  const zone = zoneLabel(locale);
  return [c.line, c.name, c.document, c.key, c.amount, c.status, c.reason, `${c.created} (${zone})`, `${c.settled} (${zone})`, c.endToEndId, c.receipt, c.story];
}

/** A line's story in words, for a row sent more than once; '' otherwise (the last column, so earlier ones keep their place). */
export function storyCell(l: ReportLine, locale: Locale): string {
  return l.lineage && l.lineage.payments.length > 1 ? lineageText(l.lineage, locale) : '';
}

/** Amount as plain reais of the locale: `1234,56` (pt-BR spreadsheets) or `1234.56`. */
export function plainAmount(cents: number, locale: Locale): string {
  const reais = formatReais(cents);
  return locale === 'pt-BR' ? reais.replace('.', ',') : reais;
}

/**
 * A batch report as CSV: one line per payment, then an empty line and the totals by status. The locale's delimiter
 * (`;` with decimal commas for pt-BR, `,` otherwise), São Paulo times, cells neutralised against formulas, UTF-8 BOM
 * and CRLF so a spreadsheet opens it as it is.
 */
export function reportCsv(report: BatchReport, locale: Locale): string {
  const labels = REPORT_LABELS[locale];
  const delimiter = locale === 'pt-BR' ? ';' : ',';
  const time = (iso: string | null) => (iso ? localDateTime(new Date(iso), locale) : '');
  const row = (l: ReportLine) => [
    l.line === null ? '' : String(l.line), l.name ?? '', l.document ?? '', l.key, plainAmount(l.amountCents, locale), labels.status(l.status),
    l.reason === null ? '' : pixReasonText(l.reason, locale, l.status === 'returned' ? 'return' : 'rejection'), time(l.createdAt), time(l.settledAt), l.endToEndId ?? '', l.receipt ?? '', storyCell(l, locale),
  ];
  const lines = [csvLine(reportHeadings(locale), delimiter), ...report.lines.map((l) => csvLine(row(l), delimiter)), ''];
  lines.push(csvLine([labels.columns.status, labels.count, labels.columns.amount], delimiter));
  for (const t of report.totals) lines.push(csvLine([labels.status(t.status), String(t.count), plainAmount(t.sumCents, locale)], delimiter));
  lines.push(csvLine([labels.total, String(report.count), plainAmount(report.sumCents, locale)], delimiter));
  return UTF8_BOM + lines.join('\r\n') + '\r\n';
}
