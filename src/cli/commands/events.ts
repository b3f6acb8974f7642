import { InvalidArgumentError, Option } from 'commander';
import type { RegisterCommands } from '../command.js';

interface ListFlags {
  unknown: boolean;
  topic?: 'pix' | 'bill' | 'ted' | 'unknown';
  limit: number;
}

const positive = (text: string): number => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a whole number above zero.');
  return n;
};

export const registerEvents: RegisterCommands = (program, runner) => {
  const events = program.command('events').description('webhook events the daemon received and what each one did');
  events
    .command('list')
    .description('received events, newest first (kept 30 days)')
    .option('--unknown', 'only events paybatch did not recognise (same as --topic unknown)', false)
    .addOption(new Option('--topic <topic>', 'only events about this').choices(['pix', 'bill', 'ted', 'unknown']))
    .addOption(new Option('--limit <n>', 'at most this many').argParser(positive).default(50))
    .addHelpText(
      'after',
      '\nAn unknown event is kept, not lost: its type, category and body show what the provider sends, to report or to map.' +
        '\n\nExamples:\n  paybatch events list\n  paybatch events list --unknown --json',
    )
    .action(
      runner.action<ListFlags>(async (ctx, flags) => {
        const { listEvents } = await import('../../ledger/event-repository.js');
        const topic = flags.unknown ? 'unknown' : flags.topic;
        const rows = listEvents(await ctx.ledger(), { ...(topic === undefined ? {} : { topic }), limit: flags.limit });
        ctx.out.result(rows, () => {
          if (!rows.length) return ctx.out.print(topic === 'unknown' ? 'No unknown events.' : 'No events yet.');
          ctx.out.print(ctx.out.table(['received (UTC)', 'topic', 'event', 'type / category', 'effect'], rows.map((e) => [e.receivedAt.slice(0, 19).replace('T', ' '), e.topic, e.eventId, typeAndCategory(e.payload), e.effect])));
        });
      }),
    );
};

/** What the provider called the event: a callback's `type / category`, a Pix event's payload category. */
function typeAndCategory(payload: unknown): string {
  const o = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  const inner = (typeof o['payload'] === 'object' && o['payload'] !== null ? o['payload'] : o) as Record<string, unknown>;
  return [inner['type'], inner['category']].filter((v) => typeof v === 'string' && v !== '').join(' / ');
}
