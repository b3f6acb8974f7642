import { isSettled, ITEM_STATES, nextItemState, type ItemState } from '../../domain/item-state.js';
import { returnActionFor } from '../../domain/reasons.js';
import { getBatch, updateBatch } from '../../ledger/batch-repository.js';
import { quarantineEvent } from '../../ledger/event-repository.js';
import { countItemsNotIn, countItemsUnconfirmed, itemByIdentifier, itemsOfBatch, recordItemCorrection, updateItem } from '../../ledger/item-repository.js';
import { recordDifferences } from '../../ledger/record-differences.js';
import { compareItems } from './item-differences.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import type { LeaseFence } from '../work-lease.js';
import type { News } from './news.js';
import type { ProviderClient } from '../../provider/client.js';
import type { Item } from '../../provider/types.js';

const SETTLED = ITEM_STATES.filter(isSettled);

export interface ReconcileResult {
  readonly seen: number;
  readonly changed: number;
  /** Status words the provider used that paybatch does not know: kept verbatim on the item and reported. */
  readonly unknownStatuses: readonly { readonly identifier: string; readonly status: string }[];
  /** Remote items whose identifier the ledger does not hold for this batch. */
  readonly strangers: readonly string[];
  /** When this read settled the batch: how many differences its last comparison with the pages found (0 otherwise). */
  readonly differences: number;
}

/** A page of a batch's items as the provider showed it, and when it was asked for. */
export interface ReadPage {
  readonly items: readonly Item[];
  /** News the ledger took in after this moment is newer than the page. */
  readonly askedAt: Date;
}

/**
 * A batch's item pages, each with the moment it was asked for. The next page is asked for as soon as a page comes
 * (its cursor is known then), so it travels while the caller applies this one: the moment stays honest, since news
 * after it is still newer than the page.
 */
export async function* readPages(provider: Pick<ProviderClient, 'items'>, remoteId: string, now: () => Date): AsyncGenerator<ReadPage> {
  const pages = provider.items(remoteId)[Symbol.asyncIterator]();
  let askedAt = now();
  let coming = pages.next();
  try {
    for (let page = await coming; !page.done; page = await coming) {
      const read = { items: page.value, askedAt };
      askedAt = now();
      coming = pages.next();
      yield read;
    }
  } finally {
    // A caller that stops early leaves a page on its way: its failure is nobody's to report.
    void coming.catch(() => undefined);
    await pages.return?.();
  }
}

/**
 * Brings a batch's items up to date from the provider's item pages (the fallback for lost webhooks and the record
 * every claim is checked against): forward moves, and corrections where the pages contradict what events claimed.
 * The read that settles the batch is also its last word: what still differs is kept for the record-differs alert.
 */
export async function reconcileBatch(
  deps: {
    ledger: Ledger;
    provider: Pick<ProviderClient, 'items'>;
    now: () => Date;
    instabilityWords?: readonly string[];
    /** The daemon's lease on this batch's reading: each page is written only while it holds (work-lease.ts). */
    fence?: LeaseFence;
    /** Told when a page paid items (or moved them otherwise): their receipts may be due. */
    news?: News;
  },
  batchId: number,
  /** The batch's pages, when the caller has just read them (`readPages`); otherwise they are read here. */
  read?: Iterable<ReadPage>,
): Promise<ReconcileResult> {
  const { ledger, now } = deps;
  const batch = await getBatch(ledger, batchId);
  if (!batch.remote_id) return { seen: 0, changed: 0, unknownStatuses: [], strangers: [], differences: 0 };
  let seen = 0;
  let changed = 0;
  const unknownStatuses: { identifier: string; status: string }[] = [];
  const strangers: string[] = [];
  const shown = new Map<string, Item>();
  for await (const { items: page, askedAt } of read ?? readPages(deps.provider, batch.remote_id, now)) {
    for (const remote of page) shown.set(remote.identifier, remote);
    // Counted after the commit: on PostgreSQL a transaction that loses a conflict to another host is run again.
    const applied = await ledger.transaction(async (tx) => {
      await deps.fence?.check(tx);
      const outcomes: Applied[] = [];
      for (const remote of page) outcomes.push(await applyRemoteItem(tx, batchId, remote, now(), deps.instabilityWords ?? [], askedAt));
      return outcomes;
    });
    page.forEach((remote, i) => {
      seen += 1;
      if (applied[i] === 'stranger') strangers.push(remote.identifier);
      else if (applied[i] === 'unknown-status') unknownStatuses.push({ identifier: remote.identifier, status: remote.status });
      else if (applied[i] === 'changed') changed += 1;
    });
    if (applied.includes('changed')) deps.news?.tell();
  }
  const at = now().toISOString();
  // Settled once every item is in a final state that the provider's own record shows: events alone settle nothing.
  const settled = (await countItemsNotIn(ledger, batchId, SETTLED)) === 0 && (await countItemsUnconfirmed(ledger, batchId)) === 0;
  let differences = 0;
  if (batch.status === 'started' && settled) {
    // The last word on the batch: the pages that settle it, compared with the ledger field by field. What differs
    // (an amount, an id, an item only one side holds) cannot be followed by the ledger and is kept for its alert.
    differences = await ledger.transaction(async (tx) => {
      await deps.fence?.check(tx);
      const found = compareItems(await itemsOfBatch(tx, batchId), shown).differences;
      await recordDifferences(tx, batchId, found, now());
      await updateBatch(tx, batchId, { status: 'settled', settled_at: at, read_at: at }, now());
      return found.length;
    });
  } else if (batch.status === 'settled') await updateBatch(ledger, batchId, { read_at: at }, now());
  return { seen, changed, unknownStatuses, strangers, differences };
}

