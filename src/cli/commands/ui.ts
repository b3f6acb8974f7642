import { ExitCode, UsageError } from '../../errors.js';
import { statementCompany } from '../statement-company.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { uiHelp } from '../messages/help/ui.js';
import { flag, text } from '../raw-input.js';

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

export interface UiOptions {
  readonly listen: ListenAddress;
  /** Listen on an address other than loopback (plain HTTP: the token travels in the clear). */
  readonly allowRemote: boolean;
}

export const DEFAULT_UI_LISTEN = '127.0.0.1:8788';

export const registerUi: RegisterCommands = (program, runner, locale) => {
  const h = uiHelp[locale];
  program
    .command('ui')
    .description(h.description)
    .option('--listen <host:port>', h.listen, DEFAULT_UI_LISTEN)
    .option('--allow-remote', h.allowRemote, false)
    .addHelpText('after', h.examples)
    .action(runner.action(parseUiOptions, runUi));
};

export function parseUiOptions(raw: RawInput): UiOptions {
  return { listen: parseListen(text(raw, 'listen', DEFAULT_UI_LISTEN), '--listen'), allowRemote: flag(raw, 'allowRemote') };
}

/** `host:port`, `[::1]:port`. */
export function parseListen(value: string, option: string): ListenAddress {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(value.trim());
  const port = Number(m?.[3]);
  if (!m || port > 65535) throw new UsageError(`${option} must be host:port (e.g. 127.0.0.1:8788), not "${value}".`, { reason: { code: 'listen_invalid', option, value } });
  return { host: (m[1] ?? m[2])!, port };
}

export async function runUi(ctx: Context, opts: UiOptions): Promise<number> {
  const running = await startUi(ctx, opts);
  const { uiMessages } = await import('../messages/ui.js');
  const words = uiMessages[await ctx.locale()];
  ctx.out.result({ url: running.url, listen: running.listen }, () => ctx.out.print(words.started(running.url)));
  await nextSignal();
  await running.close();
  return ExitCode.ok;
}

/** Starts the dashboard over the context's ledger, in the profile's language; also used by `daemon --ui`. */
export async function startUi(ctx: Context, opts: UiOptions) {
  const { startDashboard } = await import('../../ui/dashboard-server.js');
  const { approvalGate } = await import('../../engine/approvals/index.js');
  const { explainApprovalRefusal } = await import('../messages/approval-words.js');
  const { storedAlertWords } = await import('../../alerts/alert.js');
  const { lineageText } = await import('../../reports/lineage-words.js');
  const ledger = await ctx.ledger();
  const locale = await ctx.locale();
  const profile = await ctx.profile();
  const s = profile.settings;
  const running = await startDashboard({
    ledger,
    locale,
    alertWords: (a) => storedAlertWords(a, locale),
    reports: {
      lineageText,
      // PDF and XLSX writers load when a statement is first asked for, not at every start.
      renderStatement: async (statement, format, words) => (await import('../../reports/statement-renderer.js')).statementRenderer(format, words).render(statement),
    },
    company: statementCompany(s),
    approvals: approvalGate(profile, explainApprovalRefusal(locale)),
    profile: profile.name,
    host: opts.listen.host,
    port: opts.listen.port,
    allowRemote: opts.allowRemote,
    now: ctx.now,
    log: (message) => ctx.out.warn(message),
  });
  if (running.remote) {
    const { uiMessages } = await import('../messages/ui.js');
    ctx.out.warn(uiMessages[locale].plainHttp(running.listen));
  }
  return running;
}

/** Resolves at the first SIGINT or SIGTERM. */
function nextSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
