import { ExitCode, UsageError } from '../../errors.js';
import type { StoredAlert } from '../../ledger/alert-repository.js';
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

export const registerAlerts: RegisterCommands = (program, runner) => {
  const alerts = program.command('alerts').description('alerts raised by the daemon: stale payments, final returns, failures, bill returns');

  alerts
    .command('list')
    .description('open alerts (exit 4 when there are any)')
    .option('--all', 'acknowledged ones too', false)
    .action(runner.action(parseAlertsListOptions, runAlertsList));

  alerts
    .command('ack')
    .description('acknowledge alerts: someone is on it')
    .argument('<id...>', 'alert numbers, or "all"')
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
  const { listAlerts } = await import('../../ledger/alert-repository.js');
  const alerts = listAlerts(await ctx.ledger(), { includeAcked: opts.all });
  ctx.out.result(alerts, () => renderAlerts(ctx.out, alerts));
  return alerts.some((a) => a.ackedAt === null) ? ExitCode.attention : ExitCode.ok;
}

export async function runAlertsAck(ctx: Context, opts: AlertsAckOptions): Promise<void> {
  const { acknowledgeAlerts } = await import('../../ledger/alert-repository.js');
  const result = acknowledgeAlerts(await ctx.ledger(), opts.ids, ctx.now().toISOString());
  if (!result.ok) {
    const which = result.unknownIds.map((id) => `#${id}`).join(', ');
    throw new UsageError(`No alert ${which} in the ledger ${await ctx.ledgerFile()}; nothing was acknowledged.`, {
      hint: "See 'paybatch alerts list --all'.",
    });
  }
  const n = result.acknowledged;
  ctx.out.result({ acknowledged: n }, () => ctx.out.print(`✓ ${n} alert${n === 1 ? '' : 's'} acknowledged.`));
}

function renderAlerts(out: Output, alerts: readonly StoredAlert[]): void {
  if (!alerts.length) return out.print('No open alerts.');
  out.print(out.table(['#', 'kind', 'title', 'items', 'raised', 'acked'], alerts.map((a) => [a.id, a.kind, a.title, a.items.length, a.createdAt.slice(0, 16), a.ackedAt?.slice(0, 16)])));
}
