import { Option } from 'commander';
import { parseDuration } from '../../domain/duration.js';
import { ExitCode, UsageError } from '../../errors.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { daemonHelp } from '../messages/help/daemon.js';
import { flag, optionalChoice, optionalText, text } from '../raw-input.js';
import { DEFAULT_UI_LISTEN, parseListen, type ListenAddress } from './ui.js';

export interface DaemonCommandOptions {
  /** Address of the webhook receiver. */
  readonly listen: { readonly host: string; readonly port: number };
  /** The URL the provider should call, when given. */
  readonly publicUrl?: string;
  readonly once: boolean;
  readonly intervalSeconds: number;
  readonly logFormat: 'json' | 'pretty';
  readonly untilSettled: boolean;
  /** Give up after this long; null: never. */
  readonly timeoutSeconds: number | null;
  /** Where to serve the dashboard beside the daemon (`--ui`), on loopback. */
  readonly ui?: ListenAddress;
}

export const registerDaemon: RegisterCommands = (program, runner, locale) => {
  const h = daemonHelp[locale];
  program
    .command('daemon')
    .description(h.description)
    .option('--listen <host:port>', h.listen, '127.0.0.1:8787')
    .option('--public-url <url>', h.publicUrl)
    .option('--once', h.once, false)
    .option('--interval <seconds>', h.interval, '30')
    .addOption(new Option('--log-format <format>', h.logFormat).choices(['json', 'pretty']).default('pretty'))
    .option('--until-settled', h.untilSettled, false)
    .option('--timeout <duration>', h.timeout)
    .option('--ui', h.ui, false)
    .option('--ui-listen <host:port>', h.uiListen(DEFAULT_UI_LISTEN))
    .addHelpText('after', h.examples)
    .action(runner.action(parseDaemonOptions, runDaemonCommand));
};

export function parseDaemonOptions(raw: RawInput): DaemonCommandOptions {
  const listenText = text(raw, 'listen', '127.0.0.1:8787');
  const listen = /^([^:]+):(\d{1,5})$/.exec(listenText);
  if (!listen) throw new UsageError(`--listen must be host:port, not "${listenText}".`, { reason: { code: 'listen_invalid', option: '--listen', value: listenText } });
  const interval = Number(text(raw, 'interval', '30'));
  if (!Number.isFinite(interval) || interval <= 0) throw new UsageError('--interval must be a number of seconds above zero.', { reason: { code: 'interval_invalid' } });
  let timeoutSeconds: number | null = null;
  const timeout = optionalText(raw, 'timeout');
  if (timeout) {
    const t = parseDuration(timeout);
    if (!t.ok) throw new UsageError(`--timeout: ${t.error}`, { reason: { code: 'timeout_invalid', value: timeout } });
    timeoutSeconds = t.value;
  }
  const publicUrl = optionalText(raw, 'publicUrl');
  const uiListen = optionalText(raw, 'uiListen');
  const ui = flag(raw, 'ui');
  if (uiListen !== undefined && !ui) throw new UsageError('--ui-listen goes with --ui.', { reason: { code: 'ui_listen_without_ui' } });
  if (ui && flag(raw, 'once')) throw new UsageError('--ui needs a daemon that keeps running: leave out --once (or run paybatch ui apart).', { reason: { code: 'ui_with_once' } });
  return {
    listen: { host: listen[1]!, port: Number(listen[2]) },
    ...(publicUrl === undefined ? {} : { publicUrl }),
    once: flag(raw, 'once'),
    intervalSeconds: interval,
    logFormat: optionalChoice(raw, 'logFormat', ['json', 'pretty'] as const) ?? 'pretty',
    untilSettled: flag(raw, 'untilSettled'),
    timeoutSeconds,
    ...(ui ? { ui: parseListen(uiListen ?? DEFAULT_UI_LISTEN, '--ui-listen') } : {}),
  };
}

