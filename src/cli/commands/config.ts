import { text } from 'node:stream/consumers';
import type { RegisterCommands } from '../command.js';
import type { Context } from '../context.js';

interface InitFlags {
  baseUrl?: string;
  tokenUrl?: string;
  clientId?: string;
  pixAmountUnit?: string;
  maxItemAmount?: string;
  maxBatchTotal?: string;
  receiptsDir?: string;
  sandbox: boolean;
}

export const registerConfig: RegisterCommands = (program, runner) => {
  const config = program
    .command('config')
    .description('profiles in $XDG_CONFIG_HOME/paybatch/config.json (mode 0600); every setting can also come from PAYBATCH_* variables');

  config
    .command('show')
    .description('the settings in force, where each comes from, and its environment variable (secrets masked)')
    .action(
      runner.action(async (ctx) => {
        const { SETTING_NAMES, SETTINGS, displayValue, envName } = await import('../../config/settings.js');
        const profile = await ctx.profile();
        const rows = SETTING_NAMES.map((name) => ({
          name,
          value: displayValue(name, profile.settings[name]),
          source: profile.sources[name] ?? 'default',
          env: envName(name),
          describe: SETTINGS[name].describe,
        }));
        ctx.out.result(
          { profile: profile.name, configFile: profile.configPath, embeddedSandbox: profile.embeddedSandbox, receiptsDir: profile.receiptsDir, settings: rows },
          () => {
            ctx.out.print(`Profile "${profile.name}" (${profile.configPath})${profile.embeddedSandbox ? ' — no baseUrl: the embedded SANDBOX is used' : ''}`);
            ctx.out.print(ctx.out.table(['setting', 'value', 'from', 'variable'], rows.map((r) => [r.name, r.value, r.source, r.env])));
          },
        );
      }),
    );

  config
    .command('set')
    .description('set one setting of the profile; secrets are read from standard input or a hidden prompt, never from the command line')
    .argument('<name>', 'setting name, e.g. baseUrl, maxItemAmount, apiKey')
    .argument('[value]', 'the value (not allowed for secrets)')
    .addHelpText('after', '\nExamples:\n  paybatch config set baseUrl https://api.provider.example\n  paybatch config set maxItemAmount 10.000,00\n  printf %s "$KEY" | paybatch config set apiKey')
    .action(
      runner.action(async (ctx, _flags, [name, value]) => {
        const { isSecret, isSettingName, displayValue } = await import('../../config/settings.js');
        const { parseSetting, updateProfile } = await import('../../config/edit-config.js');
        const { UsageError } = await import('../../errors.js');
        const profile = await profileToEdit(ctx);
        if (isSettingName(name!) && isSecret(name) && value !== undefined) {
          throw new UsageError(`${name} is a secret: it is never taken from the command line (it would stay in the shell history and the process list).`, {
            hint: `Pipe it in (printf %s "$SECRET" | paybatch config set ${name}) or run the command on a terminal to be asked.`,
          });
        }
        const raw = value ?? (await readSecretOrValue(ctx, name!));
        const parsed = parseSetting(name!, raw);
        updateProfile(profile.configPath, profile.name, { [parsed.name]: parsed.value });
        ctx.out.result({ profile: profile.name, name: parsed.name, value: displayValue(parsed.name, parsed.value) }, () =>
          ctx.out.print(`✓ ${parsed.name} = ${displayValue(parsed.name, parsed.value)} (profile "${profile.name}")`),
        );
      }),
    );

  config
    .command('unset')
    .description('remove one setting from the profile (the default or the environment applies again)')
    .argument('<name>', 'setting name')
    .action(
      runner.action(async (ctx, _flags, [name]) => {
        const { isSettingName, SETTING_NAMES } = await import('../../config/settings.js');
        const { updateProfile } = await import('../../config/edit-config.js');
        const { ConfigError } = await import('../../errors.js');
        if (!isSettingName(name!)) throw new ConfigError(`Unknown setting "${name}".`, { hint: `Settings: ${SETTING_NAMES.join(', ')}.` });
        const profile = await profileToEdit(ctx);
        updateProfile(profile.configPath, profile.name, { [name]: undefined });
        ctx.out.result({ profile: profile.name, name, removed: true }, () => ctx.out.print(`✓ ${name} removed from profile "${profile.name}"`));
      }),
    );

  config
    .command('init')
    .description('create or update a profile: asks on a terminal; in scripts pass flags (secrets then come from PAYBATCH_* variables or `config set`)')
    .option('--base-url <url>', 'provider API base URL')
    .option('--token-url <url>', 'OAuth 2.0 token URL')
    .option('--client-id <id>', 'OAuth 2.0 client id')
    .option('--pix-amount-unit <unit>', 'cents or reais')
    .option('--max-item-amount <R$>', 'largest amount of one item')
    .option('--max-batch-total <R$>', 'largest total of one batch')
    .option('--receipts-dir <dir>', 'folder for receipts')
    .option('--sandbox', 'a profile that uses the embedded sandbox (no base URL)', false)
    .action(
      runner.action<InitFlags>(async (ctx, flags) => {
        const { canPrompt } = await import('../io.js');
        const { parseSetting, updateProfile } = await import('../../config/edit-config.js');
        const { displayValue, SETTINGS } = await import('../../config/settings.js');
        const { configPath: path, name } = await profileToEdit(ctx);
        const interactive = canPrompt(ctx.io) && !ctx.out.json;
        const given: [string, string | undefined][] = [
          ['baseUrl', flags.sandbox ? undefined : flags.baseUrl],
          ['tokenUrl', flags.sandbox ? undefined : flags.tokenUrl],
          ['clientId', flags.sandbox ? undefined : flags.clientId],
          ['pixAmountUnit', flags.pixAmountUnit],
          ['maxItemAmount', flags.maxItemAmount],
          ['maxBatchTotal', flags.maxBatchTotal],
          ['receiptsDir', flags.receiptsDir],
        ];
        const changes: Record<string, unknown> = {};
        for (const [setting, value] of given) {
          let raw = value;
          if (raw === undefined && interactive && !(flags.sandbox && ['baseUrl', 'tokenUrl', 'clientId'].includes(setting))) {
            raw = await ctx.prompter.input(`${setting} — ${SETTINGS[setting as 'baseUrl'].describe} (empty to skip)`, {
              validate: (v) => {
                const r = v === '' ? null : SETTINGS[setting as 'baseUrl'].parse(v);
                return !r || r.ok || r.error;
              },
            });
          }
          if (raw) {
            const p = parseSetting(setting, raw);
            changes[p.name] = p.value;
          }
        }
        if (interactive && changes.baseUrl) {
          for (const secret of ['apiKey', 'clientSecret', 'webhookSecret'] as const) {
            const raw = await ctx.prompter.password(`${secret} — ${SETTINGS[secret].describe} (empty to skip)`);
            if (raw) changes[secret] = parseSetting(secret, raw).value;
          }
        }
        updateProfile(path, name, changes as never);
        const shown = Object.entries(changes).map(([k, v]) => ({ name: k, value: displayValue(k as 'baseUrl', v) }));
        ctx.out.result({ profile: name, configFile: path, set: shown }, () => {
          ctx.out.print(`✓ Profile "${name}" written to ${path} (mode 0600).`);
          for (const s of shown) ctx.out.print(`  ${s.name} = ${s.value}`);
          if (!changes.baseUrl) ctx.out.print('  No base URL: this profile uses the embedded SANDBOX.');
        });
      }),
    );
};

/** The profile that `config set|unset|init` change: it need not exist yet. */
async function profileToEdit(ctx: Context): Promise<{ name: string; configPath: string }> {
  const { configFile } = await import('../../config/paths.js');
  return { name: ctx.globals.profile ?? 'default', configPath: configFile(ctx.io.env) };
}

/** A value from piped standard input, or from a hidden prompt on a terminal. */
async function readSecretOrValue(ctx: Context, name: string): Promise<string> {
  if (!ctx.io.stdinIsTTY) return (await text(ctx.io.stdin)).replace(/\r?\n$/, '');
  return ctx.prompter.password(`${name}:`);
}
