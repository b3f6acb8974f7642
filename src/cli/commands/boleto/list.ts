import type { Command } from 'commander';
import type { RawInput, Runner } from '../../command.js';
import type { Context } from '../../context.js';
import type { Output } from '../../output.js';
import { flag } from '../../raw-input.js';
import type { BillDoc } from './bill-doc.js';

export interface BoletoListOptions {
  /** Failed payments and unfinished intents too. */
  readonly all: boolean;
}

export function registerBoletoList(boleto: Command, runner: Runner): void {
  boleto
    .command('list')
    .description('bills in the ledger: paid, scheduled, unknown and returned, with the date until which a return can arrive')
    .option('--all', 'failed payments and unfinished intents too', false)
    .action(runner.action(parseBoletoListOptions, runBoletoList));
}

export function parseBoletoListOptions(raw: RawInput): BoletoListOptions {
  return { all: flag(raw, 'all') };
}

export async function runBoletoList(ctx: Context, opts: BoletoListOptions): Promise<void> {
  const { listBills } = await import('../../../ledger/bill-repository.js');
  const { formatBRL } = await import('../../../domain/money.js');
  const { loadBillDoc } = await import('./bill-doc.js');
  const billDoc = await loadBillDoc();
  const rows = listBills(await ctx.ledger(), opts.all ? ['intent', 'paid', 'scheduled', 'unknown', 'failed', 'returned'] : ['paid', 'scheduled', 'unknown', 'returned']);
  const docs = rows.map(billDoc);
  ctx.out.result(docs, () => renderBills(ctx.out, docs, formatBRL));
}

function renderBills(out: Output, docs: readonly BillDoc[], formatBRL: (cents: number) => string): void {
  if (!docs.length) return out.print('No bills yet. Pay one with: paybatch boleto pay <line-or-barcode>');
  out.print(
    out.table(
      ['#', 'status', 'beneficiary', 'amount', 'due', 'settle', 'return possible until', 'transaction', 'note'],
      docs.map((b) => [
        b.id,
        b.status,
        b.beneficiary,
        formatBRL(b.amountPaidCents ?? b.amountCents),
        b.dueDate,
        b.settleDate,
        b.returnableUntil,
        b.transactionId,
        b.status === 'returned' ? `${b.returnReason ?? '?'} → ${b.returnMeaning ?? 'reason not in the table'}` : (b.error ?? b.description),
      ]),
    ),
  );
}
