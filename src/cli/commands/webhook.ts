import type { RegisterCommands } from '../command.js';

export const registerWebhook: RegisterCommands = (program, runner) => {
  const webhook = program.command('webhook').description("the provider's event notifications");
  webhook
    .command('subscribe')
    .description('register the URL the provider calls with events (endpoint 14), with the profile\'s webhook secret')
    .requiredOption('--url <url>', 'public URL of the daemon\'s receiver, ending in /webhooks')
    .action(
      runner.action<{ url: string }>(async (ctx, flags) => {
        const { ConfigError, UsageError } = await import('../../errors.js');
        if (!/^https?:\/\/\S+$/.test(flags.url)) throw new UsageError(`--url must be an http(s) URL, not "${flags.url}".`);
        const profile = await ctx.profile();
        const secret = profile.settings.webhookSecret;
        if (!secret) {
          throw new ConfigError('There is no webhook secret to give the provider.', {
            hint: "Set it first with 'paybatch config set webhookSecret' (read from standard input or a hidden prompt) or PAYBATCH_WEBHOOK_SECRET.",
          });
        }
        const answer = await (await ctx.provider()).subscribe(flags.url, secret);
        ctx.out.result({ url: flags.url, subscribed: true, provider: answer }, () => ctx.out.print(`✓ The provider will send events to ${flags.url}.`));
      }),
    );
};
