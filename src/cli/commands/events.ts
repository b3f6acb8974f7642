import { InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../../errors.js';
import type { StoredEvent } from '../../engine/webhooks/index.js';
import type { RawInput, RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { eventsMessages } from '../messages/events.js';
import { eventsHelp } from '../messages/help/events.js';
import type { Output } from '../output.js';
import { flag, optionalChoice } from '../raw-input.js';

const TOPICS = ['pix', 'bill', 'ted', 'unknown'] as const;
const DEFAULT_LIMIT = 50;

export interface EventsListOptions {
  /** Only events about this; absent: every event. */
  readonly topic?: (typeof TOPICS)[number];
  readonly limit: number;
}

const positive = (notPositive: string) => (text: string): number => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(notPositive);
  return n;
};

export const registerEvents: RegisterCommands = (program, runner, locale) => {
  const h = eventsHelp[locale];
  const events = program.command('events').description(h.group);
  events
    .command('list')
    .description(h.list.description)
    .option('--unknown', h.list.unknown, false)
    .addOption(new Option('--topic <topic>', h.list.topic).choices(TOPICS))
    .addOption(new Option('--limit <n>', h.list.limit).argParser(positive(h.list.notPositive)).default(DEFAULT_LIMIT))
    .addHelpText('after', h.list.examples)
    .action(runner.action(parseEventsListOptions, runEventsList));
};

export function parseEventsListOptions(raw: RawInput): EventsListOptions {
  const topic = flag(raw, 'unknown') ? 'unknown' : optionalChoice(raw, 'topic', TOPICS);
  const limit = raw.flags['limit'] ?? DEFAULT_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a whole number above zero.');
  return { ...(topic === undefined ? {} : { topic }), limit };
}

export async function runEventsList(ctx: Context, opts: EventsListOptions): Promise<void> {
  const { listEvents } = await import('../../engine/webhooks/index.js');
  const { localDateTime, zoneLabel } = await import('../../words/local-time.js');
  const rows = await listEvents(await ctx.ledger(), opts);
  const locale = await ctx.locale();
  const words = eventsMessages[locale];
  ctx.out.result(rows, () => {
    if (!rows.length) return ctx.out.print(opts.topic === 'unknown' ? words.noUnknown : words.none);
    renderEvents(ctx.out, words.head(zoneLabel(locale)), rows, (iso) => localDateTime(new Date(iso), locale));
  });
}

function renderEvents(out: Output, head: readonly string[], rows: readonly StoredEvent[], time: (iso: string) => string): void {
  out.print(out.table(head, rows.map((e) => [time(e.receivedAt), e.topic, e.eventId, typeAndCategory(e.payload), e.effect])));
}

/** What the provider called the event: a callback's `type / category`, a Pix event's payload category. */
function typeAndCategory(payload: unknown): string {
  const o = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  const inner = (typeof o['payload'] === 'object' && o['payload'] !== null ? o['payload'] : o) as Record<string, unknown>;
  return [inner['type'], inner['category']].filter((v) => typeof v === 'string' && v !== '').join(' / ');
}
