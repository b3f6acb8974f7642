import type { Command } from 'commander';
import { UsageError } from '../../../errors.js';
import type { RawInput, Runner } from '../../command.js';
import type { Context } from '../../context.js';
import { boletoMessages } from '../../messages/boleto.js';
import { arg, flag, optionalText } from '../../raw-input.js';

export interface BoletoResolveOptions {
  readonly billId: number;
  readonly paid: boolean;
  readonly transactionId: string | null;
  readonly yes: boolean;
}

export function registerBoletoResolve(boleto: Command, runner: Runner): void {
  boleto
    .command('resolve')
    .description("record what the provider's statement shows for a bill payment whose outcome is unknown")
    .argument('<bill>', 'the bill number (#) of `paybatch boleto list --all`')
    .option('--paid', 'the statement shows the payment')
    .option('--transaction <id>', "the payment's transaction id in the statement (with --paid)")
    .option('--not-paid', 'the statement shows no payment of it: it may then be paid again')
    .option('-y, --yes', 'do not ask for confirmation (scripts, CI)', false)
    .addHelpText(
      'after',
      `
A payment whose answer was lost, or that a stopped run left unfinished, and whose provider events never came, stays
unknown (bill payments cannot be looked up through the API). Check the provider's statement, then record it:
  paybatch boleto resolve 12 --paid --transaction 9f1c2d
  paybatch boleto resolve 12 --not-paid --yes      # then pay it again: paybatch boleto pay <line>`,
    )
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
  const { resolveBill } = await import('../../../engine/resolve-bill.js');
  const { findBill } = await import('../../../ledger/bill-repository.js');
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
