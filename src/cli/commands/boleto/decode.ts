import type { Command } from 'commander';
import type { BoletoDecode } from '../../../domain/boleto.js';
import { ExitCode } from '../../../errors.js';
import type { RawInput, Runner } from '../../command.js';
import type { Context } from '../../context.js';
import type { Locale } from '../../../words/locale.js';
import { boletoHelp } from '../../messages/help/boleto.js';
import { boletoMessages, type BoletoMessages } from '../../messages/boleto.js';
import type { Output } from '../../output.js';

export interface BoletoDecodeOptions {
  /** The digit line or barcode, its parts joined by spaces. */
  readonly code: string;
}

export function registerBoletoDecode(boleto: Command, runner: Runner, locale: Locale): void {
  const h = boletoHelp[locale];
  boleto
    .command('decode')
    .description(h.decode.description)
    .argument('<line-or-barcode...>', h.code)
    .addHelpText('after', h.decode.examples)
    .action(runner.action(parseBoletoDecodeOptions, runBoletoDecode));
}

export function parseBoletoDecodeOptions(raw: RawInput): BoletoDecodeOptions {
  return { code: raw.args.join(' ') };
}

export async function runBoletoDecode(ctx: Context, opts: BoletoDecodeOptions): Promise<number> {
  const { decodeBoleto } = await import('../../../domain/boleto.js');
  const { saoPauloDate } = await import('../../../domain/bank-calendar.js');
  const { formatBRL } = await import('../../../domain/money.js');
  const { boletoProblemsText, boletoWarningText } = await import('../../../words/bills.js');
  const d = decodeBoleto(opts.code, saoPauloDate(ctx.now()));
  const doc = {
    input: d.input,
    valid: d.valid,
    kind: d.kind,
    barcode: d.barcode,
    line: d.line,
    amountCents: d.amountCents,
    dueDate: d.dueDate,
    bankCode: d.bankCode,
    segment: d.segment,
    segmentName: d.segmentName,
    valueIsReference: d.valueIsReference,
    companyCode: d.companyCode,
    error: d.valid ? null : boletoProblemsText(d.problems, 'en'),
    warnings: d.warnings.map((w) => boletoWarningText(w, 'en')),
    /** Why the code is refused, as stable codes with their data (the check digit found and the one expected, …). */
    problems: d.problems,
  };
  const { localDay } = await import('../../../words/local-time.js');
  const locale = await ctx.locale();
  ctx.out.result(doc, () =>
    renderDecoded(ctx.out, d, {
      formatBRL,
      day: (ymd) => localDay(ymd, locale),
      words: boletoMessages[locale],
      error: boletoProblemsText(d.problems, locale),
      warnings: d.warnings.map((w) => boletoWarningText(w, locale)),
    }),
  );
  return d.valid ? ExitCode.ok : ExitCode.inputRejected;
}

function renderDecoded(
  out: Output,
  d: BoletoDecode,
  f: { formatBRL: (cents: number) => string; day: (ymd: string) => string; words: BoletoMessages; error: string; warnings: readonly string[] },
): void {
  const s = out.style;
  const w = f.words.decode;
  const amount = d.amountCents === null ? null : d.amountCents === 0 ? w.payerSupplies : f.formatBRL(d.amountCents);
  const rows: [string, string | number | null][] = [
    [w.valid, d.valid ? s.green(w.yes) : s.red(w.invalid(f.error))],
    [w.kind, d.kind === 'bank' ? w.bankSlip : d.kind === 'collection' ? w.collectionSlip : null],
    [w.line, d.line],
    [w.barcode, d.barcode],
    [w.bank, d.bankCode],
    [w.segment, d.segment === null ? null : `${d.segment} ${d.segmentName ?? ''}`.trim()],
    [w.company, d.companyCode],
    [d.valueIsReference ? w.referenceValue : w.amount, amount],
    [w.dueDate, d.dueDate === null ? (d.kind === 'bank' && d.valid ? (d.warnings.length ? w.unknown : w.none) : null) : f.day(d.dueDate)],
  ];
  out.print(out.table(f.words.fieldValue, rows.filter(([, v]) => v !== null)));
  for (const w of f.warnings) out.warn(w);
}
