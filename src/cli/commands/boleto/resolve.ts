import type { Command } from 'commander';
import { UsageError } from '../../../errors.js';
import type { RawInput, Runner } from '../../command.js';
import type { Context } from '../../context.js';
import type { Locale } from '../../../words/locale.js';
import { boletoHelp } from '../../messages/help/boleto.js';
import { boletoMessages } from '../../messages/boleto.js';
import { arg, flag, optionalText } from '../../raw-input.js';

export interface BoletoResolveOptions {
  readonly billId: number;
  readonly paid: boolean;
  readonly transactionId: string | null;
  readonly yes: boolean;
}

export function registerBoletoResolve(boleto: Command, runner: Runner, locale: Locale): void {
  const h = boletoHelp[locale].resolve;
  boleto
    .command('resolve')
    .description(h.description)
    .argument('<bill>', h.bill)
    .option('--paid', h.paid)
    .option('--transaction <id>', h.transaction)
    .option('--not-paid', h.notPaid)
    .option('-y, --yes', h.yes, false)
    .addHelpText('after', h.examples)
    .action(runner.action(parseBoletoResolveOptions, runBoletoResolve));
}

export function parseBoletoResolveOptions(raw: RawInput): BoletoResolveOptions {
  const id = arg(raw, 0, 'bill');
  if (!/^#?\d+$/.test(id)) throw new UsageError(`"${id}" is not a bill number; see them with: paybatch boleto list --all`);
  const paid = flag(raw, 'paid');
  const notPaid = flag(raw, 'notPaid');
  if (paid === notPaid) throw new UsageError('Say what the statement shows: --paid or --not-paid.');
  const transactionId = optionalText(raw, 'transaction') ?? null;
  if (notPaid && transactionId !== null) throw new UsageError('--transaction goes with --paid.');
  return { billId: Number(id.replace('#', '')), paid, transactionId, yes: flag(raw, 'yes') };
}

export async function runBoletoResolve(ctx: Context, opts: BoletoResolveOptions): Promise<void> {
  const { resolveBill } = await import('../../../engine/bills/index.js');
  const { findBill } = await import('../../../engine/bills/index.js');
  const { formatBRL } = await import('../../../domain/money.js');
  const ledger = await ctx.ledger();
  const before = await findBill(ledger, opts.billId);
  if (!before) throw new UsageError(`There is no bill #${opts.billId} in the ledger; see them with: paybatch boleto list --all`);
  const words = boletoMessages[await ctx.locale()].resolve;
  const what = words.what(before.id, formatBRL(before.amount_cents), before.beneficiary, before.line);
  // Not paid lets the bill be paid again: that moves money, so it is confirmed.
  if (!opts.paid && !opts.yes && !(await ctx.prompter.confirm(words.confirmNotPaid(what)))) {
    ctx.out.info(words.nothing);
    return;
  }
  const bill = await resolveBill(ledger, opts.billId, opts.paid ? { paid: true, transactionId: opts.transactionId } : { paid: false }, ctx.now());
  const { loadBillDoc } = await import('./bill-doc.js');
  ctx.out.result((await loadBillDoc())(bill), () =>
    ctx.out.print(opts.paid ? words.paid(what, opts.transactionId) : words.notPaid(what)),
  );
}
