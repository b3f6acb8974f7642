import type { ReportFormat } from '../../engine/reports/index.js';
import type { PeriodStatement } from '../../reports/period-statement.js';
import type { StatementFormat } from '../../reports/statement-renderer.js';
import { UsageError } from '../../errors.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { batchMessages } from '../messages/batch.js';
import { reportHelp } from '../messages/help/report.js';
import { retryReportMessages, type RetryReportMessages } from '../messages/retry-report.js';
import type { Output } from '../output.js';
import { statusWord } from '../../words/status-words.js';
import { flag, optionalChoice, optionalText } from '../raw-input.js';
import { statementCompany } from '../statement-company.js';

/** What a report covers: one batch, or every batch and bill of a period (a statement). */
export type ReportTarget = { readonly batch: string } | { readonly period: { readonly from: string; readonly to: string; readonly name: string } };

export interface ReportOptions {
  readonly target: ReportTarget;
  readonly format: StatementFormat;
  /** Folder to write to; absent: the current one. */
  readonly out?: string;
  readonly zip: boolean;
  /** Replace a report of the same name instead of writing the next free name. */
  readonly force: boolean;
}

const FORMATS: readonly StatementFormat[] = ['csv', 'xlsx', 'pdf', 'ofx'];

export const registerReport: RegisterCommands = (program, runner, locale) => {
  const h = reportHelp[locale];
  program
    .command('report')
    .description(h.description)
    .argument('[batch]', h.batch)
    .option('--month <YYYY-MM>', h.month)
    .option('--from <YYYY-MM-DD>', h.from)
    .option('--to <YYYY-MM-DD>', h.to)
    .option('--format <format>', h.format, 'csv')
    .option('--out <dir>', h.out)
    .option('--zip', h.zip, false)
    .option('--force', h.force, false)
    .addHelpText('after', h.examples)
    .action(runner.action(parseReportOptions, runReport));
};

export function parseReportOptions(raw: RawInput): ReportOptions {
  const out = optionalText(raw, 'out');
  const format = optionalChoice(raw, 'format', FORMATS) ?? 'csv';
  const target = reportTarget(raw);
  if ('batch' in target && format === 'ofx') {
    throw new UsageError('OFX is a statement of a period: give --month or --from and --to instead of a batch.', { reason: { code: 'report_ofx_needs_period' } });
  }
  if ('period' in target && flag(raw, 'zip')) {
    throw new UsageError('--zip bundles one batch\'s receipts: it goes with a batch, not with a period.', { reason: { code: 'report_zip_needs_batch' } });
  }
  return { target, format, ...(out === undefined ? {} : { out }), zip: flag(raw, 'zip'), force: flag(raw, 'force') };
}

