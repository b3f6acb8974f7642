import type { Locale } from '../words/locale.js';
import { pixReasonText } from '../words/payment-reasons.js';
import { saoPauloDateTime } from '../domain/bank-calendar.js';
import { centsToReais } from '../domain/money.js';
import type { BatchReport } from './batch-report.js';
import { reportHeadings, storyCell } from './report-csv.js';
import { REPORT_LABELS } from './report-labels.js';

/** Reais with the currency sign, whatever the spreadsheet's locale. */
export const CURRENCY_FORMAT = '"R$" #,##0.00';

/**
 * A São Paulo wall-clock time as a spreadsheet date: spreadsheets have no time zones, so the cell holds the wall
 * time São Paulo showed (the column heading says so), not the UTC instant.
 */
export function wallClockDate(iso: string): Date {
  const [ymd, hm] = saoPauloDateTime(new Date(iso)).split(' ') as [string, string];
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  const [h, min] = hm.split(':').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1, d, h, min));
}

/**
 * A batch report as an XLSX workbook (exceljs, loaded on first use): a sheet of payments with amounts as numbers in
 * a currency format and dates as dates, and a sheet of totals by status.
 */
export async function reportXlsx(report: BatchReport, locale: Locale): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const labels = REPORT_LABELS[locale];
  const dateFormat = locale === 'pt-BR' ? 'dd/mm/yyyy hh:mm' : 'yyyy-mm-dd hh:mm';
  const book = new ExcelJS.Workbook();
  book.creator = 'paybatch';
  const sheet = book.addWorksheet(labels.title.slice(0, 31));
  sheet.addRow(reportHeadings(locale)).font = { bold: true };
  for (const l of report.lines) {
    sheet.addRow([
      l.line, l.name, l.document, l.key, centsToReais(l.amountCents), labels.status(l.status), l.reason === null ? null : pixReasonText(l.reason, locale, l.status === 'returned' ? 'return' : 'rejection'),
      wallClockDate(l.createdAt), l.settledAt ? wallClockDate(l.settledAt) : null, l.endToEndId, l.receipt, storyCell(l, locale) || null,
    ]);
  }
  sheet.getColumn(5).numFmt = CURRENCY_FORMAT;
  sheet.getColumn(8).numFmt = dateFormat;
  sheet.getColumn(9).numFmt = dateFormat;
  sheet.columns.forEach((col, i) => (col.width = [8, 30, 20, 30, 14, 18, 30, 18, 18, 34, 40, 50][i]));
  sheet.views = [{ state: 'frozen', ySplit: 1 }];

  const totals = book.addWorksheet(labels.totalsTitle.slice(0, 31));
  totals.addRow([labels.columns.status, labels.count, labels.columns.amount]).font = { bold: true };
  for (const t of report.totals) totals.addRow([labels.status(t.status), t.count, centsToReais(t.sumCents)]);
  totals.addRow([labels.total, report.count, centsToReais(report.sumCents)]).font = { bold: true };
  totals.getColumn(3).numFmt = CURRENCY_FORMAT;
  totals.columns.forEach((col, i) => (col.width = [20, 12, 18][i]));
  return Buffer.from(await book.xlsx.writeBuffer());
}
