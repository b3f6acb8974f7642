import { ITEM_STATES, type ItemState } from '../../domain/item-state.js';
import { CancelledError, UsageError } from '../../errors.js';
import type { BatchRow } from '../../ledger/batch-repository.js';
import type { ItemRow } from '../../ledger/item-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import { noOptions, type RawInput, type RegisterCommands } from '../command.js';
import type { Context } from '../context.js';
import type { Output } from '../output.js';
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

export const registerBatch: RegisterCommands = (program, runner) => {
  const batch = program.command('batch').description('list, inspect, start and delete Pix batches (local #id or provider id)');

  batch
    .command('list')
    .description('batches in the ledger, newest first')
    .action(runner.action(noOptions, runBatchList));

  batch
    .command('show')
    .description('a batch and its progress: count and sum of items by status')
    .argument('<id>', 'local #id or provider id')
    .option('--refresh', "update the ledger from the provider's item pages first", false)
    .action(runner.action(parseBatchShowOptions, runBatchShow));

  batch
    .command('items')
    .description("a batch's items with their status")
    .argument('<id>', 'local #id or provider id')
    .option('--status <status>', `only items in this state (${ITEM_STATES.join(', ')})`)
    .action(runner.action(parseBatchItemsOptions, runBatchItems));

  batch
    .command('start')
    .description('start a batch (finishing its submission first if an import was interrupted)')
    .argument('<id>', 'local #id or provider id')
    .option('-y, --yes', 'do not ask for confirmation', false)
    .action(runner.action(parseBatchActionOptions, runBatchStart));

  batch
    .command('delete')
    .description('delete a batch at the provider while it is still pending')
    .argument('<id>', 'local #id or provider id')
    .option('-y, --yes', 'do not ask for confirmation', false)
    .action(runner.action(parseBatchActionOptions, runBatchDelete));
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
  const { listBatches } = await import('../../ledger/batch-repository.js');
  const { formatBRL } = await import('../../domain/money.js');
  const rows = listBatches(await ctx.ledger());
  ctx.out.result(rows.map(batchDoc), () => renderBatchList(ctx.out, rows, formatBRL));
}

export async function runBatchShow(ctx: Context, opts: BatchShowOptions): Promise<void> {
  const { batchProgress, batchesOfImport } = await import('../../ledger/batch-repository.js');
  const { formatBRL } = await import('../../domain/money.js');
  const ledger = await ctx.ledger();
  let b = await requireBatch(ctx, ledger, opts.ref);
  let refreshed = null;
  if (opts.refresh) {
    const { reconcileBatch } = await import('../../engine/reconcile.js');
    refreshed = await reconcileBatch({ ledger, provider: await ctx.provider(), now: ctx.now }, b.id);
    b = await requireBatch(ctx, ledger, String(b.id));
    for (const u of refreshed.unknownStatuses) ctx.out.warn(`item ${u.identifier}: the provider says "${u.status}", a status paybatch does not know (kept as is)`);
  }
  const { callsOf } = await import('../../ledger/call-log.js');
  const progress = batchProgress(ledger, b.id);
  const calls = callsOf(ledger, `batch:${b.id}`).map((c) => ({
    at: c.created_at,
    phase: c.phase,
    operation: c.operation,
    outcome: c.outcome,
    detail: c.detail_json ? (JSON.parse(c.detail_json) as unknown) : null,
  }));
  // A sheet larger than the provider takes in one batch was sent as several: each part names the others.
  const siblings = b.kind === 'sheet' && b.import_id !== null ? batchesOfImport(ledger, b.import_id) : [];
  const parts = siblings.length > 1 ? siblings.map((p) => ({ id: p.id, name: p.name, status: p.status, items: p.item_count, totalCents: p.total_cents })) : [];
  const doc = { batch: batchDoc(b), parts, progress, calls, refreshed };
  ctx.out.result(doc, () => renderBatchShow(ctx.out, b, doc, { verbose: ctx.globals.verbose, formatBRL }));
}

export async function runBatchItems(ctx: Context, opts: BatchItemsOptions): Promise<void> {
  const { itemsOfBatch } = await import('../../ledger/item-repository.js');
  const { formatBRL } = await import('../../domain/money.js');
  const ledger = await ctx.ledger();
  const b = await requireBatch(ctx, ledger, opts.ref);
  const items = itemsOfBatch(ledger, b.id, opts.status);
  ctx.out.result(items.map(itemDoc), () => renderBatchItems(ctx.out, items, formatBRL));
}

