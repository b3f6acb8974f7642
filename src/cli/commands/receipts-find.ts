import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { Locale } from '../../words/locale.js';
import { PaybatchError, UsageError } from '../../errors.js';
import type { SavedReceipt } from '../../engine/reports/index.js';
import type { RawInput, Runner } from '../command.js';
import type { Context } from '../context.js';
import type { IO } from '../io.js';
import { batchMessages } from '../messages/batch.js';
import { receiptsFindHelp } from '../messages/help/receipts-find.js';
import { retryReportMessages } from '../messages/retry-report.js';
import { statusWord } from '../../words/status-words.js';
import { arg, flag } from '../raw-input.js';

export interface ReceiptsListOptions {
  /** Only this batch (local #id or provider id). */
  readonly batch?: string;
}

export interface ReceiptsOpenOptions {
  /** The item: its ledger id, identifier or end-to-end id. */
  readonly ref: string;
  /** Only print the path, never open a viewer. */
  readonly print: boolean;
}

/** `receipts list` and `receipts open`, on the `receipts` command group. */
export function registerReceiptsFind(receipts: Command, runner: Runner, locale: Locale): void {
  const h = receiptsFindHelp[locale];
  receipts
    .command('list')
    .description(h.list.description)
    .argument('[batch]', h.list.batch)
    .addHelpText('after', h.list.examples)
    .action(runner.action(parseReceiptsListOptions, runReceiptsList));
  receipts
    .command('open')
    .description(h.open.description)
    .argument('<item>', h.open.item)
    .option('--print', h.open.print, false)
    .addHelpText('after', h.open.examples)
    .action(runner.action(parseReceiptsOpenOptions, runReceiptsOpen));
}

export function parseReceiptsListOptions(raw: RawInput): ReceiptsListOptions {
  const batch = raw.args[0];
  return batch === undefined ? {} : { batch };
}

export function parseReceiptsOpenOptions(raw: RawInput): ReceiptsOpenOptions {
  return { ref: arg(raw, 0, 'item'), print: flag(raw, 'print') };
}

const receiptDoc = (r: SavedReceipt) => ({
  item: r.itemId,
  batchId: r.batchId,
  batchName: r.batchName,
  line: r.line,
  identifier: r.identifier,
  recipient: r.recipient,
  amountCents: r.amountCents,
  status: r.status,
  endToEndId: r.endToEndId,
  path: r.path,
});

export async function runReceiptsList(ctx: Context, opts: ReceiptsListOptions): Promise<void> {
  const { receiptsOfBatch } = await import('../../engine/reports/index.js');
  const { formatBRL } = await import('../../domain/money.js');
  const ledger = await ctx.ledger();
  const locale = await ctx.locale();
  const words = retryReportMessages[locale];
  const found = await receiptsOfBatch(ledger, opts.batch);
  if (!found.found) throw new UsageError(batchMessages[locale].noSuchBatch(found.ref, (await ctx.ledger()).file), { hint: batchMessages[locale].listHint });
  const rows = found.receipts;
  ctx.out.result(rows.map(receiptDoc), () => {
    if (!rows.length) return ctx.out.print(words.noReceipts(found.batchId));
    ctx.out.print(
      ctx.out.table(words.receiptsHead, rows.map((r) => [r.itemId, `#${r.batchId}`, r.line, r.recipient, formatBRL(r.amountCents), statusWord(r.status, locale), r.path])),
    );
  });
}

export async function runReceiptsOpen(ctx: Context, opts: ReceiptsOpenOptions): Promise<void> {
  const { receiptOf } = await import('../../engine/reports/index.js');
  const words = retryReportMessages[await ctx.locale()];
  const receipt = await receiptOf(await ctx.ledger(), opts.ref);
  if (!receipt) throw new UsageError(words.noReceiptFor(opts.ref), { hint: words.receiptRefHint });
  if (!existsSync(receipt.path)) throw new PaybatchError(words.receiptGone(receipt.itemId, receipt.path), { hint: words.fetchAgainHint(receipt.batchId) });
  const viewer = opts.print || ctx.out.json ? null : desktopOpener(ctx.io);
  ctx.out.result({ ...receiptDoc(receipt), opened: viewer !== null }, () => ctx.out.print(receipt.path));
  if (viewer) openDetached(viewer, receipt.path, (e) => ctx.out.warn(words.couldNotOpen(viewer, e.message)));
}

/** The desktop's file opener when paybatch runs in a terminal of a graphical session; null otherwise (ssh, cron, pipes). */
function desktopOpener(io: IO): string | null {
  if (!io.stdoutIsTTY) return null;
  if (process.platform === 'darwin') return 'open';
  return io.env.DISPLAY || io.env.WAYLAND_DISPLAY ? 'xdg-open' : null;
}

function openDetached(command: string, path: string, onError: (e: Error) => void): void {
  const child = spawn(command, [path], { detached: true, stdio: 'ignore' });
  child.on('error', onError);
  child.unref();
}
