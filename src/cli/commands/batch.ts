import { ITEM_STATES, type ItemState } from '../../domain/item-state.js';
import { CancelledError, UsageError } from '../../errors.js';
import type { BatchDetails, BatchRow, BatchSchedule, ItemRow } from '../../engine/batches/index.js';
import type { Ledger } from '../../engine/ledger-door.js';
import { noOptions, type RawInput, type RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import { registerBatchExport } from './batch-export.js';
import { registerBatchRetry } from './batch-retry.js';
import { registerBatchApprove, registerBatchClaim } from './approve.js';
import { batchHelp } from '../messages/help/batch.js';
import { batchMessages, type BatchMessages } from '../messages/batch.js';
import type { ScheduleMessages } from '../messages/schedule.js';
import { batchName } from '../../words/batch-name.js';
import { statusWord } from '../../words/status-words.js';
import { pixReasonText } from '../../words/payment-reasons.js';
import type { Output } from '../output.js';
import { batchStateWord, batchWaits, type BatchWait } from '../batch-waits.js';
import { arg, flag, optionalText } from '../raw-input.js';

export interface BatchShowOptions {
  /** Local #id or provider id. */
  readonly ref: string;
  readonly refresh: boolean;
}

export interface BatchItemsOptions {
  readonly ref: string;
  readonly status?: ItemState;
}

/** `batch start` and `batch delete`. */
export interface BatchActionOptions {
  readonly ref: string;
  readonly yes: boolean;
}

export const registerBatch: RegisterCommands = (program, runner, locale) => {
  const h = batchHelp[locale];
  const batch = program.command('batch').description(h.group);

  batch
    .command('list')
    .description(h.list.description)
    .addHelpText('after', h.list.examples)
    .action(runner.action(noOptions, runBatchList));

  batch
    .command('show')
    .description(h.show.description)
    .argument('<id>', h.id)
    .option('--refresh', h.show.refresh, false)
    .addHelpText('after', h.show.examples)
    .action(runner.action(parseBatchShowOptions, runBatchShow));

  batch
    .command('items')
    .description(h.items.description)
    .argument('<id>', h.id)
    .option('--status <status>', h.items.status(ITEM_STATES.join(', ')))
    .addHelpText('after', h.items.examples)
    .action(runner.action(parseBatchItemsOptions, runBatchItems));

  batch
    .command('start')
    .description(h.start.description)
    .argument('<id>', h.id)
    .option('-y, --yes', h.yes, false)
    .addHelpText('after', h.start.examples)
    .action(runner.action(parseBatchActionOptions, runBatchStart));

  batch
    .command('delete')
    .description(h.delete.description)
    .argument('<id>', h.id)
    .option('-y, --yes', h.yes, false)
    .addHelpText('after', h.delete.examples)
    .action(runner.action(parseBatchActionOptions, runBatchDelete));

  registerBatchRetry(batch, runner, locale);
  registerBatchApprove(batch, runner, locale);
  registerBatchClaim(batch, runner, locale);
  registerBatchExport(batch, runner, locale);
};

export function parseBatchShowOptions(raw: RawInput): BatchShowOptions {
  return { ref: arg(raw, 0, 'id'), refresh: flag(raw, 'refresh') };
}

export function parseBatchItemsOptions(raw: RawInput): BatchItemsOptions {
  const status = optionalText(raw, 'status');
  if (status && !(ITEM_STATES as readonly string[]).includes(status)) {
    throw new UsageError(`--status must be one of ${ITEM_STATES.join(', ')}.`);
  }
  return { ref: arg(raw, 0, 'id'), ...(status ? { status: status as ItemState } : {}) };
}

export function parseBatchActionOptions(raw: RawInput): BatchActionOptions {
  return { ref: arg(raw, 0, 'id'), yes: flag(raw, 'yes') };
}

export async function runBatchList(ctx: Context): Promise<void> {
  const { batchList } = await import('../../engine/batches/index.js');
  const listed = await batchList(await ctx.ledger());
  const h = await humanize(ctx);
  const waits = await batchWaits(ctx, listed);
  ctx.out.result(
    listed.map((l, i) => batchDoc(l.batch, l.schedule, waits[i])),
    () => renderBatchList(ctx.out, listed.map((l, i) => ({ ...l, wait: waits[i] ?? null })), h),
  );
}

export async function runBatchShow(ctx: Context, opts: BatchShowOptions): Promise<void> {
  const { batchDetails, batchLineage } = await import('../../engine/batches/index.js');
  const h = await humanize(ctx);
  const ledger = await ctx.ledger();
  const found = await requireBatch(ctx, ledger, opts.ref);
  let refreshed = null;
  if (opts.refresh) {
    const { reconcileBatch } = await import('../../engine/follow-up/index.js');
    refreshed = await reconcileBatch({ ledger, provider: await ctx.provider(), now: ctx.now }, found.id);
    for (const u of refreshed.unknownStatuses) ctx.out.warn(h.words.unknownStatus(u.identifier, u.status));
  }
  const { batch: b, schedule, parts, progress, calls } = await batchDetails(ledger, found.id);
  const approvals = await (await import('./approve.js')).batchApprovals(ctx, b);
  const [wait = null] = await batchWaits(ctx, [{ batch: b, schedule }]);
  const { storyOf: _storyOf, ...lineage } = await batchLineage(ledger, b.id);
  const doc = { batch: batchDoc(b, schedule, wait), parts, progress, lineage, calls, refreshed, approvals: approvals.doc };
  const sw = schedule ? await scheduleWords(ctx) : null;
  ctx.out.result(doc, () => {
    renderBatchShow(ctx.out, { batch: b, schedule, wait }, doc, ctx.globals.verbose, h);
    // Only a batch some of whose rows were sent more than once has a story to tell beyond its progress.
    if (lineage.resent > 0) {
      const elsewhere = lineage.paidElsewhere.map((e) => ({ batchId: e.batchId, count: e.count, amount: h.formatBRL(e.cents) }));
      ctx.out.print(h.words.lineage({ rows: lineage.rows, paidHere: lineage.paidHere.count, elsewhere, failed: lineage.failed.count, returned: lineage.returned.count, open: lineage.open.count }));
    }
    if (schedule && sw) ctx.out.print(sw.state(schedule.state, `${h.time(schedule.startAt)} (${h.zone})`, b.id));
    approvals.render();
  });
}

export async function runBatchItems(ctx: Context, opts: BatchItemsOptions): Promise<void> {
  const { batchItems, batchLineage } = await import('../../engine/batches/index.js');
  const h = await humanize(ctx);
  const ledger = await ctx.ledger();
  const b = await requireBatch(ctx, ledger, opts.ref);
  const items = await batchItems(ledger, b.id, opts.status);
  const { storyOf } = await batchLineage(ledger, b.id);
  const { lineageText } = await import('../../reports/lineage-words.js');
  const story = (it: ItemRow) => {
    const s = storyOf(it.id);
    return s === null ? null : lineageText(s.lineage, ctx.out.locale);
  };
  ctx.out.result(
    items.map((it) => {
      const s = storyOf(it.id);
      return { ...itemDoc(it), ...(s === null ? {} : { lineage: s.lineage }) };
    }),
    () => renderBatchItems(ctx.out, items, h, items.some((it) => storyOf(it.id) !== null) ? story : null),
  );
}

export async function runBatchStart(ctx: Context, opts: BatchActionOptions): Promise<void> {
  const { claimOf, submitBatch } = await import('../../engine/batches/index.js');
  const { planBatchStart } = await import('../../engine/batches/index.js');
  const h = await humanize(ctx);
  const ledger = await ctx.ledger();
  const { approvalGateOf } = await import('../approval-gate.js');
  // Refused for missing approvals before anything is asked (submitBatch checks again before the start).
  const plan = await planBatchStart(ledger, await requireBatch(ctx, ledger, opts.ref), ctx.now(), () => approvalGateOf(ctx));
  const b = plan.batch;
  if (plan.kind === 'already-started') {
    ctx.out.result({ batch: batchDoc(b), changed: false }, () => ctx.out.print(h.words.alreadyStatus(b.id, h.status(b.status))));
    return;
  }
  const early = plan.earlyStartAt === null ? null : `${h.time(plan.earlyStartAt)} (${h.zone})`;
  const sw = await scheduleWords(ctx);
  await confirmOrCancel(ctx, opts.yes, early ? sw.confirmEarly(b.id, b.name, early) : h.words.confirmStart(b.id, b.name, b.item_count, h.formatBRL(b.total_cents)));
  if (early && opts.yes) ctx.out.warn(sw.startingEarly(b.id, early));
  const started = await submitBatch({ ledger, provider: await ctx.provider(), now: ctx.now, approvals: plan.approvals, ...claimOf((await ctx.profile()).settings) }, b.id, { start: true });
  ctx.out.result({ batch: batchDoc(started), changed: true }, () => ctx.out.print(h.words.started(started.id, started.remote_id)));
}

export async function runBatchDelete(ctx: Context, opts: BatchActionOptions): Promise<void> {
  const { deleteBatch } = await import('../../engine/batches/index.js');
  const { words } = await humanize(ctx);
  const ledger = await ctx.ledger();
  const b = await requireBatch(ctx, ledger, opts.ref);
  await confirmOrCancel(ctx, opts.yes, words.confirmDelete(b.id, b.name));
  const deleted = await deleteBatch({ ledger, provider: await ctx.provider(), now: ctx.now }, b.id);
  ctx.out.result({ batch: batchDoc(deleted) }, () => ctx.out.print(words.deleted(deleted.id)));
}

/** Asks the question unless --yes was given; a "no" cancels the command. */
async function confirmOrCancel(ctx: Context, yes: boolean, question: string): Promise<void> {
  if (yes || (await ctx.prompter.confirm(question))) return;
  throw new CancelledError();
}

async function requireBatch(ctx: Context, ledger: Ledger, ref: string): Promise<BatchRow> {
  const { findBatch } = await import('../../engine/batches/index.js');
  const b = await findBatch(ledger, ref);
  if (!b) {
    const words = batchMessages[await ctx.locale()];
    throw new UsageError(words.noSuchBatch(ref, (await ctx.ledger()).file), { hint: words.listHint });
  }
  return b;
}

/** The words, money and São Paulo times of the run's language, for the renderers below. */
interface Humanized {
  readonly words: BatchMessages;
  readonly zone: string;
  formatBRL(cents: number): string;
  /** An ISO instant as São Paulo wall-clock time. */
  time(iso: string): string;
  status(status: string): string;
  /** A provider's rejection or return reason of an item with that status, in the locale. */
  reason(text: string, status: string): string;
}

async function humanize(ctx: Context): Promise<Humanized> {
  const { formatBRL } = await import('../../domain/money.js');
  const { localDateTime, zoneLabel } = await import('../../words/local-time.js');
  const locale = await ctx.locale();
  return {
    words: batchMessages[locale],
    zone: zoneLabel(locale),
    formatBRL,
    time: (iso) => localDateTime(new Date(iso), locale),
    status: (status) => statusWord(status, locale),
    reason: (text, status) => pixReasonText(text, locale, status === 'returned' ? 'return' : 'rejection'),
  };
}

async function scheduleWords(ctx: Context): Promise<ScheduleMessages> {
  const { scheduleMessages } = await import('../messages/schedule.js');
  return scheduleMessages[await ctx.locale()];
}

/**
 * The JSON of a batch (`batch list|show|start|delete`): a stable contract. `schedule` is null unless `import --pay-on`;
 * `waitingFor` (`batch list|show`) says what a batch not started waits for: `approvals`, `pay_on`, or null.
 */
function batchDoc(b: BatchRow, schedule?: BatchSchedule, wait?: BatchWait) {
  return {
    id: b.id,
    remoteId: b.remote_id,
    name: b.name,
    remoteName: b.remote_name,
    kind: b.kind,
    status: b.status,
    remoteStatus: b.remote_status,
    items: b.item_count,
    totalCents: b.total_cents,
    createdAt: b.created_at,
    startedAt: b.started_at,
    schedule: schedule ? { payOn: schedule.payOn, startAt: schedule.startAt, state: schedule.state, lastError: schedule.lastError } : null,
    ...(wait === undefined ? {} : { waitingFor: wait }),
  };
}

/** The JSON of an item (`batch items`): a stable contract. */
function itemDoc(it: ItemRow) {
  return {
    line: it.line,
    identifier: it.identifier,
    key: it.key,
    keyType: it.key_type,
    amountCents: it.amount_cents,
    description: it.description,
    recipient: it.recipient_name,
    status: it.status,
    remoteStatus: it.remote_status,
    remoteItemId: it.remote_item_id,
    pixId: it.pix_id,
    endToEndId: it.end_to_end_id,
    reason: it.reason,
    attempt: it.attempt,
    callAttempts: it.call_attempts,
    lastError: it.last_error,
    receipt: it.receipt_path,
  };
}

/** A batch with its schedule and what it waits for. */
interface ListedBatch {
  readonly batch: BatchRow;
  readonly schedule: BatchSchedule | undefined;
  readonly wait: BatchWait;
}

function renderBatchList(out: Output, rows: readonly ListedBatch[], h: Humanized): void {
  if (!rows.length) return out.print(h.words.noBatches);
  out.print(
    out.table(
      h.words.listHead(h.zone),
      rows.map(({ batch: b, schedule, wait }) => [b.id, b.remote_id, batchName(b, out.locale), batchStateWord(b.status, wait, schedule, out.locale), b.item_count, h.formatBRL(b.total_cents), h.time(b.created_at)]),
      // The provider's id, then the creation time, give way first: people find a batch by its number and name.
      ['text', 'expendable', 'text', 'fixed', 'text', 'text', 'expendable'],
    ),
  );
}

interface BatchShowDoc extends Pick<BatchDetails, 'parts' | 'progress' | 'calls'> {
  readonly refreshed: { seen: number; changed: number } | null;
}

function renderBatchShow(out: Output, { batch: b, schedule, wait }: ListedBatch, doc: BatchShowDoc, verbose: boolean, h: Humanized): void {
  const w = h.words;
  out.print(w.title(b.id, batchName(b, out.locale), batchStateWord(b.status, wait, schedule, out.locale), b.remote_id));
  if (doc.parts.length) {
    out.print(w.partOf(doc.parts.findIndex((p) => p.id === b.id) + 1, doc.parts.length, b.import_id));
    out.print(out.table(w.partsHead, doc.parts.map((p) => [p.id, p.name, h.status(p.status), p.items])));
  }
  out.print(out.table(w.progressHead, doc.progress.map((p) => [h.status(p.status), p.count, h.formatBRL(p.sumCents)])));
  if (doc.refreshed) out.print(w.refreshed(doc.refreshed.seen, doc.refreshed.changed));
  if (verbose) {
    out.print(w.callsTitle);
    out.print(out.table(w.callsHead(h.zone), doc.calls.map((c) => [h.time(c.at), c.phase, c.operation, c.outcome])));
  }
}

/** The items' table; with `story`, a last column telling where each row sent more than once was paid. */
function renderBatchItems(out: Output, items: readonly ItemRow[], h: Humanized, story: ((it: ItemRow) => string | null) | null): void {
  const row = (it: ItemRow) => [it.line, it.key, it.recipient_name, h.formatBRL(it.amount_cents), h.status(it.status), it.reason === null ? it.last_error : h.reason(it.reason, it.status)];
  out.print(
    out.table(
      story ? [...h.words.itemsHead, h.words.storyHead] : h.words.itemsHead,
      items.map((it) => (story ? [...row(it), story(it)] : row(it))),
      // The key (often a random UUID) gives way before the recipient's name.
      ['text', 'expendable'],
    ),
  );
}
