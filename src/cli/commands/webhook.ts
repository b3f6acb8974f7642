import { UsageError } from '../../errors.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { webhookHelp } from '../messages/help/webhook.js';
import { optionalText } from '../raw-input.js';

export interface WebhookSubscribeOptions {
  /** Public URL of the daemon's receiver. */
  readonly url: string;
}

export const registerWebhook: RegisterCommands = (program, runner, locale) => {
  const h = webhookHelp[locale];
  const webhook = program.command('webhook').description(h.group);
  webhook
    .command('subscribe')
    .description(h.subscribe.description)
    .requiredOption('--url <url>', h.subscribe.url)
    .addHelpText('after', h.subscribe.examples)
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
