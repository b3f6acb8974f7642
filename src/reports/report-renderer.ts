import type { Locale } from '../words/locale.js';
import type { BatchReport } from './batch-report.js';
import { reportCsv } from './report-csv.js';
import { reportPdf } from './report-pdf.js';
import { reportXlsx } from './report-xlsx.js';

export type ReportFormat = 'csv' | 'xlsx' | 'pdf';

/** A report's file format bound to a language at the edge: the engine gathers the report, this writes its bytes. */
export interface ReportRenderer {
  readonly format: ReportFormat;
  render(report: BatchReport): Promise<Buffer>;
}

/** CSV, XLSX or a PDF statement in the locale's words. */
export function reportRenderer(format: ReportFormat, locale: Locale): ReportRenderer {
  return {
    format,
    render: async (report) => (format === 'csv' ? Buffer.from(reportCsv(report, locale)) : format === 'xlsx' ? reportXlsx(report, locale) : reportPdf(report, locale)),
  };
}
