import { ExitCode } from '../../errors.js';
import type { RegisterCommands } from '../command.js';

interface CheckFlags {
  key: string;
  bill?: string;
  publicUrl?: string;
}

export const registerProvider: RegisterCommands = (program, runner) => {
  const provider = program.command('provider').description('your payment provider: what it accepts, and what to pin in the profile');
  provider
    .command('check')
    .description('check, without moving money, everything payments need from the provider with this profile')
    .option('--key <key>', 'a Pix key to look up (a key nobody holds is fine: the answer proves the endpoint)', 'paybatch-check@example.com')
    .option('--bill <line>', "a real bill's digit line or barcode, to learn which method the details query takes")
    .option('--public-url <url>', "the public URL the provider calls (ending in /webhooks): checks the daemon's receiver answers there")
    .addHelpText(
      'after',
      '\nChecks the token (and whether the token endpoint wants HTTP Basic or the form body), the API key, a key lookup,' +
        "\nthe item pages of the newest batch (status words, Pix ids), the bill details method and the webhook receiver," +
        '\nthen prints the settings worth pinning. Exit 0 only when everything payments need works.' +
        '\n\nExamples:\n  paybatch provider check\n  paybatch provider check --bill 23793381286000000000300000000401184340000012345 --public-url https://pay.example.com/webhooks --json',
    )
    .action(
      runner.action<CheckFlags>(async (ctx, flags) => {
        const { checkProvider } = await import('../../engine/check-provider.js');
        const result = await checkProvider(await ctx.provider(), {
          key: flags.key,
          ...(flags.bill === undefined ? {} : { billCode: flags.bill }),
          ...(flags.publicUrl === undefined ? {} : { publicUrl: flags.publicUrl }),
        });
        ctx.out.result(result, () => {
          const s = ctx.out.style;
          ctx.out.print(
            ctx.out.table(
              ['check', 'result', 'detail'],
              result.steps.map((step) => [step.name, step.ok ? s.green('ok') : step.required ? s.red('FAILED') : s.yellow('warning'), step.detail]),
            ),
          );
          const pins = Object.entries(result.recommend);
          if (pins.length) {
            ctx.out.print('\nPin what was learnt, so nothing has to be guessed again:');
            for (const [name, value] of pins) ctx.out.print(`  paybatch config set ${name} ${value}`);
          }
          ctx.out.print(result.ready ? '\n✓ Everything payments need works.' : '\n✗ Payments cannot work yet: see FAILED above.');
        });
        return result.ready ? ExitCode.ok : ExitCode.failure;
      }),
    );
};
