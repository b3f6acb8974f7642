import type { ReportFormat } from '../../engine/reports/index.js';
import { UsageError } from '../../errors.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { batchMessages } from '../messages/batch.js';
import { reportHelp } from '../messages/help/report.js';
import { retryReportMessages } from '../messages/retry-report.js';
import { statusWord } from '../../words/status-words.js';
import { arg, flag, optionalChoice, optionalText } from '../raw-input.js';

export interface ReportOptions {
  /** Local #id or provider id. */
  readonly ref: string;
  readonly format: ReportFormat;
  /** Folder to write to; absent: the current one. */
  readonly out?: string;
  readonly zip: boolean;
  /** Replace a report of the same name instead of writing the next free name. */
  readonly force: boolean;
}

const FORMATS: readonly ReportFormat[] = ['csv', 'xlsx', 'pdf'];

export const registerReport: RegisterCommands = (program, runner, locale) => {
  const h = reportHelp[locale];
  program
    .command('report')
    .description(h.description)
    .argument('<batch>', h.batch)
    .option('--format <format>', h.format, 'csv')
    .option('--out <dir>', h.out)
    .option('--zip', h.zip, false)
    .option('--force', h.force, false)
    .addHelpText('after', h.examples)
    .action(runner.action(parseReportOptions, runReport));
};

export function parseReportOptions(raw: RawInput): ReportOptions {
  const out = optionalText(raw, 'out');
  return {
    ref: arg(raw, 0, 'batch'),
    format: optionalChoice(raw, 'format', FORMATS) ?? 'csv',
    ...(out === undefined ? {} : { out }),
    zip: flag(raw, 'zip'),
    force: flag(raw, 'force'),
  };
}

export async function runReport(ctx: Context, opts: ReportOptions): Promise<void> {
  const { writeBatchReport } = await import('../../engine/reports/index.js');
  const { reportRenderer } = await import('../../reports/report-renderer.js');
  const { findBatch } = await import('../../engine/batches/index.js');
  const { formatBRL } = await import('../../domain/money.js');
  const ledger = await ctx.ledger();
  const locale = await ctx.locale();
  const words = retryReportMessages[locale];
  const batch = await findBatch(ledger, opts.ref);
  if (!batch) throw new UsageError(batchMessages[locale].noSuchBatch(opts.ref, (await ctx.ledger()).file), { hint: batchMessages[locale].listHint });
  const profile = (await ctx.profile()).name;
  const r = await writeBatchReport(ledger, { batchId: batch.id, renderer: reportRenderer(opts.format, locale), dir: opts.out ?? process.cwd(), zip: opts.zip, now: ctx.now(), profile, force: opts.force });
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
