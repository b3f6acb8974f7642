import type { Command } from 'commander';
import type { BoletoDecode } from '../../../domain/boleto.js';
import { ExitCode } from '../../../errors.js';
import type { RawInput, Runner } from '../../command.js';
import type { Context } from '../../context.js';
import type { Output } from '../../output.js';

export interface BoletoDecodeOptions {
  /** The digit line or barcode, its parts joined by spaces. */
  readonly code: string;
}

export function registerBoletoDecode(boleto: Command, runner: Runner): void {
  boleto
    .command('decode')
    .description('decode and check a digit line or barcode offline')
    .argument('<line-or-barcode...>', 'the 47/48-digit line or the 44-digit barcode (dots, spaces and dashes allowed; may be split in parts)')
    .addHelpText('after', '\nExamples:\n  paybatch boleto decode "23793.38128 60007.827136 95000.063305 5 16560000150000"\n  paybatch boleto decode 83680000000-9 87450048001-5 23456789012-9 34567890123-1 --json')
    .action(runner.action(parseBoletoDecodeOptions, runBoletoDecode));
}

export function parseBoletoDecodeOptions(raw: RawInput): BoletoDecodeOptions {
  return { code: raw.args.join(' ') };
}

export async function runBoletoDecode(ctx: Context, opts: BoletoDecodeOptions): Promise<number> {
  const { decodeBoleto } = await import('../../../domain/boleto.js');
  const { saoPauloDate } = await import('../../../domain/bank-calendar.js');
  const { formatBRL } = await import('../../../domain/money.js');
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
    error: d.error,
  };
  ctx.out.result(doc, () => renderDecoded(ctx.out, d, formatBRL));
  return d.valid ? ExitCode.ok : ExitCode.inputRejected;
}

function renderDecoded(out: Output, d: BoletoDecode, formatBRL: (cents: number) => string): void {
  const s = out.style;
  const amount = d.amountCents === null ? null : d.amountCents === 0 ? 'payer supplies the amount' : formatBRL(d.amountCents);
  const rows: [string, string | number | null][] = [
    ['valid', d.valid ? s.green('yes') : s.red(`no: ${d.error}`)],
    ['kind', d.kind === 'bank' ? 'bank slip' : d.kind === 'collection' ? 'collection slip (utility/government)' : null],
    ['line', d.line],
    ['barcode', d.barcode],
    ['bank', d.bankCode],
    ['segment', d.segment === null ? null : `${d.segment} ${d.segmentName ?? ''}`.trim()],
    ['company', d.companyCode],
    [d.valueIsReference ? 'reference value' : 'amount', amount],
    ['due date', d.dueDate ?? (d.kind === 'bank' && d.valid ? 'none' : null)],
  ];
  out.print(out.table(['field', 'value'], rows.filter(([, v]) => v !== null)));
}
