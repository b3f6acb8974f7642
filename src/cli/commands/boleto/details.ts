import type { Command } from 'commander';
import type { InspectedBill } from '../../../engine/bills/index.js';
import { ExitCode, InputRejectedError } from '../../../errors.js';
import type { RawInput, Runner } from '../../command.js';
import type { Context } from '../../context.js';
import type { Locale } from '../../../words/locale.js';
import { boletoHelp } from '../../messages/help/boleto.js';
import { boletoMessages, type BoletoMessages } from '../../messages/boleto.js';
import type { Output } from '../../output.js';

type Words = typeof import('./bill-messages.js');
type BillWords = Words['billWords']['en'];

export interface BoletoDetailsOptions {
  /** The digit line or barcode, its parts joined by spaces. */
  readonly code: string;
}

export function registerBoletoDetails(boleto: Command, runner: Runner, locale: Locale): void {
  const h = boletoHelp[locale];
  boleto
    .command('details')
    .description(h.details.description)
    .argument('<line-or-barcode...>', h.code)
    .addHelpText('after', h.details.examples)
    .action(runner.action(parseBoletoDetailsOptions, runBoletoDetails));
}

export function parseBoletoDetailsOptions(raw: RawInput): BoletoDetailsOptions {
  return { code: raw.args.join(' ') };
}

export async function runBoletoDetails(ctx: Context, opts: BoletoDetailsOptions): Promise<number> {
  const { inspectBill } = await import('../../../engine/bills/index.js');
  const words = await import('./bill-messages.js');
  const inspection = await inspectBill({ provider: () => ctx.provider(), now: ctx.now }, opts.code);
  const locale = await ctx.locale();
  const human = words.billWords[locale];
  const frame = boletoMessages[locale];
  if (!inspection.ok) {
    // The error's texts reach the --json document too: English there.
    const [texts, said] = ctx.out.json ? [words.billWords.en, boletoMessages.en.details] : [human, frame.details];
    const problem = { field: words.refusalField(inspection.refusal), code: inspection.refusal.code, reason: texts.refusalText(inspection.refusal, 'option') };
    throw new InputRejectedError(inspection.stage === 'code' ? said.notACode : said.noDetails, [problem]);
  }
  const { bill } = inspection;
  const { formatBRL } = await import('../../../domain/money.js');
  const { formatBoletoLine } = await import('../../../domain/boleto.js');
  const { localDay } = await import('../../../words/local-time.js');
  const day = (ymd: string) => (/^\d{4}-\d{2}-\d{2}$/.test(ymd) ? localDay(ymd, locale) : ymd);
  ctx.out.result(inspectedDoc(bill, words), () => renderDetails(ctx.out, bill, human, { formatBRL, formatBoletoLine, day, frame }));
  for (const w of bill.warnings) ctx.out.warn(human.warningText(w));
  for (const r of bill.refusals) ctx.out.error(ctx.out.problem({ field: words.refusalField(r), reason: human.refusalText(r, 'option') }));
  if (bill.refusals.length) ctx.out.info(frame.details.mustNotPay);
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
    problems: bill.refusals.map((r) => ({ field: words.refusalField(r), code: r.code, reason: words.refusalText(r, 'option') })),
    warnings: bill.warnings.map(words.warningText),
  };
}

function renderDetails(
  out: Output,
  bill: InspectedBill,
  words: BillWords,
  f: { formatBRL: (cents: number) => string; formatBoletoLine: (line: string) => string; day: (ymd: string) => string; frame: BoletoMessages },
): void {
  const d = bill.details;
  const w = f.frame.details;
  const brl = (c: number | null) => (c === null ? '-' : f.formatBRL(c));
  out.print(
    out.table(f.frame.fieldValue, [
      [w.kind, words.billKindName(bill.decoded)],
      [w.line, f.formatBoletoLine(bill.decoded.line)],
      [w.beneficiary, d.beneficiary],
      [w.beneficiaryDocument, d.beneficiaryDocument],
      [w.assignor, d.assignor],
      [w.amountDue, d.amountCents === null || (d.amountCents === 0 && d.canChangeAmount) ? w.chosenByPayer : f.formatBRL(d.amountCents)],
      [w.originalAmount, brl(d.originalAmountCents)],
      [w.discount, brl(d.discountCents)],
      [w.interest, brl(d.interestCents)],
      [w.minMax, `${brl(d.minValueCents)} / ${brl(d.maxValueCents)}`],
      [w.canChange, d.canChangeAmount ? w.yes : w.no],
      [w.dueDate, d.dueDate ? f.day(d.dueDate) : '-'],
      [w.settleDate, d.settleDate ? f.day(d.settleDate) : '-'],
      [w.bankWindow, words.timingText(bill.timing)],
    ]),
  );
}