export async function runDaemonCommand(ctx: Context, opts: DaemonCommandOptions): Promise<number> {
  const { runDaemon, outcomesUnknown } = await import('../../daemon/run-daemon.js');
  const { daemonDeps } = await import('../daemon-deps.js');
  const { daemonLogger } = await import('../daemon-logger.js');
  const { randomBytes } = await import('node:crypto');
  const { ConfigError } = await import('../../errors.js');
  const { parseWebhookMethodSetting } = await import('../../domain/webhook-proof.js');
  const profile = await ctx.profile();
  const s = profile.settings;
  // Values from the config file are stored unparsed: an old `shared-secret` still has to mean `header`.
  const method = parseWebhookMethodSetting(String(s.webhookVerification));
  if (!method.ok) {
    throw new ConfigError(`webhookVerification: "${String(s.webhookVerification)}" ${method.error}.`, {
      hint: "Set it with 'paybatch config set webhookVerification auto'.",
      reason: { code: 'webhook_verification_invalid', value: String(s.webhookVerification) },
    });
  }
  const { ReceiverListenError } = await import('../../daemon/webhook-receiver.js');
  // A line's `msg` is English, what log shippers read; the human format says its event in the run's language.
  const { daemonMessages } = await import('../messages/daemon.js');
  const words = daemonMessages.en;
  const log = daemonLogger(ctx.out, opts.logFormat, (line) => ctx.io.stderr.write(`${line}\n`));
  // The embedded sandbox is this process's own: a fresh secret each run is enough and never leaves it.
  const secret = s.webhookSecret ?? (profile.embeddedSandbox ? randomBytes(24).toString('hex') : undefined);
  // Without a secret no delivery can be verified: the daemon follows payments by polling the provider alone.
  if (!opts.once && !secret) {
    log({ level: 'warn', event: 'no_webhook_secret', msg: words.noSecret });
  }
  const controller = new AbortController();
  const stop = () => {
    log({ level: 'info', event: 'stopping', msg: words.stopping });
    controller.abort();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let dashboard: { url: string; close(): Promise<void> } | undefined;
  try {
    const { DAEMON_STATEMENT_TIMEOUT_MS } = await import('../../daemon/run-daemon.js');
    const ledger = await ctx.ledger({ statementTimeoutMs: DAEMON_STATEMENT_TIMEOUT_MS, logsSkew: true });
    if (opts.ui) {
      dashboard = await (await import('./ui.js')).startUi(ctx, { listen: opts.ui, allowRemote: false });
      log({ level: 'info', event: 'dashboard_listening', msg: `dashboard: ${dashboard.url}`, url: dashboard.url });
    }
    const provider = await ctx.provider();
    const certificate = profile.embeddedSandbox ? null : (await (await import('../provider-reach.js')).reachOf(ctx, profile)).tls?.certificate ?? null;
    const deps = await daemonDeps({ ledger, provider, now: ctx.now, clock: ctx.clock, profile, log, signal: controller.signal, alerts: 'channels', certificate });
    const result = await runDaemon(deps, {
      once: opts.once,
      intervalSeconds: opts.intervalSeconds,
      listen: opts.listen,
      subscribeUrl: opts.publicUrl ?? (profile.embeddedSandbox ? 'auto' : null),
      webhook: secret ? { method: method.value, secret, header: s.webhookSecretHeader, amountUnit: s.eventAmountUnit } : null,
      untilSettled: opts.untilSettled,
      timeoutSeconds: opts.timeoutSeconds,
    }).catch(async (error: unknown) => {
      // The --listen address is taken (or privileged, or not this machine's): a usage error, as for paybatch ui.
      if (!(error instanceof ReceiverListenError)) throw error;
      const w = daemonMessages[ctx.out.json ? 'en' : await ctx.locale()];
      throw new UsageError(w.listenFailed(error.address, error.code), { hint: w.listenHint, cause: error });
    });
    const p = result.last;
    ctx.out.result({ passes: result.passes, timedOut: result.timedOut, last: p }, () => undefined);
    if (!p) return ExitCode.ok;
    // A payment whose outcome is unknown is not done, whatever else settled: a script must not take it as paid.
    const attention = p.openAlerts > 0 || p.errors.length > 0 || result.timedOut || outcomesUnknown(p);
    return opts.once || opts.untilSettled ? (attention ? ExitCode.attention : ExitCode.ok) : ExitCode.ok;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await dashboard?.close();
  }
}
