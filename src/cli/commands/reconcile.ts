import { statusWord } from '../../words/status-words.js';
import { ExitCode, UsageError } from '../../errors.js';
import type { BatchComparison } from '../../engine/follow-up/index.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { batchMessages } from '../messages/batch.js';
import { reconcileHelp } from '../messages/help/reconcile.js';
import { reconcileMessages, type ReconcileMessages } from '../messages/reconcile.js';
import type { Output } from '../output.js';

export interface ReconcileOptions {
  /** Batches named (local id or the provider's); none: every batch sent to the provider. */
  readonly refs: readonly string[];
}

export const registerReconcile: RegisterCommands = (program, runner, locale) => {
  const h = reconcileHelp[locale];
  program
    .command('reconcile')
    .description(h.description)
    .argument('[batch...]', h.batches)
    .addHelpText('after', h.examples)
    .action(runner.action(parseReconcileOptions, runReconcile));
};

export function parseReconcileOptions(raw: RawInput): ReconcileOptions {
  return { refs: raw.args.flatMap((a) => (Array.isArray(a) ? a : [a])).map(String) };
}

export async function runReconcile(ctx: Context, opts: ReconcileOptions): Promise<number> {
  const { compareWithProvider } = await import('../../engine/follow-up/index.js');
  const { batchesSentToProvider, findBatch } = await import('../../engine/batches/index.js');
  const { formatBRL } = await import('../../domain/money.js');
  const ledger = await ctx.ledger();
  const locale = await ctx.locale();
  const batches = [];
  for (const ref of opts.refs) {
    const batch = await findBatch(ledger, ref);
    if (!batch) throw new UsageError(batchMessages[locale].noSuchBatch(ref, ledger.file), { hint: batchMessages[locale].listHint });
    batches.push(batch);
  }
  const compared = await compareWithProvider({ ledger, provider: await ctx.provider(), now: ctx.now }, opts.refs.length ? batches : await batchesSentToProvider(ledger));
  const differences = compared.reduce((n, b) => n + b.differences.length, 0);
  const status = (s: string) => statusWord(s, locale);
  ctx.out.result({ batches: compared, differences, agree: differences === 0 }, () => renderReconcile(ctx.out, compared, reconcileMessages[locale], formatBRL, status));
  return differences === 0 ? ExitCode.ok : ExitCode.attention;
}

function renderReconcile(out: Output, compared: readonly BatchComparison[], words: ReconcileMessages, formatBRL: (cents: number) => string, status: (s: string) => string): void {
  if (!compared.length) return out.print(words.nothing);
  for (const b of compared) {
    out.print(words.batch(b.batchId, b.name, b.remoteId));
    const states = [...new Set([...Object.keys(b.ledger), ...Object.keys(b.provider)])];
    const side = (t: { count: number; cents: number } | undefined) => (t ? words.side(t.count, formatBRL(t.cents)) : '—');
    out.print(out.table([...words.head], states.map((s) => [status(s), side(b.ledger[s]), side(b.provider[s])])));
    const shown = (v: string | number | null, field: string) => (v === null ? words.absent : field === 'status' || field === 'presence' ? status(String(v)) : String(v));
    for (const d of b.differences) out.print(words.difference(d.identifier, d.line, d.field, shown(d.ledger, d.field), shown(d.provider, d.field)));
    if (b.followed) out.print(words.followed(b.followed));
  }
  const differences = compared.reduce((n, b) => n + b.differences.length, 0);
  if (differences === 0) return out.print(words.agree(compared.length));
  out.print(words.disagree(differences, compared.filter((b) => b.differences.length).length));
  out.print(words.nextStep);
}
