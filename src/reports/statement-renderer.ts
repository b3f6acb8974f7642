import type { Locale } from '../words/locale.js';
import type { PeriodStatement } from './period-statement.js';
import { statementCsv } from './statement-csv.js';
import { statementOfx } from './statement-ofx.js';
import { statementPdf } from './statement-pdf.js';
import { statementXlsx } from './statement-xlsx.js';

export type StatementFormat = 'csv' | 'xlsx' | 'pdf' | 'ofx';

/** A period statement's file format bound to a language at the edge: the engine gathers it, this writes its bytes. */
export interface StatementRenderer {
  readonly format: StatementFormat;
  /** Rejects with a PaybatchError (reason `statement_account_unset`) for OFX when the profile names no account. */
  render(statement: PeriodStatement): Promise<Buffer>;
}

const RENDER: Readonly<Record<StatementFormat, (statement: PeriodStatement, locale: Locale) => Buffer | Promise<Buffer>>> = {
  csv: (s, locale) => Buffer.from(statementCsv(s, locale)),
  xlsx: statementXlsx,
  pdf: statementPdf,
  ofx: statementOfx,
};

/** CSV, XLSX, a PDF in the locale's words, or OFX for accounting systems. */
export function statementRenderer(format: StatementFormat, locale: Locale): StatementRenderer {
  return { format, render: async (statement) => RENDER[format](statement, locale) };
}
