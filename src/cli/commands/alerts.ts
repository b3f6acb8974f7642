import { ExitCode, UsageError } from '../../errors.js';
import type { RegisterCommands } from '../command.js';

export const registerAlerts: RegisterCommands = (program, runner) => {
  const alerts = program.command('alerts').description('alerts raised by the daemon: stale payments, final returns, failures, bill returns');

  alerts
    .command('list')
    .description('open alerts (exit 4 when there are any)')
    .option('--all', 'acknowledged ones too', false)
    .action(
      runner.action<{ all: boolean }>(async (ctx, flags) => {
        const ledger = await ctx.ledger();
        let q = ledger.db.selectFrom('alerts').selectAll().orderBy('id', 'desc');
        if (!flags.all) q = q.where('acked_at', 'is', null);
        const rows = ledger.all(q);
        const docs = rows.map((a) => ({
          id: a.id,
          kind: a.kind,
          title: a.title,
          summary: a.summary,
          items: JSON.parse(a.items_json) as unknown[],
          createdAt: a.created_at,
          channels: a.channels_json ? (JSON.parse(a.channels_json) as unknown[]) : [],
          ackedAt: a.acked_at,
        }));
        ctx.out.result(docs, () => {
          if (!rows.length) return ctx.out.print('No open alerts.');
          ctx.out.print(ctx.out.table(['#', 'kind', 'title', 'items', 'raised', 'acked'], docs.map((a) => [a.id, a.kind, a.title, a.items.length, a.createdAt.slice(0, 16), a.ackedAt?.slice(0, 16)])));
        });
        return docs.some((a) => a.ackedAt === null) ? ExitCode.attention : ExitCode.ok;
      }),
    );

  alerts
    .command('ack')
    .description('acknowledge alerts: someone is on it')
    .argument('<id...>', 'alert numbers, or "all"')
    .action(
      runner.action(async (ctx, _flags, ids) => {
        const ledger = await ctx.ledger();
        const at = ctx.now().toISOString();
        let q = ledger.db.updateTable('alerts').set({ acked_at: at }).where('acked_at', 'is', null);
        if (!(ids.length === 1 && ids[0] === 'all')) {
          const numbers = ids.map(Number);
          if (numbers.some((n) => !Number.isInteger(n))) throw new UsageError('Give alert numbers (see `paybatch alerts list`) or "all".');
          q = q.where('id', 'in', numbers);
        }
        const { changes } = ledger.run(q);
        ctx.out.result({ acknowledged: changes }, () => ctx.out.print(`✓ ${changes} alert${changes === 1 ? '' : 's'} acknowledged.`));
      }),
    );
};
