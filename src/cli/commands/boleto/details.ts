import type { Command } from 'commander';
import type { InspectedBill } from '../../../engine/pay-bill.js';
import { ExitCode } from '../../../errors.js';
import type { RawInput, Runner } from '../../command.js';
import type { Context } from '../../context.js';
import type { Output } from '../../output.js';

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
  const bill = await inspectBill({ provider: () => ctx.provider(), now: ctx.now }, opts.code);
  const { formatBRL } = await import('../../../domain/money.js');
  const { formatBoletoLine } = await import('../../../domain/boleto.js');
  ctx.out.result(inspectedDoc(bill), () => renderDetails(ctx.out, bill, { formatBRL, formatBoletoLine }));
  for (const w of bill.warnings) ctx.out.warn(w);
  for (const p of bill.problems) ctx.out.error(`${p.field}: ${p.reason}`);
  if (bill.problems.length) ctx.out.info('This bill must not be paid as typed: nothing was paid.');
  return bill.problems.length ? ExitCode.inputRejected : ExitCode.ok;
}

/** The JSON of `boleto details`: a stable contract. */
function inspectedDoc(bill: InspectedBill) {
  const d = bill.details;
  return {
    code: { line: bill.decoded.line, barcode: bill.decoded.barcode, kind: bill.decoded.kind, kindName: bill.kindName, amountCents: bill.decoded.amountCents, dueDate: bill.decoded.dueDate },
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
    window: bill.timing,
    problems: bill.problems,
    warnings: bill.warnings,
  };
}

function renderDetails(
  out: Output,
  bill: InspectedBill,
  f: { formatBRL: (cents: number) => string; formatBoletoLine: (line: string) => string },
): void {
  const d = bill.details;
  const brl = (c: number | null) => (c === null ? '-' : f.formatBRL(c));
  out.print(
    out.table(
      ['field', 'value'],
      [
        ['kind', bill.kindName],
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
        ['bank window', bill.timing.message],
      ],
    ),
  );
}
