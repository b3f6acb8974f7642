import type { ProviderCheck } from '../../engine/provider-check/index.js';
import { ExitCode } from '../../errors.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { providerHelp } from '../messages/help/provider.js';
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

export const registerProvider: RegisterCommands = (program, runner, locale) => {
  const h = providerHelp[locale];
  const provider = program.command('provider').description(h.group);
  provider
    .command('check')
    .description(h.check.description)
    .option('--key <key>', h.check.key, CHECK_KEY)
    .option('--bill <line>', h.check.bill)
    .option('--public-url <url>', h.check.publicUrl)
    .addHelpText('after', h.check.examples)
    .action(runner.action(parseProviderCheckOptions, runProviderCheck));
};

export function parseProviderCheckOptions(raw: RawInput): ProviderCheckOptions {
  const bill = optionalText(raw, 'bill');
  const publicUrl = optionalText(raw, 'publicUrl');
  return { key: text(raw, 'key', CHECK_KEY), ...(bill === undefined ? {} : { bill }), ...(publicUrl === undefined ? {} : { publicUrl }) };
}

export async function runProviderCheck(ctx: Context, opts: ProviderCheckOptions): Promise<number> {
  const { checkProvider } = await import('../../engine/provider-check/index.js');
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
