import type { ImportResult, ImportSummary } from '../../engine/import-sheet.js';
import { UsageError } from '../../errors.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import type { Output } from '../output.js';
import { arg, flag, optionalText, text } from '../raw-input.js';

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
}

export interface TemplateOptions {
  readonly lang: 'pt' | 'en';
}

type FormatBRL = (cents: number) => string;

export const registerImport: RegisterCommands = (program, runner) => {
  program
    .command('import')
    .description('import a payment sheet (CSV) into a Pix batch: validate, look up keys, confirm, create and add items')
    .argument('<sheet>', 'CSV file: UTF-8 or Windows-1252, ; , or tab separated (see `paybatch template`)')
    .option('--name <name>', 'batch name (default: the file name and today)')
    .option('--check', 'only the offline checks (rules, amounts, duplicates, limits): no provider, no ledger; for CI', false)
    .option('--dry-run', 'validate and look up keys, show the totals, create nothing', false)
    .option('--start', 'start the batch once every item is added', false)
    .option('-y, --yes', 'do not ask for confirmation (scripts, CI)', false)
    .option('--skip-invalid', 'import the valid rows; write the rejected ones to <sheet>.rejected.csv', false)
    .option('--allow-duplicates', 'go on although a row pays a key the same amount as a payment of the last 30 days', false)
    .addHelpText(
      'after',
      `
Running the same command again after an interruption continues where it stopped: the sheet's content is the
import's identity, and every item keeps its identifier, so nothing is paid twice.

Examples:
  paybatch import pagamentos.csv --check                  # in CI, before a person imports it
  paybatch import pagamentos.csv --dry-run
  paybatch import pagamentos.csv --start
  paybatch import pagamentos.csv --start --yes --json     # in CI`,
    )
    .action(runner.action(parseImportOptions, runImport));

  program
    .command('template')
    .description('print a ready payment sheet template (CSV) to fill in')
    .option('--lang <lang>', 'pt (Portuguese headers, ;) or en (English headers, ,)', 'pt')
    .action(runner.action(parseTemplateOptions, runTemplate));
};

