import type { ProviderCheck } from '../../engine/check-provider.js';
import { ExitCode } from '../../errors.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import type { Output } from '../output.js';
import { optionalText, text } from '../raw-input.js';

const CHECK_KEY = 'paybatch-check@example.com';

export interface ProviderCheckOptions {
  /** A Pix key to look up. */
  readonly key: string;
  /** A real bill's digit line or barcode. */
  readonly bill?: string;
  /** The public URL of the daemon's receiver. */
  readonly publicUrl?: string;
}

export const registerProvider: RegisterCommands = (program, runner) => {
  const provider = program.command('provider').description('your payment provider: what it accepts, and what to pin in the profile');
  provider
    .command('check')
    .description('check, without moving money, everything payments need from the provider with this profile')
    .option('--key <key>', 'a Pix key to look up (a key nobody holds is fine: the answer proves the endpoint)', CHECK_KEY)
    .option('--bill <line>', "a real bill's digit line or barcode, to learn which method the details query takes")
    .option('--public-url <url>', "the public URL the provider calls (ending in /webhooks): checks the daemon's receiver answers there")
    .addHelpText(
      'after',
      '\nChecks the token (and whether the token endpoint wants HTTP Basic or the form body), the API key, a key lookup,' +
        "\nthe item pages of the newest batch (status words, Pix ids), the bill details method and the webhook receiver," +
        '\nthen prints the settings worth pinning. Exit 0 only when everything payments need works.' +
        '\n\nExamples:\n  paybatch provider check\n  paybatch provider check --bill 23793381286000000000300000000401184340000012345 --public-url https://pay.example.com/webhooks --json',
    )
    .action(runner.action(parseProviderCheckOptions, runProviderCheck));
};

export function parseProviderCheckOptions(raw: RawInput): ProviderCheckOptions {
  const bill = optionalText(raw, 'bill');
  const publicUrl = optionalText(raw, 'publicUrl');
  return { key: text(raw, 'key', CHECK_KEY), ...(bill === undefined ? {} : { bill }), ...(publicUrl === undefined ? {} : { publicUrl }) };
}

export async function runProviderCheck(ctx: Context, opts: ProviderCheckOptions): Promise<number> {
  const { checkProvider } = await import('../../engine/check-provider.js');
  const { reachOf, connectionFacts, connectionLines } = await import('../provider-reach.js');
  const provider = await ctx.provider();
  const profile = await ctx.profile();
  const connection = profile.embeddedSandbox ? null : connectionFacts(await reachOf(ctx, profile), profile.settings.baseUrl, ctx.now());
  const result = await checkProvider(provider, {
    key: opts.key,
    ...(opts.bill === undefined ? {} : { billCode: opts.bill }),
    ...(opts.publicUrl === undefined ? {} : { publicUrl: opts.publicUrl }),
  });
  ctx.out.result({ ...result, connection }, () => {
    for (const line of connection ? connectionLines(connection, ctx.out.locale) : []) ctx.out.print(line);
    renderProviderCheck(ctx.out, result);
  });
  return result.ready ? ExitCode.ok : ExitCode.failure;
}

function renderProviderCheck(out: Output, result: ProviderCheck): void {
  const s = out.style;
  out.print(
    out.table(
      ['check', 'result', 'detail'],
      result.steps.map((step) => [step.name, step.unverified ? s.yellow('unverified') : step.ok ? s.green('ok') : step.required ? s.red('FAILED') : s.yellow('warning'), step.detail]),
    ),
  );
  const pins = Object.entries(result.recommend);
  if (pins.length) {
    out.print('\nPin what was learnt, so nothing has to be guessed again:');
    for (const [name, value] of pins) out.print(`  paybatch config set ${name} ${value}`);
  }
  const unverified = result.steps.filter((step) => step.unverified).map((step) => step.name);
  if (!result.ready) out.print('\n✗ Payments cannot work yet: see FAILED above.');
  else if (unverified.length) out.print(`\n✓ Everything the API can show works; not verifiable through it: ${unverified.join(', ')} (see above).`);
  else out.print('\n✓ Everything payments need works.');
}
