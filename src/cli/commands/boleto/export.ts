import type { Command } from 'commander';
import { UsageError } from '../../../errors.js';
import type { RawInput, Runner } from '../../command.js';
import type { Context } from '../../context.js';
import type { Locale } from '../../../words/locale.js';
import { boletoHelp } from '../../messages/help/boleto.js';
import { boletoMessages } from '../../messages/boleto.js';
import { optionalText } from '../../raw-input.js';

export interface BoletoExportOptions {
  /** The remittance the bills were paid from (`boleto pay --file`). */
  readonly file: string;
}

export function registerBoletoExport(boleto: Command, runner: Runner, locale: Locale): void {
  const h = boletoHelp[locale].export;
  boleto
    .command('export')
    .description(h.description)
    .requiredOption('--file <remittance>', h.file)
    .addHelpText('after', h.examples)
    .action(runner.action(parseBoletoExportOptions, runBoletoExport));
}

export function parseBoletoExportOptions(raw: RawInput): BoletoExportOptions {
  const file = optionalText(raw, 'file');
  if (file === undefined) throw new UsageError('Give the remittance the bills were paid from: --file REM.rem');
  return { file };
}

/** The return file of the remittance's bills, on stdout (or inside `--json`). */
export async function runBoletoExport(ctx: Context, opts: BoletoExportOptions): Promise<void> {
  const { hashSheetFile } = await import('../../../sheet/sheet-file.js');
  const { remittanceBillsReturnFile } = await import('../../../engine/reports/index.js');
  // A remittance is known by its bytes' SHA-256, as `boleto pay --file` recorded it; an unreadable file is refused as any input file.
  const file = await remittanceBillsReturnFile(await ctx.ledger(), await hashSheetFile(opts.file), ctx.now());
  if (file === null) {
    throw new UsageError(`No bill of ${opts.file} was paid with 'paybatch boleto pay --file': this remittance has no bills' return file.`, {
      hint: `Pay them with: paybatch boleto pay --file ${opts.file}`,
      reason: { code: 'remittance_bills_unpaid', file: opts.file },
    });
  }
  if (ctx.out.json) ctx.out.writeJson({ format: 'cnab240-retorno', layout: file.layout, titles: file.titles, open: file.open, text: file.text });
  // Bytes in the remittance's own encoding: an ERP reads a return by byte positions.
  else ctx.io.stdout.write(file.bytes);
  // Under --json the messages are English, as every --json document's.
  ctx.out.info(boletoMessages[ctx.out.json ? 'en' : await ctx.locale()].returnWritten(opts.file, file.titles, file.open));
}