export function parseImportOptions(raw: RawInput): ImportOptions {
  const name = optionalText(raw, 'name');
  const check = flag(raw, 'check');
  for (const other of ['dryRun', 'start', 'skipInvalid', 'allowDuplicates'] as const) {
    if (check && flag(raw, other)) throw new UsageError(`--check runs only the offline checks; it does not go with --${other.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.`);
  }
  return {
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
  const { importSheet } = await import('../../engine/import-sheet.js');
  const { formatBRL } = await import('../../domain/money.js');
  const { progressReporter } = await import('../progress.js');
  const profile = await ctx.profile();
  const { onProgress, spinner } = await progressReporter(ctx.out);
  let result;
  try {
    result = await importSheet(
      {
        ledger: await ctx.ledger(),
        provider: () => ctx.provider(),
        settings: profile.settings,
        now: ctx.now,
        onProgress,
        onResume: (r) => ctx.out.info(`Resuming import #${r.importId} (${r.batchIds.length === 1 ? `batch #${r.batchIds[0]}` : `batches #${r.batchIds.join(', #')}`}, started ${r.createdAt}).`),
        confirm: async (summary) => {
          spinner.stop();
          showSummary(ctx.out, summary, formatBRL);
          if (opts.yes) return true;
          return ctx.prompter.confirm(
            `${summary.start ? 'Create and start' : 'Create'} batch "${summary.batchName}"${summary.parts > 1 ? ` (sent as ${summary.parts} batches, the provider's limit being ${profile.settings.maxBatchItems} items)` : ''} paying ${summary.totals.count} people ${formatBRL(summary.totals.sumCents)}?`,
          );
        },
      },
      { file: opts.file, name: opts.name, dryRun: opts.dryRun, start: opts.start, skipInvalid: opts.skipInvalid, allowDuplicates: opts.allowDuplicates },
    );
  } finally {
    spinner.stop();
  }
  if (result.outcome === 'dry-run' && result.summary) showSummary(ctx.out, result.summary, formatBRL);
  const batches = result.batches.map((b) => ({ id: b.id, remoteId: b.remote_id, name: b.name, status: b.status, items: b.item_count, totalCents: b.total_cents }));
  ctx.out.result(
    {
      outcome: result.outcome,
      importId: result.importId,
      // The first (for most sheets the only) batch; `batches` has every part of a sheet split for the provider.
      batch: batches[0] ?? null,
      batches,
      summary: result.summary,
      rejectedFile: result.rejectedFile,
    },
    () => renderImport(ctx.out, result, formatBRL),
  );
}

async function runCheck(ctx: Context, opts: ImportOptions): Promise<void> {
  const { checkSheet } = await import('../../engine/check-sheet.js');
  const { formatBRL } = await import('../../domain/money.js');
  const { maxItemAmount, maxBatchTotal } = (await ctx.profile()).settings;
  const result = await checkSheet(opts.file, { maxItemAmount, maxBatchTotal });
  ctx.out.result({ outcome: 'checked', ...result }, () =>
    ctx.out.print(`✓ ${result.file}: ${result.rows} rows pass every offline check; ${result.totals.count} payments, ${formatBRL(result.totals.sumCents)} in all.`),
  );
}

export async function runTemplate(ctx: Context, opts: TemplateOptions): Promise<void> {
  const { templateCsv } = await import('../../sheet/template.js');
  const csv = templateCsv(opts.lang);
  if (ctx.out.json) ctx.out.writeJson({ lang: opts.lang, csv: csv.replace(/^\uFEFF/, '') });
  else ctx.io.stdout.write(csv);
}

function renderImport(out: Output, result: ImportResult, formatBRL: FormatBRL): void {
  const s = out.style;
  if (result.outcome === 'dry-run') out.print('Dry run: nothing was created.');
  else if (result.batches.length) {
    const what = { imported: 'Imported', resumed: 'Resumed', 'already-imported': 'Already imported', 'dry-run': '' }[result.outcome];
    if (result.batches.length > 1) out.print(`${s.green('✓')} ${what} as ${result.batches.length} batches (the provider's limit per batch):`);
    for (const b of result.batches) {
      const line = `batch #${b.id} "${b.name}" (${b.remote_id ?? 'not yet at the provider'}), ${b.item_count} items, ${formatBRL(b.total_cents)}, ${b.status}.`;
      out.print(result.batches.length > 1 ? `  ${line}` : `${s.green('✓')} ${what}: ${line}`);
      if (b.status !== 'started') out.print(`${result.batches.length > 1 ? '  ' : ''}Start it with: paybatch batch start ${b.id}`);
    }
  } else out.print('This sheet was already imported.');
  if (result.rejectedFile) out.print(`Rejected rows written to ${result.rejectedFile}`);
}

/** The sheet's totals and problems, on stderr, before the confirmation (and after a dry run). */
function showSummary(out: Output, s: ImportSummary, formatBRL: FormatBRL): void {
  if (out.json) return;
  const rows: [string, string | number][] = [
    ['sheet', s.file],
    ['batch', s.batchName],
    ['rows in sheet', s.rows],
    ['payments', s.totals.count],
    ['total', formatBRL(s.totals.sumCents)],
    ['largest', formatBRL(s.totals.largestCents)],
    ...s.totals.byKeyType.map((t): [string, string] => [`  ${t.keyType}`, `${t.count} · ${formatBRL(t.sumCents)}`]),
  ];
  if (s.rejected.length) rows.push(['rejected rows', s.rejected.length]);
  out.info(out.table(['', ''], rows));
  for (const w of s.nameWarnings) out.warn(`${s.file}:${w.line} name: the sheet says "${w.sheetName}", the key belongs to "${w.providerName}"`);
  for (const d of s.duplicates) out.warn(`${s.file}:${d.line} key: ${d.key} was paid ${formatBRL(d.amountCents)} in "${d.previous.batchName}" (allowed by --allow-duplicates)`);
  for (const p of s.rejected) out.warn(`${p.file}:${p.line} ${p.field}: ${p.reason}`);
}
