import type { Command } from 'commander';
import type { RetryStatus } from '../../ledger/retry-store.js';
import { UsageError } from '../../errors.js';
import type { RawInput, Runner } from '../command.js';
import type { Context } from '../context.js';
import { batchMessages } from '../messages/batch.js';
import { retryReportMessages } from '../messages/retry-report.js';
import { arg } from '../raw-input.js';
import { collectStatuses, parseRetryStatuses } from './batch-retry.js';

export interface BatchExportOptions {
  readonly ref: string;
  readonly statuses: readonly RetryStatus[];
}

/** `batch export`, on the `batch` command group. */
export function registerBatchExport(batch: Command, runner: Runner): void {
  batch
    .command('export')
    .description('write the rows of a batch that failed or were returned for good as a sheet to fix and import')
    .argument('<id>', 'local #id or provider id')
    .option('--status <status>', 'which rows: failed, returned (repeat or separate by commas; default: both)', collectStatuses)
    .addHelpText(
      'after',
      `
The sheet has the import's columns (Portuguese or English, as the locale) and a reason column, and leaves out rows
already paid again by 'batch retry'. Its identifiers are left empty: the fixed sheet is a new import.

Examples:
  paybatch batch export 3 --status failed > corrigir.csv
  paybatch import corrigir.csv --start`,
    )
    .action(runner.action(parseBatchExportOptions, runBatchExport));
}

export function parseBatchExportOptions(raw: RawInput): BatchExportOptions {
  return { ref: arg(raw, 0, 'id'), statuses: parseRetryStatuses(raw) };
}

export async function runBatchExport(ctx: Context, opts: BatchExportOptions): Promise<void> {
  const { exportBatchSheet } = await import('../../engine/export-batch.js');
  const { findBatch } = await import('../../ledger/batch-repository.js');
  const ledger = await ctx.ledger();
  const locale = await ctx.locale();
  const source = await findBatch(ledger, opts.ref);
  if (!source) throw new UsageError(batchMessages[locale].noSuchBatch(opts.ref, (await ctx.ledger()).file), { hint: batchMessages[locale].listHint });
  const { csv, rows } = await exportBatchSheet(ledger, source.id, opts.statuses, locale);
  if (ctx.out.json) ctx.out.writeJson({ batchId: source.id, statuses: opts.statuses, rows, csv: csv.replace(/^\uFEFF/, '') });
  else ctx.io.stdout.write(csv);
  ctx.out.info(retryReportMessages[locale].exported(rows, source.id));
}
