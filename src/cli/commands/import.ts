import type { ImportResult, ImportSummary } from '../../engine/pix-import/index.js';
import { notYetStarted } from '../../engine/batches/index.js';
import { CancelledError, UsageError } from '../../errors.js';
import type { Locale } from '../../words/locale.js';
import type { DestinationType } from '../../domain/account-destination.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { importHelp } from '../messages/help/import.js';
import { importMessages, type ImportMessages } from '../messages/import.js';
import { sayImportProblem, sayImportRefusal } from '../messages/import-refusals.js';
import { statusWord } from '../../words/status-words.js';
import type { Output } from '../output.js';
import { arg, flag, optionalText, text } from '../raw-input.js';
import { wireItemAmount } from '../../provider/dialect.js';

export interface ImportOptions {
  readonly file: string;
  /** Batch name; absent: the file name and today. */
  readonly name?: string;
  readonly dryRun: boolean;
  /** Offline checks only: no provider, no ledger. */
  readonly check: boolean;
  readonly start: boolean;
  readonly yes: boolean;
  readonly skipInvalid: boolean;
  readonly allowDuplicates: boolean;
  /** The worksheet of an XLSX workbook; absent: the first. */
  readonly sheet?: string;
  /** `YYYY-MM-DD`: the batches are imported ready and started by the daemon on that business day. */
  readonly payOn?: string;
  /** `cnab240`: read the file as a CNAB 240 remittance whatever its first line (absent: by its content). */
  readonly format?: 'cnab240';
}

export interface TemplateOptions {
  readonly lang: 'pt' | 'en';
}

type FormatBRL = (cents: number) => string;

/** The run's words and formats, for the renderers below. */
interface Humanized {
  readonly words: ImportMessages;
  /** A kind of Pix key in the run's words (e-mail, celular). */
  keyType(type: DestinationType): string;
  formatBRL: FormatBRL;
  status(status: string): string;
  /** An ISO instant as São Paulo time, labelled. */
  when(iso: string): string;
}

async function humanize(ctx: Context): Promise<Humanized> {
  const { formatBRL } = await import('../../domain/money.js');
  const { localDateTime, zoneLabel } = await import('../../words/local-time.js');
  const { KEY_TYPE_WORDS } = await import('../../words/validation.js');
  const locale = await ctx.locale();
  return {
    words: importMessages[locale],
    keyType: (type) => KEY_TYPE_WORDS[locale][type],
    formatBRL,
    status: (status) => statusWord(status, locale),
    when: (iso) => `${localDateTime(new Date(iso), locale)} (${zoneLabel(locale)})`,
  };
}

export const registerImport: RegisterCommands = (program, runner, locale) => {
  const h = importHelp[locale];
  program
    .command('import')
    .description(h.import.description)
    .argument('<sheet>', h.import.sheet)
    .option('--name <name>', h.import.name)
    .option('--check', h.import.check, false)
    .option('--dry-run', h.import.dryRun, false)
    .option('--start', h.import.start, false)
    .option('-y, --yes', h.import.yes, false)
    .option('--skip-invalid', h.import.skipInvalid, false)
    .option('--allow-duplicates', h.import.allowDuplicates, false)
    .option('--sheet <name>', h.import.worksheet)
    .option('--pay-on <date>', h.import.payOn)
    .option('--format <format>', h.import.format)
    .addHelpText('after', h.import.examples)
    .action(runner.action(parseImportOptions, runImport));

  program
    .command('template')
    .description(h.template.description)
    .option('--lang <lang>', h.template.lang, 'pt')
    .addHelpText('after', h.template.examples)
    .action(runner.action(parseTemplateOptions, runTemplate));
};

