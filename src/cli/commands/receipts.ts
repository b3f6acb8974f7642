import type { ReceiptsResult } from '../../engine/follow-up/index.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import type { Output } from '../output.js';
import { receiptsHelp } from '../messages/help/receipts.js';
import { receiptsMessages, type ReceiptsMessages } from '../messages/receipts.js';
import { registerReceiptsFind } from './receipts-find.js';
import { flag, optionalText } from '../raw-input.js';

export interface ReceiptsFetchOptions {
  /** Only this batch (local #id or provider id). */
  readonly batch?: string;
  /** Folder to write to; absent: the profile's receiptsDir. */
  readonly out?: string;
  /** Fetch receipts already saved too. */
  readonly again: boolean;
}

export const registerReceipts: RegisterCommands = (program, runner, locale) => {
  const h = receiptsHelp[locale];
  const receipts = program.command('receipts').description(h.group);
  receipts
    .command('fetch')
    .description(h.fetch.description)
    .option('--batch <id>', h.fetch.batch)
    .option('--out <dir>', h.fetch.out)
    .option('--again', h.fetch.again, false)
    .addHelpText('after', h.fetch.examples)
    .action(runner.action(parseReceiptsFetchOptions, runReceiptsFetch));
  registerReceiptsFind(receipts, runner, locale);
};

export function parseReceiptsFetchOptions(raw: RawInput): ReceiptsFetchOptions {
  const batch = optionalText(raw, 'batch');
  const out = optionalText(raw, 'out');
  return { ...(batch === undefined ? {} : { batch }), ...(out === undefined ? {} : { out }), again: flag(raw, 'again') };
}

export async function runReceiptsFetch(ctx: Context, opts: ReceiptsFetchOptions): Promise<number> {
  const { fetchReceipts } = await import('../../engine/follow-up/index.js');
  const { findBatch } = await import('../../engine/batches/index.js');
  const { UsageError, ExitCode } = await import('../../errors.js');
  const m = receiptsMessages[await ctx.locale()];
  const ledger = await ctx.ledger();
  const batch = opts.batch === undefined ? undefined : await findBatch(ledger, opts.batch);
  if (opts.batch !== undefined && !batch) throw new UsageError(m.noSuchBatch(opts.batch));
  const profile = await ctx.profile();
  const dir = opts.out ?? profile.receiptsDir;
  const result = await fetchReceipts(
    { ledger, provider: await ctx.provider(), receiptsDir: dir, now: ctx.now },
    { batchId: batch?.id, again: opts.again || opts.out !== undefined },
  );
  ctx.out.result(result, () => renderReceipts(ctx.out, m, result, dir));
  return result.failed.length ? ExitCode.attention : ExitCode.ok;
}

function renderReceipts(out: Output, m: ReceiptsMessages, result: ReceiptsResult, dir: string): void {
  if (result.saved.length > 0) out.print(m.saved(result.saved.length, dir));
  else if (!result.failed.length) out.print(m.noneMissing);
  for (const f of result.failed) out.warn(m.failed(f.identifier, f.error));
}
