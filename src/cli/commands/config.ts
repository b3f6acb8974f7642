import { text } from 'node:stream/consumers';
import { noOptions, type RawInput, type RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { configHelp } from '../messages/help/config.js';
import { configMessages, type InitSetting } from '../messages/config.js';
import type { Profile } from '../../config/profile.js';
import type { SettingName } from '../../config/settings.js';
import type { ConnectionFacts } from '../provider-reach.js';
import type { Output } from '../output.js';
import { arg, flag, optionalText } from '../raw-input.js';

export interface ConfigSetOptions {
  /** A setting name (checked against the settings when run). */
  readonly name: string;
  /** Absent: read from standard input or a hidden prompt (always so for secrets). */
  readonly value?: string;
}

export interface ConfigUnsetOptions {
  readonly name: string;
}

export interface ConfigInitOptions {
  readonly baseUrl?: string;
  readonly tokenUrl?: string;
  readonly clientId?: string;
  readonly pixAmountUnit?: string;
  readonly maxItemAmount?: string;
  readonly maxBatchTotal?: string;
  readonly receiptsDir?: string;
  readonly webhookVerification?: string;
  /** A profile on the embedded sandbox: no base URL, token URL or client id. */
  readonly sandbox: boolean;
}

export const registerConfig: RegisterCommands = (program, runner, locale) => {
  const h = configHelp[locale];
  const config = program.command('config').description(h.group);

  config
    .command('show')
    .description(h.show.description)
    .addHelpText('after', h.show.examples)
    .action(runner.action(noOptions, runConfigShow));

  config
    .command('set')
    .description(h.set.description)
    .argument('<name>', h.set.name)
    .argument('[value]', h.set.value)
    .addHelpText('after', h.set.examples)
    .action(runner.action(parseConfigSetOptions, runConfigSet));

  config
    .command('unset')
    .description(h.unset.description)
    .argument('<name>', h.unset.name)
    .action(runner.action(parseConfigUnsetOptions, runConfigUnset));

  config
    .command('init')
    .description(h.init.description)
    .option('--base-url <url>', h.init.baseUrl)
    .option('--token-url <url>', h.init.tokenUrl)
    .option('--client-id <id>', h.init.clientId)
    .option('--pix-amount-unit <unit>', h.init.pixAmountUnit)
    .option('--max-item-amount <R$>', h.init.maxItemAmount)
    .option('--max-batch-total <R$>', h.init.maxBatchTotal)
    .option('--receipts-dir <dir>', h.init.receiptsDir)
    .option('--webhook-verification <method>', h.init.webhookVerification)
    .option('--sandbox', h.init.sandbox, false)
    .addHelpText('after', h.init.examples)
    .action(runner.action(parseConfigInitOptions, runConfigInit));
};

export function parseConfigSetOptions(raw: RawInput): ConfigSetOptions {
  const value = raw.args[1];
  return { name: arg(raw, 0, 'name'), ...(value === undefined ? {} : { value }) };
}

export function parseConfigUnsetOptions(raw: RawInput): ConfigUnsetOptions {
  return { name: arg(raw, 0, 'name') };
}

export function parseConfigInitOptions(raw: RawInput): ConfigInitOptions {
  const given = (['baseUrl', 'tokenUrl', 'clientId', 'pixAmountUnit', 'maxItemAmount', 'maxBatchTotal', 'receiptsDir', 'webhookVerification'] as const).flatMap((name) => {
    const v = optionalText(raw, name);
    return v === undefined ? [] : [[name, v] as const];
  });
  return { ...Object.fromEntries(given), sandbox: flag(raw, 'sandbox') };
}

export async function runConfigShow(ctx: Context): Promise<void> {
  const { SETTING_NAMES, SETTINGS, displayValue, envName } = await import('../../config/settings.js');
  const profile = await ctx.profile();
  const rows = SETTING_NAMES.map((name) => ({
    name,
    value: displayValue(name, profile.settings[name]),
    source: profile.sources[name] ?? 'default',
    env: envName(name),
    describe: SETTINGS[name].describe,
  }));
  const connection = await connectionOf(ctx, profile);
  const doc = { profile: profile.name, configFile: profile.configPath, embeddedSandbox: profile.embeddedSandbox, receiptsDir: profile.receiptsDir, settings: rows, connection };
  const { connectionLines } = await import('../provider-reach.js');
  ctx.out.result(doc, () => {
    renderSettings(ctx.out, doc);
    if (connection === null) return;
    if ('problem' in connection) ctx.out.warn(connection.problem);
    else for (const line of connectionLines(connection, ctx.out.locale)) ctx.out.print(line);
  });
}

/**
 * The profile's certificate and proxy as `provider check` shows them; a certificate that cannot be used is told,
 * not thrown (the settings are still shown). Null for the embedded sandbox.
 */
async function connectionOf(ctx: Context, profile: Profile): Promise<ConnectionFacts | { problem: string } | null> {
  if (profile.embeddedSandbox) return null;
  const { reachOf, connectionFacts } = await import('../provider-reach.js');
  const { PaybatchError } = await import('../../errors.js');
  try {
    return connectionFacts(await reachOf(ctx, profile), profile.settings.baseUrl, ctx.now());
  } catch (e) {
    if (!(e instanceof PaybatchError)) throw e;
    return { problem: e.hint ? `${e.message} ${e.hint}` : e.message };
  }
}

export async function runConfigSet(ctx: Context, opts: ConfigSetOptions): Promise<void> {
  const { isSecret, isSettingName, displayValue } = await import('../../config/settings.js');
  const { parseSetting, updateProfile } = await import('../../config/edit-config.js');
  const { UsageError } = await import('../../errors.js');
  const { name, value } = opts;
  const profile = await profileToEdit(ctx);
  if (isSettingName(name) && isSecret(name) && value !== undefined) {
    throw new UsageError(`${name} is a secret: it is never taken from the command line (it would stay in the shell history and the process list).`, {
      hint: `Pipe it in (printf %s "$SECRET" | paybatch config set ${name}) or run the command on a terminal to be asked.`,
      reason: { code: 'secret_on_command_line', setting: name },
    });
  }
  const raw = value ?? (await readSecretOrValue(ctx, name));
  const parsed = parseSetting(name, raw);
  updateProfile(profile.configPath, profile.name, { [parsed.name]: parsed.value });
  const shown = displayValue(parsed.name, parsed.value);
  const words = configMessages[await ctx.locale()];
  ctx.out.result({ profile: profile.name, name: parsed.name, value: shown }, () => ctx.out.print(words.set(parsed.name, shown, profile.name)));
}

export async function runConfigUnset(ctx: Context, opts: ConfigUnsetOptions): Promise<void> {
  const { isSettingName } = await import('../../config/settings.js');
  const { unknownSetting, updateProfile } = await import('../../config/edit-config.js');
  const { name } = opts;
  if (!isSettingName(name)) throw unknownSetting(name);
  const profile = await profileToEdit(ctx);
  updateProfile(profile.configPath, profile.name, { [name]: undefined });
  const words = configMessages[await ctx.locale()];
  ctx.out.result({ profile: profile.name, name, removed: true }, () => ctx.out.print(words.removed(name, profile.name)));
}

/** Settings of a provider connection: a sandbox profile has none. */
const CONNECTION = ['baseUrl', 'tokenUrl', 'clientId', 'webhookVerification'] as const;

export async function runConfigInit(ctx: Context, opts: ConfigInitOptions): Promise<void> {
  const { canPrompt } = await import('../io.js');
  const { parseSetting, updateProfile } = await import('../../config/edit-config.js');
  const { readConfigFile } = await import('../../config/config-file.js');
  const { configFile } = await import('../../config/paths.js');
  const { displayValue, DEFAULT_SETTINGS, SETTINGS, settingRule } = await import('../../config/settings.js');
  const interactive = canPrompt(ctx.io) && !ctx.out.json;
  const path = configFile(ctx.io.env);
  // The profile may not exist yet: questions are in the environment's language.
  const locale = ctx.out.locale;
  const words = configMessages[locale];
  // A refused answer is said by the setting's rule outside English (the setting's own error is English).
  const sayRule = locale === 'en' ? null : (await import('../messages/error-reasons.js')).settingRuleText;
  const refusal = (setting: SettingName, english: string): string => (sayRule && locale !== 'en' ? sayRule(settingRule(setting), locale) : english);
  const name =
    ctx.globals.profile ??
    (interactive
      ? await ctx.prompter.input(words.profileQuestion, {
          default: 'default',
          validate: (v) => /^[A-Za-z0-9_-]+$/.test(v.trim()) || words.profileRule,
        })
      : 'default'
    ).trim();
  const current: Record<string, unknown> = { ...readConfigFile(path).profiles[name] };
  const given: [InitSetting, string | undefined][] = [
    ['baseUrl', opts.baseUrl],
    ['tokenUrl', opts.tokenUrl],
    ['clientId', opts.clientId],
    ['webhookVerification', opts.webhookVerification],
    ['pixAmountUnit', opts.pixAmountUnit],
    ['maxItemAmount', opts.maxItemAmount],
    ['maxBatchTotal', opts.maxBatchTotal],
    ['receiptsDir', opts.receiptsDir],
  ];
  const changes: Record<string, unknown> = {};
  for (const [setting, value] of given) {
    const connection = (CONNECTION as readonly string[]).includes(setting);
    if (opts.sandbox && connection) {
      if (current[setting] !== undefined) changes[setting] = undefined;
      continue;
    }
    let raw = value;
    if (raw === undefined && interactive) {
      // Enter keeps what is there: the profile's current value, else the default (neither is written again).
      const now = current[setting] === undefined ? undefined : displayValue(setting, current[setting]);
      const fallback = DEFAULT_SETTINGS[setting] === undefined ? undefined : displayValue(setting, DEFAULT_SETTINGS[setting]);
      const keep = now ?? fallback;
      const enter = now !== undefined ? ({ keeps: 'now', value: now } as const) : fallback !== undefined ? ({ keeps: 'default', value: fallback } as const) : ({ keeps: 'nothing' } as const);
      raw = await ctx.prompter.input(words.question(setting, SETTINGS[setting].describe, enter), {
        ...(keep === undefined ? {} : { default: keep }),
        validate: (v) => {
          const r = v === '' || v === keep ? null : SETTINGS[setting].parse(v);
          return !r || r.ok || refusal(setting, r.error);
        },
      });
      if (raw === keep) raw = undefined;
    }
    if (raw) {
      const p = parseSetting(setting, raw);
      changes[p.name] = p.value;
    }
  }
  const hasBaseUrl = Boolean('baseUrl' in changes ? changes.baseUrl : current.baseUrl);
  if (interactive && hasBaseUrl) {
    for (const secret of ['apiKey', 'clientSecret', 'webhookSecret'] as const) {
      const enter = current[secret] === undefined ? ({ keeps: 'nothing' } as const) : ({ keeps: 'secret' } as const);
      const raw = await ctx.prompter.password(words.question(secret, SETTINGS[secret].describe, enter));
      if (raw) changes[secret] = parseSetting(secret, raw).value;
    }
  }
  updateProfile(path, name, changes as never);
  const entries = Object.entries(changes);
  const shown = entries.filter(([, v]) => v !== undefined).map(([k, v]) => ({ name: k, value: displayValue(k as SettingName, v) }));
  const removed = entries.filter(([, v]) => v === undefined).map(([k]) => k);
  const doc = { profile: name, configFile: path, set: shown, removed, embeddedSandbox: !hasBaseUrl };
  ctx.out.result(doc, () => renderProfileWritten(ctx.out, doc));
}

interface SettingsDoc {
  readonly profile: string;
  readonly configFile: string;
  readonly embeddedSandbox: boolean;
  readonly settings: readonly { name: string; value: string; source: string; env: string }[];
}

function renderSettings(out: Output, doc: SettingsDoc): void {
  const w = configMessages[out.locale];
  out.print(w.profileHeading(doc.profile, doc.configFile, doc.embeddedSandbox));
  out.print(out.table(w.showHead, doc.settings.map((r) => [r.name, r.value, w.source(r.source), r.env])));
}

interface ProfileWrittenDoc {
  readonly profile: string;
  readonly configFile: string;
  readonly set: readonly { name: string; value: string }[];
  readonly removed: readonly string[];
  readonly embeddedSandbox: boolean;
}

function renderProfileWritten(out: Output, doc: ProfileWrittenDoc): void {
  const w = configMessages[out.locale];
  out.print(w.written(doc.profile, doc.configFile));
  for (const s of doc.set) out.print(`  ${s.name} = ${s.value}`);
  for (const name of doc.removed) out.print(w.removedLine(name));
  if (doc.embeddedSandbox) out.print(w.usesSandbox);
  else if (!doc.set.length && !doc.removed.length) out.print(w.nothingChanged);
}

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