export function parseImportOptions(raw: RawInput): ImportOptions {
  const name = optionalText(raw, 'name');
  const check = flag(raw, 'check');
  for (const other of ['dryRun', 'start', 'skipInvalid', 'allowDuplicates'] as const) {
    if (check && flag(raw, other)) throw new UsageError(`--check runs only the offline checks; it does not go with --${other.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.`);
  }
  const sheet = optionalText(raw, 'sheet');
  const payOn = optionalText(raw, 'payOn');
  const format = optionalText(raw, 'format');
  if (format !== undefined && format !== 'cnab240') throw new UsageError(`--format must be cnab240 (CSV and XLSX are recognised by their content), not "${format}".`, { reason: { code: 'import_format_invalid', value: format } });
  if (payOn !== undefined && (check || flag(raw, 'start'))) {
    const other = check ? 'check' : 'start';
    throw new UsageError(`--pay-on schedules the start for that day; it does not go with --${other}.`, { reason: { code: 'pay_on_with', flag: other } });
  }
  return {
    ...(sheet === undefined ? {} : { sheet }),
    ...(payOn === undefined ? {} : { payOn }),
    ...(format === undefined ? {} : { format }),
    file: arg(raw, 0, 'sheet'),
    ...(name === undefined ? {} : { name }),
    dryRun: flag(raw, 'dryRun'),
    check,
    start: flag(raw, 'start'),
    yes: flag(raw, 'yes'),
    skipInvalid: flag(raw, 'skipInvalid'),
    allowDuplicates: flag(raw, 'allowDuplicates'),
  };
}

export function parseTemplateOptions(raw: RawInput): TemplateOptions {
  const lang = text(raw, 'lang', 'pt');
  if (lang !== 'pt' && lang !== 'en') throw new UsageError(`--lang must be pt or en, not "${lang}".`);
  return { lang };
}

export async function runImport(ctx: Context, opts: ImportOptions): Promise<void> {
  if (opts.check) return runCheck(ctx, opts);
  const { abandonImport, commitImport, prepareImport, ImportRefusedError } = await import('../../engine/pix-import/index.js');
  const { progressReporter } = await import('../progress.js');
  const { anyNotYetStarted } = await import('../../engine/batches/index.js');
  const profile = await ctx.profile();
  const ledger = await ctx.ledger();
  const h = await humanize(ctx);
  const { words, formatBRL } = h;
  const locale = await ctx.locale();
  // Refusals and row reasons in the user's language; `--json` keeps them English.
  const said = ctx.out.json ? 'en' : locale;
  // A date that cannot be scheduled is refused before anything is read or written.
  const schedule = opts.payOn === undefined ? null : await import('../../engine/batches/index.js');
  const payOn = schedule === null || opts.payOn === undefined ? null : schedule.payOnStart(opts.payOn, ctx.now());
  const { onProgress, spinner } = await progressReporter(ctx.out);
  const confirmed = async (summary: ImportSummary): Promise<boolean> => {
    spinner.stop();
    showSummary(ctx.out, summary, h, said);
    if (opts.yes) return true;
    return ctx.prompter.confirm(
      words.confirm({
        start: summary.start,
        batchName: summary.batchName,
        parts: summary.parts,
        maxBatchItems: profile.settings.maxBatchItems,
        count: summary.totals.count,
        total: formatBRL(summary.totals.sumCents),
      }),
    );
  };
  const deps = await (await import('../approval-gate.js')).sendingDeps(ctx, ledger, profile.settings, onProgress);
  let result;
  try {
    const prepared = await prepareImport(deps, {
      file: opts.file, sheet: opts.sheet, name: opts.name, dryRun: opts.dryRun, start: opts.start, skipInvalid: opts.skipInvalid, allowDuplicates: opts.allowDuplicates,
      ...(opts.format ? { format: opts.format } : {}),
      ...(opts.payOn ? { payOn: opts.payOn } : {}),
      // The rejected rows' file is for a person to fix, whatever the output format: in the profile's language.
      sayProblem: (p) => sayImportProblem(p, locale),
    });
    if (prepared.kind === 'done') result = prepared.result;
    else {
      const { plan } = prepared;
      try {
        // Batches already started or settled have nothing to resume: the result line says where they stand.
        const r = plan.resuming;
        if (r && (await anyNotYetStarted(ledger, r.batchIds))) ctx.out.info(words.resuming(r.importId, r.batchIds, h.when(r.createdAt)));
        // Nothing is written before the person confirms the plan (or passed --yes).
        if (plan.summary && !(await confirmed(plan.summary))) throw new CancelledError();
      } catch (e) {
        await abandonImport(plan);
        throw e;
      }
      result = await commitImport(deps, plan);
    }
  } catch (e) {
    throw e instanceof ImportRefusedError ? sayImportRefusal(e, said) : e;
  } finally {
    spinner.stop();
  }
  const scheduled = schedule === null || payOn === null ? (result.scheduled ?? []) : await schedule.scheduleImportBatches(ledger, result.batches.map((b) => b.id), payOn, ctx.now());
  if (result.outcome === 'dry-run' && result.summary) showSummary(ctx.out, result.summary, h, said);
  const batches = result.batches.map((b) => ({ id: b.id, remoteId: b.remote_id, name: b.name, status: b.status, items: b.item_count, totalCents: b.total_cents }));
  ctx.out.result(
    {
      outcome: result.outcome,
      importId: result.importId,
      // The first (for most sheets the only) batch; `batches` has every part of a sheet split for the provider.
      batch: batches[0] ?? null,
      batches,
      summary: result.summary && { ...result.summary, rejected: result.summary.rejected.map((p) => sayImportProblem(p, 'en')) },
      rejectedFile: result.rejectedFile,
      schedule: payOn === null ? null : { payOn: payOn.payOn, startAt: payOn.startAt.toISOString(), batchIds: scheduled.map((s) => s.batchId) },
      // A remittance's later payment dates: each part with the day it starts.
      schedules: scheduled.map((s) => ({ batchId: s.batchId, payOn: s.payOn, startAt: s.startAt })),
    },
    () => {
      renderImport(ctx.out, result, h, new Set(scheduled.map((s) => s.batchId)));
      if (payOn !== null && scheduled.length) ctx.out.print(scheduledLine(scheduled.map((s) => s.batchId), h.when(payOn.startAt.toISOString()), payOn.payOn !== payOn.startDay, locale));
      if (payOn === null) for (const s of scheduled) ctx.out.print(scheduledLine([s.batchId], h.when(s.startAt), s.payOn !== s.startAt.slice(0, 10), locale));
    },
  );
}

