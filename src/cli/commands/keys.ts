import { Option } from 'commander';
import { ExitCode } from '../../errors.js';
import type { RegisterCommands } from '../command.js';

export const registerKeys: RegisterCommands = (program, runner) => {
  const keys = program.command('keys').description('check and look up Pix keys');
  keys
    .command('check')
    .description('validate and normalise Pix keys offline (CPF, CNPJ, phone, e-mail, random key)')
    .argument('<key...>', 'keys to check')
    .addOption(new Option('--type <type>', 'check every key as this type instead of detecting it').choices(['cpf', 'cnpj', 'phone', 'email', 'evp']))
    .addHelpText('after', '\nExamples:\n  paybatch keys check 123.456.789-09 +5511987654321 ana@example.com\n  paybatch keys check --type phone 11987654321 --json')
    .action(
      runner.action<{ type?: 'cpf' | 'cnpj' | 'phone' | 'email' | 'evp' }>(async (ctx, opts, args) => {
        const { checkPixKey } = await import('../../domain/pix-key.js');
        const results = args.map((k) => checkPixKey(k, opts.type));
        ctx.out.result(results, () => {
          const s = ctx.out.style;
          ctx.out.print(
            ctx.out.table(
              ['key', 'valid', 'type', 'normalized', 'note'],
              results.map((r) => [
                r.input,
                r.valid ? s.green('yes') : s.red('no'),
                r.type,
                r.normalized,
                r.error ?? (r.ambiguousWith.length ? `could also be: ${r.ambiguousWith.join(', ')} (pass --type)` : ''),
              ]),
            ),
          );
        });
        return results.every((r) => r.valid) ? ExitCode.ok : ExitCode.inputRejected;
      }),
    );

  keys
    .command('lookup')
    .description("ask the provider who a Pix key belongs to (checked offline first)")
    .argument('<key>', 'the Pix key')
    .addOption(new Option('--type <type>', 'the key type, when it could be either CPF or phone').choices(['cpf', 'cnpj', 'phone', 'email', 'evp']))
    .action(
      runner.action<{ type?: 'cpf' | 'cnpj' | 'phone' | 'email' | 'evp' }>(async (ctx, opts, [key]) => {
        const { checkPixKey } = await import('../../domain/pix-key.js');
        const { InputRejectedError } = await import('../../errors.js');
        const check = checkPixKey(key!, opts.type);
        if (!check.valid) throw new InputRejectedError(`${key}: ${check.error}`);
        const destination = await (await ctx.provider()).lookupKey(check.normalized!);
        ctx.out.result({ key: check.normalized, type: check.type, found: destination !== null, destination }, () => {
          if (!destination) return ctx.out.print(`The provider does not know the key ${check.normalized}.`);
          ctx.out.print(ctx.out.table(['field', 'value'], Object.entries(destination)));
        });
        return destination ? ExitCode.ok : ExitCode.inputRejected;
      }),
    );
};
