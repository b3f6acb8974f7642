import type { Command } from 'commander';
import type { RawInput, Runner } from '../../command.js';
import type { Context } from '../../context.js';
import { boletoHelp } from '../../messages/help/boleto.js';
import { boletoMessages } from '../../messages/boleto.js';
import { statusWord } from '../../../words/status-words.js';
import { billReturnMeaningText } from '../../../words/payment-reasons.js';
import type { Output } from '../../output.js';
import { flag } from '../../raw-input.js';
import type { Locale } from '../../../words/locale.js';
import type { BillDoc } from './bill-doc.js';

export interface BoletoListOptions {
  /** Failed payments and unfinished intents too. */
  readonly all: boolean;
}

export function registerBoletoList(boleto: Command, runner: Runner, locale: Locale): void {
  const h = boletoHelp[locale].list;
  boleto
    .command('list')
    .description(h.description)
    .option('--all', h.all, false)
    .action(runner.action(parseBoletoListOptions, runBoletoList));
}

export function parseBoletoListOptions(raw: RawInput): BoletoListOptions {
  return { all: flag(raw, 'all') };
}

export async function runBoletoList(ctx: Context, opts: BoletoListOptions): Promise<void> {
  const { listBills } = await import('../../../engine/bills/index.js');
  const { formatBRL } = await import('../../../domain/money.js');
  const { localDay } = await import('../../../words/local-time.js');
  const { loadBillDoc } = await import('./bill-doc.js');
  const billDoc = await loadBillDoc();
  const rows = await listBills(await ctx.ledger(), opts.all ? ['intent', 'paid', 'scheduled', 'unknown', 'failed', 'returned'] : ['paid', 'scheduled', 'unknown', 'returned']);
  const docs = rows.map(billDoc);
  const locale = await ctx.locale();
  const day = (ymd: string | null) => (ymd ? localDay(ymd, locale) : ymd);
  ctx.out.result(docs, () => renderBills(ctx.out, docs, { formatBRL, day, locale }));
}

function renderBills(out: Output, docs: readonly BillDoc[], f: { formatBRL: (cents: number) => string; day: (ymd: string | null) => string | null; locale: Locale }): void {
  const words = boletoMessages[f.locale];
  if (!docs.length) return out.print(words.noBills);
  out.print(
    out.table(
      words.listHead,
      docs.map((b) => [
        b.id,
        statusWord(b.status, f.locale),
        b.beneficiary,
        f.formatBRL(b.amountPaidCents ?? b.amountCents),
        f.day(b.dueDate),
        f.day(b.settleDate),
        f.day(b.returnableUntil),
        b.transactionId,
        // The current document; the receipt's path is in --json.
        b.document === null ? '-' : words.documents[b.document],
        b.status === 'returned'
          ? words.returnNote(b.returnReason, billReturnMeaningText(b.returnReason, b.returnMeaning, f.locale))
          : b.status === 'unknown' || b.status === 'intent'
            ? words.unknownNote(b.id)
            : (b.error ?? b.description),
      ]),
      // The provider's transaction id gives way first (it is in --json whole): the beneficiary is what people read.
      ['text', 'fixed', 'text', 'text', 'text', 'text', 'text', 'expendable'],
    ),
  );
}