/** A batch, or a period given as --month or as --from and --to (São Paulo days, inclusive): one of them. */
function reportTarget(raw: RawInput): ReportTarget {
  const batch = raw.args[0] === undefined ? undefined : String(raw.args[0]);
  const [month, from, to] = [optionalText(raw, 'month'), optionalText(raw, 'from'), optionalText(raw, 'to')];
  const period = month !== undefined || from !== undefined || to !== undefined;
  if (batch !== undefined && period) throw new UsageError('Give a batch or a period (--month, or --from and --to), not both.', { reason: { code: 'report_target', given: 'both' } });
  if (batch !== undefined) return { batch };
  if (!period) throw new UsageError('Say what to report: a batch (paybatch report 3) or a period (--month 2026-11, or --from and --to).', { reason: { code: 'report_target', given: 'none' } });
  if (month !== undefined) {
    if (from !== undefined || to !== undefined) throw new UsageError('--month is a whole period: leave --from and --to out.', { reason: { code: 'report_target', given: 'month_and_days' } });
    const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
    if (!m) throw invalidPeriod('--month', month, 'YYYY-MM');
    const last = new Date(Date.UTC(Number(m[1]), Number(m[2]), 0)).getUTCDate();
    return { period: { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}`, name: month } };
  }
  if (from === undefined || to === undefined) throw new UsageError('A period needs both --from and --to (or --month).', { reason: { code: 'report_target', given: from === undefined ? 'to_only' : 'from_only' } });
  for (const [option, value] of [['--from', from], ['--to', to]] as const) if (!isDay(value)) throw invalidPeriod(option, value, 'YYYY-MM-DD');
  if (from > to) throw new UsageError(`--from ${from} comes after --to ${to}.`, { reason: { code: 'period_reversed', from, to } });
  return { period: { from, to, name: from === to ? from : `${from}-${to}` } };
}

function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T12:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

function invalidPeriod(option: '--month' | '--from' | '--to', value: string, form: 'YYYY-MM' | 'YYYY-MM-DD'): UsageError {
  return new UsageError(`${option} must be a ${form === 'YYYY-MM' ? 'month' : 'day'} written ${form}; "${value}" is not.`, { reason: { code: 'period_invalid', option, value, form } });
}

export async function runReport(ctx: Context, opts: ReportOptions): Promise<void> {
  if ('period' in opts.target) return runStatement(ctx, opts, opts.target.period);
  const { writeBatchReport } = await import('../../engine/reports/index.js');
  const { reportRenderer } = await import('../../reports/report-renderer.js');
  const { findBatch } = await import('../../engine/batches/index.js');
  const { formatBRL } = await import('../../domain/money.js');
  const ledger = await ctx.ledger();
  const locale = await ctx.locale();
  const words = retryReportMessages[locale];
  const batch = await findBatch(ledger, opts.target.batch);
  if (!batch) throw new UsageError(batchMessages[locale].noSuchBatch(opts.target.batch, ledger.file), { hint: batchMessages[locale].listHint });
  const profile = await ctx.profile();
  const r = await writeBatchReport(ledger, {
    batchId: batch.id,
    renderer: reportRenderer(opts.format as ReportFormat, locale),
    dir: opts.out ?? process.cwd(),
    zip: opts.zip,
    now: ctx.now(),
    profile: profile.name,
    force: opts.force,
    payer: statementCompany(profile.settings).payer,
  });
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

async function runStatement(ctx: Context, opts: ReportOptions, period: { from: string; to: string; name: string }): Promise<void> {
  const { writePeriodStatement } = await import('../../engine/reports/index.js');
  const { statementRenderer } = await import('../../reports/statement-renderer.js');
  const { formatBRL } = await import('../../domain/money.js');
  const ledger = await ctx.ledger();
  const locale = await ctx.locale();
  const profile = await ctx.profile();
  const { file, statement } = await writePeriodStatement(ledger, {
    ...statementCompany(profile.settings),
    ...period,
    renderer: statementRenderer(opts.format, locale),
    dir: opts.out ?? process.cwd(),
    force: opts.force,
    profile: profile.name,
    now: ctx.now(),
  });
  ctx.out.result(
    {
      file,
      format: opts.format,
      profile: profile.name,
      period: statement.period,
      payments: statement.payments.length,
      bills: statement.bills.length,
      totals: statement.totals,
      movements: statement.movements.length,
      balance: statement.balance,
    },
    () => renderStatementWritten(ctx.out, file, statement, retryReportMessages[locale], formatBRL),
  );
}

function renderStatementWritten(out: Output, file: string, s: PeriodStatement, words: RetryReportMessages, formatBRL: (cents: number) => string): void {
  out.print(words.statementWritten(file, s.period.from, s.period.to));
  for (const [kind, t] of [['pix', s.totals.pix], ['bills', s.totals.bills]] as const) {
    if (t.all.count === 0) continue;
    out.print(words.statementTotals(kind, [t.all, t.paid, t.failed, t.returned, t.open].map((x) => ({ count: x.count, amount: formatBRL(x.cents) }))));
  }
}
