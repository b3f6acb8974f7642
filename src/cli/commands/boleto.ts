import { ExitCode } from '../../errors.js';
import type { RegisterCommands } from '../command.js';

export const registerBoleto: RegisterCommands = (program, runner) => {
  const boleto = program.command('boleto').description('decode, inspect and pay bills (boletos, utility and government bills)');
  boleto
    .command('decode')
    .description('decode and check a digit line or barcode offline')
    .argument('<line-or-barcode...>', 'the 47/48-digit line or the 44-digit barcode (dots, spaces and dashes allowed; may be split in parts)')
    .addHelpText('after', '\nExamples:\n  paybatch boleto decode "23793.38128 60007.827136 95000.063305 5 16560000150000"\n  paybatch boleto decode 83680000000-9 87450048001-5 23456789012-9 34567890123-1 --json')
    .action(
      runner.action(async (ctx, _opts, parts) => {
        const { decodeBoleto } = await import('../../domain/boleto.js');
        const { saoPauloDate } = await import('../../domain/bank-calendar.js');
        const { formatBRL } = await import('../../domain/money.js');
        const d = decodeBoleto(parts.join(' '), saoPauloDate(ctx.now()));
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
        ctx.out.result(doc, () => {
          const s = ctx.out.style;
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
          ctx.out.print(ctx.out.table(['field', 'value'], rows.filter(([, v]) => v !== null)));
        });
        return d.valid ? ExitCode.ok : ExitCode.inputRejected;
      }),
    );
};
