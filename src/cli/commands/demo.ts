import type { RegisterCommands } from '../command.js';

export const registerDemo: RegisterCommands = (program, runner) => {
  program
    .command('demo')
    .description('a short offline demonstration of the rules paybatch checks before money moves (npm start)')
    .action(
      runner.action(async (ctx) => {
        const { checkPixKey } = await import('../../domain/pix-key.js');
        const { decodeBoleto } = await import('../../domain/boleto.js');
        const { parseAmount, formatBRL } = await import('../../domain/money.js');
        const { saoPauloDate } = await import('../../domain/bank-calendar.js');
        const { buildBankBarcode, buildCollectionBarcode } = await import('../../domain/boleto-builder.js');
        const today = saoPauloDate(ctx.now());
        const keys = ['529.982.247-25', '(11) 98765-4321', 'Ana.Souza@Example.com', '12.ABC.345/01DE-35', '123.456.789-00'].map((k) => checkPixKey(k));
        const amounts = ['1.234,56', 'R$ 99,90', '1.234', '-5,00'].map((a) => ({ input: a, result: parseAmount(a) }));
        const bills = [
          buildBankBarcode({ bankCode: '237', dueDate: today, amountCents: 15_990, freeField: '1234567890123456789012345' }),
          buildCollectionBarcode({ segment: 3, valueId: 6, amountCents: 8_745, companyCode: '0048', freeField: '0012345678901234567890123' }),
        ].map((b) => decodeBoleto(b, today));
        const doc = { keys, amounts: amounts.map((a) => ({ input: a.input, ...a.result })), bills };
        ctx.out.result(doc, () => {
          const s = ctx.out.style;
          ctx.out.print(s.bold('Pix keys'));
          ctx.out.print(ctx.out.table(['key', 'type', 'normalized', 'problem'], keys.map((k) => [k.input, k.type, k.normalized, k.error])));
          ctx.out.print(s.bold('\nAmounts (sheet text -> centavos)'));
          ctx.out.print(
            ctx.out.table(['text', 'centavos', 'shown as', 'problem'], amounts.map((a) => (a.result.ok ? [a.input, a.result.value, formatBRL(a.result.value), ''] : [a.input, '', '', a.result.error]))),
          );
          ctx.out.print(s.bold('\nBills'));
          ctx.out.print(ctx.out.table(['line', 'kind', 'amount', 'due'], bills.map((b) => [b.line, b.kind, b.amountCents === null ? '' : formatBRL(b.amountCents), b.dueDate])));
        });
      }),
    );
};