async function runCheck(ctx: Context, opts: ImportOptions): Promise<void> {
  const { checkSheet, ImportRefusedError } = await import('../../engine/pix-import/index.js');
  const { maxItemAmount, maxBatchTotal, cnabLayout, pixByAccount } = (await ctx.profile()).settings;
  const { words, formatBRL } = await humanize(ctx);
  // Refusals and row reasons in the user's language; `--json` keeps them English.
  const locale = ctx.out.json ? 'en' : await ctx.locale();
  const result = await checkSheet(opts.file, { maxItemAmount, maxBatchTotal }, {
    sheet: opts.sheet,
    now: ctx.now(),
    accountsAccepted: pixByAccount === 'bank-code',
    ...(cnabLayout ? { cnabLayout } : {}),
    ...(opts.format ? { format: opts.format } : {}),
  }).catch((e: unknown) => {
    throw e instanceof ImportRefusedError ? sayImportRefusal(e, locale) : e;
  });
  ctx.out.result({ outcome: 'checked', ...result }, () => {
    if (result.ignoredColumns.length) ctx.out.warn(`${words.summary.ignored}: ${words.ignoredColumns(result.ignoredColumns)}`);
    ctx.out.print(words.checked(result.file, result.rows, result.totals.count, formatBRL(result.totals.sumCents)));
  });
}

export async function runTemplate(ctx: Context, opts: TemplateOptions): Promise<void> {
  const { templateCsv } = await import('../../sheet/template.js');
  const csv = templateCsv(opts.lang);
  if (ctx.out.json) ctx.out.writeJson({ lang: opts.lang, csv: csv.replace(/^\uFEFF/, '') });
  else ctx.io.stdout.write(csv);
}

