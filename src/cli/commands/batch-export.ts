import type { Command } from 'commander';
import type { Locale } from '../../words/locale.js';
import type { RetryStatus } from '../../engine/batches/index.js';
import { UsageError } from '../../errors.js';
import type { RawInput, Runner } from '../command.js';
import type { Context } from '../context.js';
import { batchMessages } from '../messages/batch.js';
import { batchExportHelp } from '../messages/help/batch-export.js';
import { arg, text } from '../raw-input.js';
import { collectStatuses, parseRetryStatuses } from './batch-retry.js';

export interface BatchExportOptions {
  readonly ref: string;
  readonly statuses: readonly RetryStatus[];
  readonly format: 'csv' | 'cnab240-retorno';
}

/** `batch export`, on the `batch` command group. */
export function registerBatchExport(batch: Command, runner: Runner, locale: Locale): void {
  const h = batchExportHelp[locale];
  batch
    .command('export')
    .description(h.description)
    .argument('<id>', h.id)
    .option('--status <status>', h.status, collectStatuses)
    .option('--format <format>', h.format, 'csv')
    .addHelpText('after', h.examples)
    .action(runner.action(parseBatchExportOptions, runBatchExport));
}

export function parseBatchExportOptions(raw: RawInput): BatchExportOptions {
  const format = text(raw, 'format', 'csv');
  if (format !== 'csv' && format !== 'cnab240-retorno') {
    throw new UsageError(`--format must be csv or cnab240-retorno, not "${format}".`, { reason: { code: 'export_format_invalid', value: format } });
  }
  if (format === 'cnab240-retorno' && raw.flags['status'] !== undefined) {
    throw new UsageError('--status chooses rows of the sheet to fix; a return file has every title of the batch.', { reason: { code: 'export_status_with_return' } });
  }
  return { ref: arg(raw, 0, 'id'), statuses: parseRetryStatuses(raw), format };
}

export async function runBatchExport(ctx: Context, opts: BatchExportOptions): Promise<void> {
  const { exportBatchRows } = await import('../../engine/reports/index.js');
  const { paymentSheetCsv } = await import('../../sheet/payment-sheet-csv.js');
  const { findBatch } = await import('../../engine/batches/index.js');
  const { retryReportMessages } = await import('../messages/retry-report.js');
  const ledger = await ctx.ledger();
  const locale = await ctx.locale();
  const source = await findBatch(ledger, opts.ref);
  if (!source) throw new UsageError(batchMessages[locale].noSuchBatch(opts.ref, (await ctx.ledger()).file), { hint: batchMessages[locale].listHint });
  // Under --json the messages are English, as every --json document's.
  if (opts.format === 'cnab240-retorno') return writeReturnFile(ctx, source.id, ctx.out.json ? 'en' : locale);
  const exported = await exportBatchRows(ledger, source.id, opts.statuses);
  const csv = paymentSheetCsv(exported.rows, locale === 'pt-BR' ? 'pt' : 'en');
  const rows = exported.rows.length;
  const { unconfirmed } = exported;
  if (ctx.out.json) ctx.out.writeJson({ batchId: source.id, statuses: opts.statuses, rows, unconfirmed, csv: csv.replace(/^\uFEFF/, '') });
  else ctx.io.stdout.write(csv);
  ctx.out.info(retryReportMessages[locale].exported(rows, source.id));
  if (unconfirmed) ctx.out.warn(retryReportMessages[locale].unconfirmedLeftOut(unconfirmed, source.id));
}

/** The batch's CNAB 240 return file, on stdout (or inside `--json`). */
async function writeReturnFile(ctx: Context, batchId: number, locale: Locale): Promise<void> {
  const { batchReturnFile } = await import('../../engine/reports/index.js');
  const { retryReportMessages } = await import('../messages/retry-report.js');
  const file = await batchReturnFile(await ctx.ledger(), batchId, ctx.now());
  if (file === null) throw new UsageError(retryReportMessages[locale].noRemittance(batchId), { reason: { code: 'batch_not_remittance', batchId } });
  if (ctx.out.json) ctx.out.writeJson({ batchId, format: 'cnab240-retorno', layout: file.layout, titles: file.titles, open: file.open, text: file.text });
  // Bytes in the remittance's own encoding: an ERP reads a return by byte positions.
  else ctx.io.stdout.write(file.bytes);
  ctx.out.info(retryReportMessages[locale].returnWritten(batchId, file.titles, file.open));
}
