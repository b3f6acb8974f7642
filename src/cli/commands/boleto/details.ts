import type { Command } from 'commander';
import type { InspectedBill } from '../../../engine/pay-bill.js';
import { ExitCode, InputRejectedError } from '../../../errors.js';
import type { RawInput, Runner } from '../../command.js';
import type { Context } from '../../context.js';
import type { Output } from '../../output.js';

type Words = typeof import('./bill-messages.js');

export interface BoletoDetailsOptions {
  /** The digit line or barcode, its parts joined by spaces. */
  readonly code: string;
}

export function registerBoletoDetails(boleto: Command, runner: Runner): void {
  boleto
    .command('details')
    .description("check a bill offline, then show the provider's details: beneficiary, amount, due date, limits, bank window")
    .argument('<line-or-barcode...>', 'the 47/48-digit line or the 44-digit barcode (dots, spaces and dashes allowed; may be split in parts)')
    .addHelpText('after', '\nAn invalid code never reaches the provider (exit 3).\n\nExample:\n  paybatch boleto details 83680000000-9 87450048001-5 23456789012-9 34567890123-1')
    .action(runner.action(parseBoletoDetailsOptions, runBoletoDetails));
}

export function parseBoletoDetailsOptions(raw: RawInput): BoletoDetailsOptions {
  return { code: raw.args.join(' ') };
}

export async function runBoletoDetails(ctx: Context, opts: BoletoDetailsOptions): Promise<number> {
  const { inspectBill } = await import('../../../engine/pay-bill.js');
  const words = await import('./bill-messages.js');
  const inspection = await inspectBill({ provider: () => ctx.provider(), now: ctx.now }, opts.code);
  if (!inspection.ok) {
    const problem = { field: words.refusalField(inspection.refusal), reason: words.refusalText(inspection.refusal, '--amount') };
    throw new InputRejectedError(
      inspection.stage === 'code' ? 'This is not a valid bill code; nothing was sent to the provider.' : 'The provider cannot give the details of this bill.',
      [problem],
    );
  }
  const { bill } = inspection;
  const { formatBRL } = await import('../../../domain/money.js');
  const { formatBoletoLine } = await import('../../../domain/boleto.js');
  ctx.out.result(inspectedDoc(bill, words), () => renderDetails(ctx.out, bill, words, { formatBRL, formatBoletoLine }));
  for (const w of bill.warnings) ctx.out.warn(words.warningText(w));
  for (const r of bill.refusals) ctx.out.error(`${words.refusalField(r)}: ${words.refusalText(r, '--amount')}`);
  if (bill.refusals.length) ctx.out.info('This bill must not be paid as typed: nothing was paid.');
  return bill.refusals.length ? ExitCode.inputRejected : ExitCode.ok;
}

/** The JSON of `boleto details`: a stable contract. */
function inspectedDoc(bill: InspectedBill, words: Words) {
  const d = bill.details;
  return {
    code: { line: bill.decoded.line, barcode: bill.decoded.barcode, kind: bill.decoded.kind, kindName: words.billKindName(bill.decoded), amountCents: bill.decoded.amountCents, dueDate: bill.decoded.dueDate },
    details: {
      beneficiary: d.beneficiary,
      beneficiaryDocument: d.beneficiaryDocument,
      assignor: d.assignor,
      amountCents: d.amountCents,
      originalAmountCents: d.originalAmountCents,
      discountCents: d.discountCents,
      interestCents: d.interestCents,
      minValueCents: d.minValueCents,
      maxValueCents: d.maxValueCents,
      canChangeAmount: d.canChangeAmount,
      dueDate: d.dueDate,
      settleDate: d.settleDate,
      typefulLine: d.typefulLine,
    },
    window: { ...bill.timing, message: words.timingText(bill.timing) },
    problems: bill.refusals.map((r) => ({ field: words.refusalField(r), reason: words.refusalText(r, '--amount') })),
    warnings: bill.warnings.map(words.warningText),
  };
}

function renderDetails(
  out: Output,
  bill: InspectedBill,
  words: Words,
  f: { formatBRL: (cents: number) => string; formatBoletoLine: (line: string) => string },
): void {
  const d = bill.details;
  const brl = (c: number | null) => (c === null ? '-' : f.formatBRL(c));
  out.print(
    out.table(
      ['field', 'value'],
      [
        ['kind', words.billKindName(bill.decoded)],
        ['line', f.formatBoletoLine(bill.decoded.line)],
        ['beneficiary', d.beneficiary],
        ['beneficiary document', d.beneficiaryDocument],
        ['assignor', d.assignor],
        ['amount due', d.amountCents === null || (d.amountCents === 0 && d.canChangeAmount) ? 'chosen by the payer' : f.formatBRL(d.amountCents)],
        ['original amount', brl(d.originalAmountCents)],
        ['discount', brl(d.discountCents)],
        ['interest and fines', brl(d.interestCents)],
        ['minimum / maximum', `${brl(d.minValueCents)} / ${brl(d.maxValueCents)}`],
        ['amount can change', d.canChangeAmount ? 'yes' : 'no'],
        ['due date', d.dueDate || '-'],
        ['settle date (provider)', d.settleDate || '-'],
        ['bank window', words.timingText(bill.timing)],
      ],
    ),
  );
}
