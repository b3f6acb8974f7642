import type { ReportFormat } from '../../engine/batch-report.js';
import { UsageError } from '../../errors.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { batchMessages } from '../messages/batch.js';
import { retryReportMessages } from '../messages/retry-report.js';
import { statusWord } from '../../domain/status-words.js';
import { arg, flag, optionalChoice, optionalText } from '../raw-input.js';

export interface ReportOptions {
  /** Local #id or provider id. */
  readonly ref: string;
  readonly format: ReportFormat;
  /** Folder to write to; absent: the current one. */
  readonly out?: string;
  readonly zip: boolean;
}

const FORMATS: readonly ReportFormat[] = ['csv', 'xlsx', 'pdf'];

export const registerReport: RegisterCommands = (program, runner) => {
  program
    .command('report')
    .description("a batch's payments for accounting: one line each and totals by status, as CSV, XLSX or a PDF statement")
    .argument('<batch>', 'local #id or provider id')
    .option('--format <format>', 'csv, xlsx or pdf', 'csv')
    .option('--out <dir>', 'folder to write to (default: the current one)')
    .option('--zip', 'one zip with the report and every receipt of the batch', false)
    .addHelpText(
      'after',
      `
The file is batch-<id>-report.<format> (or .zip), private to you (mode 0600), in the profile's language:
Portuguese ("Extrato consolidado", DD/MM/AAAA) or English; times are São Paulo's.

Examples:
  paybatch report 3                       # batch-3-report.csv here
  paybatch report 3 --format xlsx --out ~/fechamento
  paybatch report 3 --format pdf --zip    # the statement and every receipt in batch-3-report.zip`,
    )
    .action(runner.action(parseReportOptions, runReport));
};

export function parseReportOptions(raw: RawInput): ReportOptions {
  const out = optionalText(raw, 'out');
  return {
    ref: arg(raw, 0, 'batch'),
    format: optionalChoice(raw, 'format', FORMATS) ?? 'csv',
    ...(out === undefined ? {} : { out }),
    zip: flag(raw, 'zip'),
  };
}

export async function runReport(ctx: Context, opts: ReportOptions): Promise<void> {
  const { writeBatchReport } = await import('../../engine/batch-report.js');
  const { findBatch } = await import('../../ledger/batch-repository.js');
  const { formatBRL } = await import('../../domain/money.js');
  const ledger = await ctx.ledger();
  const locale = await ctx.locale();
  const words = retryReportMessages[locale];
  const batch = await findBatch(ledger, opts.ref);
  if (!batch) throw new UsageError(batchMessages[locale].noSuchBatch(opts.ref, (await ctx.ledger()).file), { hint: batchMessages[locale].listHint });
  const r = await writeBatchReport(ledger, { batchId: batch.id, format: opts.format, dir: opts.out ?? process.cwd(), zip: opts.zip, locale, now: ctx.now() });
  for (const m of r.missingReceipts) ctx.out.warn(words.missingReceipt(m, batch.id));
  ctx.out.result(
    {
      file: r.file,
      format: opts.format,
      zip: opts.zip,
      batchId: batch.id,
      payments: r.report.count,
      totalCents: r.report.sumCents,
      totals: r.report.totals,
      receipts: r.receipts,
      missingReceipts: r.missingReceipts,
    },
    () => {
      ctx.out.print(words.reportWritten(r.file, r.report.count, formatBRL(r.report.sumCents), opts.zip ? r.receipts : null));
      for (const t of r.report.totals) ctx.out.print(`  ${statusWord(t.status, locale)}: ${t.count} · ${formatBRL(t.sumCents)}`);
    },
  );
}
