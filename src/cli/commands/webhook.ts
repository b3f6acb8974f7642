import { UsageError } from '../../errors.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { optionalText } from '../raw-input.js';

export interface WebhookSubscribeOptions {
  /** Public URL of the daemon's receiver. */
  readonly url: string;
}

export const registerWebhook: RegisterCommands = (program, runner) => {
  const webhook = program.command('webhook').description("the provider's event notifications");
  webhook
    .command('subscribe')
    .description('register the URL the provider calls with events (endpoint 14), with the profile\'s webhook secret')
    .requiredOption('--url <url>', 'public URL of the daemon\'s receiver, ending in /webhooks')
    .addHelpText('after', '\nExamples:\n  paybatch webhook subscribe --url https://pay.example.com/webhooks\n  paybatch --profile prod webhook subscribe --url https://pay.example.com/webhooks --json')
    .action(runner.action(parseWebhookSubscribeOptions, runWebhookSubscribe));
};

export function parseWebhookSubscribeOptions(raw: RawInput): WebhookSubscribeOptions {
  const url = optionalText(raw, 'url') ?? '';
  if (!/^https?:\/\/\S+$/.test(url)) throw new UsageError(`--url must be an http(s) URL, not "${url}".`);
  return { url };
}

export async function runWebhookSubscribe(ctx: Context, opts: WebhookSubscribeOptions): Promise<void> {
  const { ConfigError } = await import('../../errors.js');
  const profile = await ctx.profile();
  const secret = profile.settings.webhookSecret;
  if (!secret) {
    throw new ConfigError('There is no webhook secret to give the provider.', {
      hint: "Set it first with 'paybatch config set webhookSecret' (read from standard input or a hidden prompt) or PAYBATCH_WEBHOOK_SECRET.",
    });
  }
  const answer = await (await ctx.provider()).subscribe(opts.url, secret);
  ctx.out.result({ url: opts.url, subscribed: true, provider: answer }, () => ctx.out.print(`✓ The provider will send events to ${opts.url}.`));
}
