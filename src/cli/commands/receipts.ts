import type { ReceiptsResult } from '../../engine/fetch-receipts.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import type { Output } from '../output.js';
import { flag, optionalText } from '../raw-input.js';

export interface ReceiptsFetchOptions {
  /** Only this batch (local #id or provider id). */
  readonly batch?: string;
  /** Folder to write to; absent: the profile's receiptsDir. */
  readonly out?: string;
  /** Fetch receipts already saved too. */
  readonly again: boolean;
}

export const registerReceipts: RegisterCommands = (program, runner) => {
  const receipts = program.command('receipts').description('receipt PDFs of paid items');
  receipts
    .command('fetch')
    .description('save the receipt of every paid item that has none yet (as the daemon does)')
    .option('--batch <id>', 'only this batch (local #id or provider id)')
    .option('--out <dir>', 'folder to write to (default: the profile\'s receiptsDir)')
    .option('--again', 'fetch receipts already saved too', false)
    .action(runner.action(parseReceiptsFetchOptions, runReceiptsFetch));
};

export function parseReceiptsFetchOptions(raw: RawInput): ReceiptsFetchOptions {
  const batch = optionalText(raw, 'batch');
  const out = optionalText(raw, 'out');
  return { ...(batch === undefined ? {} : { batch }), ...(out === undefined ? {} : { out }), again: flag(raw, 'again') };
}

export async function runReceiptsFetch(ctx: Context, opts: ReceiptsFetchOptions): Promise<number> {
  const { fetchReceipts } = await import('../../engine/fetch-receipts.js');
  const { findBatch } = await import('../../ledger/batch-repository.js');
  const { UsageError, ExitCode } = await import('../../errors.js');
  const ledger = await ctx.ledger();
  const batch = opts.batch === undefined ? undefined : findBatch(ledger, opts.batch);
  if (opts.batch !== undefined && !batch) throw new UsageError(`No batch "${opts.batch}" in the ledger.`);
  const profile = await ctx.profile();
  const dir = opts.out ?? profile.receiptsDir;
  const result = await fetchReceipts(
    { ledger, provider: await ctx.provider(), receiptsDir: dir, now: ctx.now },
    { batchId: batch?.id, again: opts.again || opts.out !== undefined },
  );
  ctx.out.result(result, () => renderReceipts(ctx.out, result, dir));
  return result.failed.length ? ExitCode.attention : ExitCode.ok;
}

function renderReceipts(out: Output, result: ReceiptsResult, dir: string): void {
  out.print(`✓ ${result.saved.length} receipts saved${result.saved.length ? ` under ${dir}` : ''}.`);
  for (const f of result.failed) out.warn(`receipt of ${f.identifier}: ${f.error}`);
}
