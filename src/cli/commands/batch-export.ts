import type { Command } from 'commander';
import type { Locale } from '../../words/locale.js';
import type { RetryStatus } from '../../engine/batches/index.js';
import { UsageError } from '../../errors.js';
import type { RawInput, Runner } from '../command.js';
import type { Context } from '../context.js';
import { batchMessages } from '../messages/batch.js';
import { batchExportHelp } from '../messages/help/batch-export.js';
import { retryReportMessages } from '../messages/retry-report.js';
import { arg } from '../raw-input.js';
import { collectStatuses, parseRetryStatuses } from './batch-retry.js';

export interface BatchExportOptions {
  readonly ref: string;
  readonly statuses: readonly RetryStatus[];
}

/** `batch export`, on the `batch` command group. */
export function registerBatchExport(batch: Command, runner: Runner, locale: Locale): void {
  const h = batchExportHelp[locale];
  batch
    .command('export')
    .description(h.description)
    .argument('<id>', h.id)
    .option('--status <status>', h.status, collectStatuses)
    .addHelpText('after', h.examples)
    .action(runner.action(parseBatchExportOptions, runBatchExport));
}

export function parseBatchExportOptions(raw: RawInput): BatchExportOptions {
  return { ref: arg(raw, 0, 'id'), statuses: parseRetryStatuses(raw) };
}

export async function runBatchExport(ctx: Context, opts: BatchExportOptions): Promise<void> {
  const { exportBatchRows } = await import('../../engine/reports/index.js');
  const { paymentSheetCsv } = await import('../../sheet/payment-sheet-csv.js');
  const { findBatch } = await import('../../engine/batches/index.js');
  const ledger = await ctx.ledger();
  const locale = await ctx.locale();
  const source = await findBatch(ledger, opts.ref);
  if (!source) throw new UsageError(batchMessages[locale].noSuchBatch(opts.ref, (await ctx.ledger()).file), { hint: batchMessages[locale].listHint });
  const exported = await exportBatchRows(ledger, source.id, opts.statuses);
  const csv = paymentSheetCsv(exported, locale === 'pt-BR' ? 'pt' : 'en');
  const rows = exported.length;
  if (ctx.out.json) ctx.out.writeJson({ batchId: source.id, statuses: opts.statuses, rows, csv: csv.replace(/^\uFEFF/, '') });
  else ctx.io.stdout.write(csv);
  ctx.out.info(retryReportMessages[locale].exported(rows, source.id));
}
