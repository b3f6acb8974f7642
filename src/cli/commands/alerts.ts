import { ExitCode, UsageError } from '../../errors.js';
import type { AlertItem } from '../../alerts/alert.js';
import type { Locale } from '../../words/locale.js';
import type { StoredAlert } from '../../engine/alerts/index.js';
import type { AlertsMessages } from '../messages/alerts.js';
import { alertsHelp } from '../messages/help/alerts.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import type { Output } from '../output.js';
import { flag } from '../raw-input.js';

export interface AlertsListOptions {
  /** Acknowledged alerts too. */
  readonly all: boolean;
}

export interface AlertsAckOptions {
  /** Alert numbers, or every open alert. */
  readonly ids: readonly number[] | 'all';
}

export const registerAlerts: RegisterCommands = (program, runner, locale) => {
  const h = alertsHelp[locale];
  const alerts = program.command('alerts').description(h.group);

  alerts
    .command('list')
    .description(h.list.description)
    .option('--all', h.list.all, false)
    .addHelpText('after', h.list.examples)
    .action(runner.action(parseAlertsListOptions, runAlertsList));

  alerts
    .command('ack')
    .description(h.ack.description)
    .argument('<id...>', h.ack.ids)
    .addHelpText('after', h.ack.examples)
    .action(runner.action(parseAlertsAckOptions, runAlertsAck));
};

export function parseAlertsListOptions(raw: RawInput): AlertsListOptions {
  return { all: flag(raw, 'all') };
}

export function parseAlertsAckOptions(raw: RawInput): AlertsAckOptions {
  if (raw.args.length === 1 && raw.args[0] === 'all') return { ids: 'all' };
  const ids = raw.args.map(Number);
  if (!ids.length || ids.some((n) => !Number.isInteger(n))) throw new UsageError('Give alert numbers (see `paybatch alerts list`) or "all".');
  return { ids };
}

export async function runAlertsList(ctx: Context, opts: AlertsListOptions): Promise<number> {
  const { listAlerts } = await import('../../engine/alerts/index.js');
  const alerts = await listAlerts(await ctx.ledger(), { includeAcked: opts.all });
  const locale = await ctx.locale();
  const [alertText, { alertsMessages }, localTime] = await Promise.all([
    import('../../alerts/alert.js'),
    import('../messages/alerts.js'),
    import('../../words/local-time.js'),
  ]);
  ctx.out.result(alerts, () => renderAlerts(ctx.out, alerts, { locale, alertText, words: alertsMessages[locale], localTime }));
  return alerts.some((a) => a.ackedAt === null) ? ExitCode.attention : ExitCode.ok;
}

export async function runAlertsAck(ctx: Context, opts: AlertsAckOptions): Promise<void> {
  const { acknowledgeAlerts } = await import('../../engine/alerts/index.js');
  const result = await acknowledgeAlerts(await ctx.ledger(), opts.ids, ctx.now().toISOString());
  if (!result.ok) {
    const which = result.unknownIds.map((id) => `#${id}`).join(', ');
    const file = (await ctx.ledger()).file;
    throw new UsageError(`No alert ${which} in the ledger ${file}; nothing was acknowledged.`, {
      hint: "See 'paybatch alerts list --all'.",
      reason: { code: 'alerts_unknown', ids: which, file },
    });
  }
  const n = result.acknowledged;
  const { alertsMessages } = await import('../messages/alerts.js');
  const words = alertsMessages[await ctx.locale()];
  ctx.out.result({ acknowledged: n }, () => ctx.out.print(words.acknowledged(n)));
}

/** Items named under each alert; the rest are counted (`--json` has them all). */
const ITEMS_SHOWN = 20;

interface AlertsRendering {
  readonly locale: Locale;
  readonly alertText: typeof import('../../alerts/alert.js');
  readonly words: AlertsMessages;
  readonly localTime: typeof import('../../words/local-time.js');
}

/** Each alert with the items it names and what to do about it, in the locale, times in São Paulo. */
function renderAlerts(out: Output, alerts: readonly StoredAlert[], r: AlertsRendering): void {
  const { locale, alertText, words, localTime } = r;
  if (!alerts.length) return out.print(words.none);
  const at = (iso: string) => localTime.localDateTime(new Date(iso), locale);
  alerts.forEach((a, index) => {
    if (index > 0) out.print();
    const items = a.items.filter(isAlertItem);
    const title = alertText.alertTitle({ ...a, sandbox: false }, locale);
    out.print(out.style.bold(words.header({ id: a.id, title, kind: a.kind, raised: at(a.createdAt), zone: localTime.zoneLabel(locale), acked: a.ackedAt === null ? null : at(a.ackedAt) })));
    out.print(`  ${alertText.alertSummary(a, locale)}`);
    for (const item of items.slice(0, ITEMS_SHOWN)) out.print(`  - ${alertText.describeItem(item, locale)}`);
    if (items.length > ITEMS_SHOWN) out.print(`  ${words.more(items.length - ITEMS_SHOWN)}`);
    const step = alertText.alertNextStep(a, locale);
    if (step) out.print(`  ${step}`);
  });
}

/** Items as alerts record them (older rows may lack fields: those are left out of the human list, not of --json). */
function isAlertItem(x: unknown): x is AlertItem {
  const i = x as Partial<AlertItem> | null;
  return typeof i?.identifier === 'string' && typeof i.batch === 'string' && typeof i.amountCents === 'number' && typeof i.lastUpdate === 'string';
}