export async function runBatchStart(ctx: Context, opts: BatchActionOptions): Promise<void> {
  const { submitBatch } = await import('../../engine/submit-batch.js');
  const { formatBRL } = await import('../../domain/money.js');
  const ledger = await ctx.ledger();
  const b = await requireBatch(ctx, ledger, opts.ref);
  if (b.status === 'started' || b.status === 'settled') {
    ctx.out.result({ batch: batchDoc(b), changed: false }, () => ctx.out.print(`Batch #${b.id} is already ${b.status}.`));
    return;
  }
  await confirmOrCancel(ctx, opts.yes, `Start batch #${b.id} "${b.name}": ${b.item_count} payments, ${formatBRL(b.total_cents)}?`);
  const started = await submitBatch({ ledger, provider: await ctx.provider(), now: ctx.now }, b.id, { start: true });
  ctx.out.result({ batch: batchDoc(started), changed: true }, () => ctx.out.print(`✓ Batch #${started.id} started (${started.remote_id}).`));
}

export async function runBatchDelete(ctx: Context, opts: BatchActionOptions): Promise<void> {
  const { deleteBatch } = await import('../../engine/batch-actions.js');
  const ledger = await ctx.ledger();
  const b = await requireBatch(ctx, ledger, opts.ref);
  await confirmOrCancel(ctx, opts.yes, `Delete batch #${b.id} "${b.name}" at the provider?`);
  const deleted = await deleteBatch({ ledger, provider: await ctx.provider(), now: ctx.now }, b.id);
  ctx.out.result({ batch: batchDoc(deleted) }, () => ctx.out.print(`✓ Batch #${deleted.id} deleted.`));
}

/** Asks the question unless --yes was given; a "no" cancels the command. */
async function confirmOrCancel(ctx: Context, yes: boolean, question: string): Promise<void> {
  if (yes || (await ctx.prompter.confirm(question))) return;
  throw new CancelledError();
}

async function requireBatch(ctx: Context, ledger: Ledger, ref: string): Promise<BatchRow> {
  const { findBatch } = await import('../../ledger/batch-repository.js');
  const b = findBatch(ledger, ref);
  if (!b) throw new UsageError(`No batch "${ref}" in the ledger ${await ctx.ledgerFile()}.`, { hint: "See 'paybatch batch list'." });
  return b;
}

/** The JSON of a batch (`batch list|show|start|delete`): a stable contract. */
function batchDoc(b: BatchRow) {
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

type FormatBRL = (cents: number) => string;

function renderBatchList(out: Output, rows: readonly BatchRow[], formatBRL: FormatBRL): void {
  if (!rows.length) return out.print('No batches yet. Import a sheet with: paybatch import <sheet.csv>');
  out.print(
    out.table(
      ['#', 'provider id', 'name', 'status', 'items', 'total', 'created'],
      rows.map((b) => [b.id, b.remote_id, b.name, b.status, b.item_count, formatBRL(b.total_cents), b.created_at.slice(0, 16).replace('T', ' ')]),
    ),
  );
}

interface BatchShowDoc {
  readonly parts: readonly { id: number; name: string; status: string; items: number }[];
  readonly progress: readonly { status: string; count: number; sumCents: number }[];
  readonly calls: readonly { at: string; phase: string; operation: string; outcome: string | null }[];
  readonly refreshed: { seen: number; changed: number } | null;
}

function renderBatchShow(out: Output, b: BatchRow, doc: BatchShowDoc, o: { verbose: boolean; formatBRL: FormatBRL }): void {
  out.print(`Batch #${b.id} "${b.name}" — ${b.status}${b.remote_id ? ` — provider id ${b.remote_id}` : ''}`);
  if (doc.parts.length) {
    out.print(`Part ${doc.parts.findIndex((p) => p.id === b.id) + 1} of ${doc.parts.length} of import #${b.import_id} (the sheet has more items than the provider takes in one batch):`);
    out.print(out.table(['#', 'part', 'status', 'items'], doc.parts.map((p) => [p.id, p.name, p.status, p.items])));
  }
  out.print(out.table(['status', 'items', 'sum'], doc.progress.map((p) => [p.status, p.count, o.formatBRL(p.sumCents)])));
  if (doc.refreshed) out.print(`Refreshed from the provider: ${doc.refreshed.seen} items seen, ${doc.refreshed.changed} changed.`);
  if (o.verbose) {
    out.print('\nProvider calls that move money (intent before, outcome after):');
    out.print(out.table(['time', 'phase', 'operation', 'outcome'], doc.calls.map((c) => [c.at, c.phase, c.operation, c.outcome])));
  }
}

function renderBatchItems(out: Output, items: readonly ItemRow[], formatBRL: FormatBRL): void {
  out.print(
    out.table(
      ['line', 'key', 'recipient', 'amount', 'status', 'note'],
      items.map((it) => [it.line, it.key, it.recipient_name, formatBRL(it.amount_cents), it.status, it.reason ?? it.last_error]),
    ),
  );
}