/** What `--pay-on` did, for people: which batches start when (and that the day moved, for a weekend or holiday). */
function scheduledLine(batchIds: readonly number[], when: string, moved: boolean, locale: Locale): string {
  const ids = batchIds.map((id) => `#${id}`).join(', ');
  if (locale === 'pt-BR') return `Agendado: o daemon inicia ${batchIds.length > 1 ? 'os lotes' : 'o lote'} ${ids} em ${when}${moved ? ', o próximo dia útil' : ''}.`;
  return `Scheduled: the daemon starts batch${batchIds.length > 1 ? 'es' : ''} ${ids} on ${when}${moved ? ', the next business day' : ''}.`;
}

function renderImport(out: Output, result: ImportResult, { words, formatBRL, status }: Humanized, scheduled: ReadonlySet<number> = new Set()): void {
  const s = out.style;
  if (result.outcome === 'dry-run') out.print(words.dryRun);
  else if (result.batches.length) {
    const what = words.outcome[result.outcome];
    // A resumed remittance has no summary, but its batches were cut the same way: by its schedules.
    const byDate = Boolean(result.summary?.remittance) || scheduled.size > 0;
    if (result.batches.length > 1) out.print(`${s.green('✓')} ${words.asBatches(what, result.batches.length, byDate)}`);
    for (const b of result.batches) {
      const line = words.batchLine({ id: b.id, name: b.name, remoteId: b.remote_id, items: b.item_count, total: formatBRL(b.total_cents), status: status(b.status) });
      out.print(result.batches.length > 1 ? `  ${line}` : `${s.green('✓')} ${what}: ${line}`);
      if (notYetStarted(b.status) && !scheduled.has(b.id)) out.print(`${result.batches.length > 1 ? '  ' : ''}${words.startIt(b.id)}`);
    }
  } else out.print(words.alreadyImported);
  if (result.rejectedFile) out.print(words.rejectedFile(result.rejectedFile, result.summary?.rejectedRows ?? 0));
}

/** The sheet's totals and problems, on stderr, before the confirmation (and after a dry run). */
function showSummary(out: Output, s: ImportSummary, { words, formatBRL, keyType }: Humanized, locale: Locale): void {
  if (out.json) return;
  const label = words.summary;
  const rows: [string, string | number][] = [
    [label.sheet, s.file],
    [label.batch, s.batchName],
    [label.rows, s.rows],
    [label.payments, s.totals.count],
    [label.total, formatBRL(s.totals.sumCents)],
    [label.largest, formatBRL(s.totals.largestCents)],
    [label.asSent, words.asSent(s.amountUnit === null ? null : `"amount": ${wireItemAmount(s.totals.largestCents, s.amountUnit)} (${s.amountUnit})`)],
    ...s.totals.byKeyType.map((t): [string, string] => [`  ${keyType(t.keyType)}`, `${t.count} · ${formatBRL(t.sumCents)}`]),
  ];
  if (s.remittance) {
    rows.push([label.layout, `${s.remittance.layout} (${s.remittance.bank})`]);
    for (const d of s.remittance.dates) rows.push([`  ${d.date}`, `${d.count} · ${formatBRL(d.sumCents)}${d.scheduled ? ` · ${label.scheduled}` : ''}`]);
    if (s.remittance.billLines.length) rows.push([label.bills, words.billsLeft(s.file, s.remittance.billLines)]);
  }
  if (s.rejectedRows) rows.push([label.rejected, s.rejectedRows]);
  if (s.ignoredColumns.length) rows.push([label.ignored, words.ignoredColumns(s.ignoredColumns)]);
  out.info(out.table(['', ''], rows));
  for (const w of s.nameWarnings) out.warn(out.problem({ file: s.file, line: w.line, field: words.field('name'), reason: words.nameWarning(w.sheetName, w.providerName) }));
  for (const d of s.duplicates) {
    out.warn(out.problem({ file: s.file, line: d.line, field: words.field('key'), reason: words.duplicateWarning(d.key, formatBRL(d.amountCents), d.previous.batchName) }));
  }
  for (const p of s.rejected) out.warn(out.problem({ ...sayImportProblem(p, locale), field: p.field === undefined ? undefined : words.field(p.field) }));
}
