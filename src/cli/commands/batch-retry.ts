import type { RetryResult, RetrySummary } from '../../engine/pix-import/index.js';
import type { RetryStatus } from '../../engine/batches/index.js';
import { CancelledError, UsageError } from '../../errors.js';
import type { Command } from 'commander';
import type { Locale } from '../../words/locale.js';
import type { RawInput, Runner } from '../command.js';
import type { Context } from '../context.js';
import { batchMessages } from '../messages/batch.js';
import { batchRetryHelp } from '../messages/help/batch-retry.js';
import type { RetryReportMessages } from '../messages/retry-report.js';
import { statusWord } from '../../words/status-words.js';
import { batchName } from '../../words/batch-name.js';
import type { Output } from '../output.js';
import { arg, flag } from '../raw-input.js';

export interface BatchRetryOptions {
  /** Local #id or provider id of the batch whose rows are paid again. */
  readonly ref: string;
  readonly statuses: readonly RetryStatus[];
  readonly start: boolean;
  readonly yes: boolean;
  readonly allowDuplicates: boolean;
}

export const RETRY_STATUSES: readonly RetryStatus[] = ['failed', 'returned'];

/** `batch retry`, on the `batch` command group. */
export function registerBatchRetry(batch: Command, runner: Runner, locale: Locale): void {
  const h = batchRetryHelp[locale];
  batch
    .command('retry')
    .description(h.description)
    .argument('<id>', h.id)
    .option('--status <status>', h.status, collectStatuses)
    .option('--start', h.start, false)
    .option('-y, --yes', h.yes, false)
    .option('--allow-duplicates', h.allowDuplicates, false)
    .addHelpText('after', h.examples)
    .action(runner.action(parseBatchRetryOptions, runBatchRetry));
}

/** Each `--status` given, in order (commander keeps only the last value of a repeated option otherwise). */
export function collectStatuses(value: string, previous: readonly string[] = []): string[] {
  return [...previous, value];
}

/** `--status failed --status returned`, `--status failed,returned`; both when absent. */
export function parseRetryStatuses(raw: RawInput): RetryStatus[] {
  const given = raw.flags['status'];
  if (given === undefined) return [...RETRY_STATUSES];
  const words = (Array.isArray(given) ? given : [given]).flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter(Boolean);
  const wrong = words.find((w) => !(RETRY_STATUSES as readonly string[]).includes(w));
  if (wrong !== undefined || words.length === 0) throw new UsageError(`--status must be failed or returned${wrong ? `, not "${wrong}"` : ''}.`);
  return RETRY_STATUSES.filter((s) => words.includes(s));
}

export function parseBatchRetryOptions(raw: RawInput): BatchRetryOptions {
  return {
    ref: arg(raw, 0, 'id'),
    statuses: parseRetryStatuses(raw),
    start: flag(raw, 'start'),
    yes: flag(raw, 'yes'),
    allowDuplicates: flag(raw, 'allowDuplicates'),
  };
}

export async function runBatchRetry(ctx: Context, opts: BatchRetryOptions): Promise<void> {
  const { commitRetry, prepareRetry, ImportRefusedError } = await import('../../engine/pix-import/index.js');
  const { findBatch } = await import('../../engine/batches/index.js');
  const { formatBRL } = await import('../../domain/money.js');
  const { progressReporter } = await import('../progress.js');
  const { retryReportMessages } = await import('../messages/retry-report.js');
  const ledger = await ctx.ledger();
  const locale = await ctx.locale();
  const source = await findBatch(ledger, opts.ref);
  if (!source) throw new UsageError(batchMessages[locale].noSuchBatch(opts.ref, (await ctx.ledger()).file), { hint: batchMessages[locale].listHint });
  const words = retryReportMessages[locale];
  const profile = await ctx.profile();
  const { onProgress, spinner } = await progressReporter(ctx.out);
  let result: RetryResult;
  try {
    const deps = await (await import('../approval-gate.js')).sendingDeps(ctx, ledger, profile.settings, onProgress);
    const prepared = await prepareRetry(deps, { batchId: source.id, statuses: opts.statuses, start: opts.start, allowDuplicates: opts.allowDuplicates }).catch(async (e: unknown) => {
      // The refusals of a retry are said in English, as they always were.
      throw e instanceof ImportRefusedError ? (await import('../messages/import-refusals.js')).sayImportRefusal(e, 'en') : e;
    });
    if (prepared.kind === 'done') result = prepared.result;
    else {
      // Nothing of the retry is written before the person confirms the plan (or passed --yes).
      const { summary } = prepared.plan;
      spinner.stop();
      showRetrySummary(ctx.out, summary, words, formatBRL);
      const yes = opts.yes || (await ctx.prompter.confirm(words.confirmRetry(summary.start, batchName({ kind: 'sheet', name: summary.batchName }, ctx.out.locale), summary.totals.count, summary.sourceBatchId, formatBRL(summary.totals.sumCents))));
      if (!yes) throw new CancelledError();
      result = await commitRetry(deps, prepared.plan);
    }
  } finally {
    spinner.stop();
  }
  const b = result.batch;
  ctx.out.result(
    {
      outcome: result.outcome,
      sourceBatchId: result.source.id,
      batch: b ? { id: b.id, remoteId: b.remote_id, name: b.name, status: b.status, items: b.item_count, totalCents: b.total_cents } : null,
      summary: result.summary,
      items: result.items,
      skipped: result.skipped,
    },
    () => renderRetry(ctx.out, result, words, (status) => statusWord(status, locale), formatBRL),
  );
}

type FormatBRL = (cents: number) => string;

function showRetrySummary(out: Output, s: RetrySummary, words: RetryReportMessages, formatBRL: FormatBRL): void {
  if (out.json) return;
  const l = words.summaryLabels;
  const rows: [string, string | number][] = [
    [l.from, `#${s.sourceBatchId}`],
    [l.batch, batchName({ kind: 'sheet', name: s.batchName }, out.locale)],
    [l.payments, s.totals.count],
    [l.total, formatBRL(s.totals.sumCents)],
    [l.largest, formatBRL(s.totals.largestCents)],
    ...s.totals.byKeyType.map((t): [string, string] => [`  ${t.keyType}`, `${t.count} · ${formatBRL(t.sumCents)}`]),
  ];
  out.info(out.table(['', ''], rows));
  for (const w of s.nameWarnings) out.warn(words.nameWarning(s.sourceBatchId, w.line, w.sheetName, w.providerName));
  for (const d of s.duplicates) out.warn(words.duplicate(s.sourceBatchId, d.line, d.key, formatBRL(d.amountCents), d.previous.batchName));
}

function renderRetry(out: Output, r: RetryResult, words: RetryReportMessages, status: (s: string) => string, formatBRL: FormatBRL): void {
  const b = r.batch;
  for (const s of r.skipped) out.warn(words.skipped(r.source.id, s.line, s.identifier, s.record === null ? null : status(s.record)));
  if (r.outcome === 'nothing-to-retry' || !b) return out.print(words.nothingToRetry(r.source.id));
  if (r.outcome === 'already-retried') out.print(words.alreadyRetried(r.source.id, b.id, batchName(b, out.locale), status(b.status)));
  else out.print(words.retried(r.outcome === 'retried', b.id, b.name, b.remote_id, b.item_count, formatBRL(b.total_cents), status(b.status)));
  if (b.status !== 'started' && b.status !== 'settled') out.print(words.startHint(b.id));
}