type Applied = 'changed' | 'same' | 'unknown-status' | 'stranger';

/** States in which nobody was paid, whose reason says whether to pay again. */
const unpaid = (state: ItemState): boolean => state === 'failed' || state === 'returned';

/**
 * Applies one remote item, read from a page asked for at `askedAt`, to the ledger item with its identifier; call
 * inside a transaction. The page is the provider's record: it moves the item forward, and where it contradicts a
 * state that events gave the item, it wins and the correction is kept for an alert.
 */
export async function applyRemoteItem(ledger: Ledger, batchId: number, remote: Item, at: Date, instabilityWords: readonly string[], askedAt: Date): Promise<Applied> {
  const local = await itemByIdentifier(ledger, remote.identifier);
  if (!local || local.batch_id !== batchId) return 'stranger';
  const next = remote.state;
  const step = nextItemState({ status: local.status, undecided: local.return_action === null, returnConfirmed: local.return_confirmed_at !== null, recordState: local.record_state }, next, 'page');
  // News the ledger took in after the page was asked for (an event, on this host or another) is newer than the
  // page, which cannot show it yet: the page of a later pass confirms it or contradicts it.
  if ((step === 'undo' || step === 'correct') && local.status_changed_at >= askedAt.toISOString()) return 'same';
  const iso = at.toISOString();
  if (step === 'undo') {
    // An event said "returned"; the provider's own page says paid: the page wins and the event is set aside.
    if (local.return_claim !== null) await quarantineEvent(ledger, local.return_claim, "the provider's item page shows this payment paid, not returned");
    await updateItem(ledger, local.id, { status: 'paid', reason: null, return_action: null, return_claim: null, remote_status: remote.status, record_state: 'paid', updated_at: iso, status_changed_at: iso });
    return 'changed';
  }
  if (step === 'correct' && next !== null) {
    await recordItemCorrection(ledger, { itemId: local.id, claimed: local.status, recorded: next, remoteStatus: remote.status, at: iso });
    await updateItem(ledger, local.id, {
      status: next,
      remote_status: remote.status,
      record_state: next,
      remote_item_id: remote.itemId,
      ...(remote.pixId === undefined ? {} : { pix_id: remote.pixId }),
      ...(remote.endToEndId === undefined ? {} : { end_to_end_id: remote.endToEndId }),
      reason: remote.reason ?? null,
      // A return the record shows is confirmed; its reason, when the page gives none, is left to its refund event.
      return_action: unpaid(next) && remote.reason !== undefined ? returnActionFor(remote.reason, instabilityWords) : null,
      return_claim: null,
      return_confirmed_at: next === 'returned' ? iso : null,
      updated_at: iso,
      status_changed_at: iso,
    });
    return 'changed';
  }
  const forward = step === 'move';
  // The provider's own page showing the return is what allows paying it again (a refund event alone never does).
  const confirms = next === 'returned' && local.return_confirmed_at === null;
  const recorded = next !== null && next !== local.record_state;
  const extrasChanged = (remote.pixId && remote.pixId !== local.pix_id) || remote.status !== local.remote_status || confirms || recorded;
  if (!forward && !extrasChanged) return next === null ? 'unknown-status' : 'same';
  await updateItem(ledger, local.id, {
    remote_status: remote.status,
    remote_item_id: remote.itemId,
    ...(next === null ? {} : { record_state: next }),
    ...(remote.pixId === undefined ? {} : { pix_id: remote.pixId }),
    ...(remote.endToEndId === undefined ? {} : { end_to_end_id: remote.endToEndId }),
    ...(remote.reason === undefined ? {} : { reason: remote.reason }),
    ...(forward && next !== null ? { status: next, status_changed_at: iso } : {}),
    // Without a reason in the page, a return or a rejection keeps what its event said, or stays undecided until one does.
    ...(next !== null && unpaid(next) && remote.reason !== undefined ? { return_action: returnActionFor(remote.reason, instabilityWords) } : {}),
    ...(confirms ? { return_confirmed_at: iso } : {}),
    updated_at: iso,
  });
  if (next === null) return 'unknown-status';
  return forward ? 'changed' : 'same';
}
