import { PIX_REASONS, type PixReason } from '../domain/reasons.js';
import { closedAccount } from './account-pix.js';
import { recordEvent } from './event-recorder.js';
import { ITEM_FAULTS, pickFault } from './faults.js';
import { SANDBOX_INSTITUTION } from './people.js';
import { acceptedTransactionId, endToEndId, pixEvent, type PixOutcome } from './pix-events.js';
import type { ItemRow } from './pix-store.js';
import type { Runtime } from './runtime.js';

/** Rejection codes of `failed` items: rejections that are final. */
const REJECTIONS = PIX_REASONS.filter((r) => r.kind === 'rejection' && r.action === 'final');
/** Codes of `instabilityReturn` refunds and `instabilityRejection` rejections: timeouts and operational errors, which the payer must reprocess. */
const INSTABILITY = PIX_REASONS.filter((r) => r.action === 'reprocess');
/** The rejection of a Pix to a closed account (the sandbox's rule: account-pix.ts). */
const NO_ACCOUNT = REJECTIONS.filter((r) => r.code === 'AC03');

/** Items settle 1–5 simulated seconds after their batch starts; refunds come 10–60 s after the payment. */
const SETTLE_MS: readonly [number, number] = [1_000, 5_000];
const REFUND_MS: readonly [number, number] = [10_000, 60_000];
const CHUNK = 200;

/** The ids of one Pix. */
interface PixIds {
  readonly pixId: string;
  readonly transactionId: string;
  readonly endToEndId: string;
}

/**
 * The life of Pix items after start: each item's outcome is drawn from the seed and its identifier (so a retried
 * identifier meets the same fate), then carried out when due, with its Pix payment event. Where the dialect tells
 * acceptance, an item gets its Pix ids when it starts, with an event that says so, and keeps them to the end.
 */
export class PixProcessor {
  constructor(private readonly rt: Runtime) {}

  /** Starts a pending batch: every item becomes `processing` with its outcome and due time. */
  start(batchId: string, account: string): void {
    const now = this.rt.clock.now();
    for (const item of this.rt.pix.batchItems(batchId)) {
      // A closed account fails whatever the faults say.
      const plan = closedAccount(item)
        ? 'closedAccount'
        : (pickFault(ITEM_FAULTS, this.rt.faults, this.rt.random.unit('item', account, item.identifier)) ?? 'paid');
      const at = now + this.rt.random.int(SETTLE_MS[0], SETTLE_MS[1], 'settle', item.id);
      const stale = plan === 'stale';
      this.rt.pix.planItem(item.id, plan, stale ? null : at, stale ? at : null, now);
      if (this.rt.dialect.pixEvents.accepted) this.accept(item, now);
    }
    this.rt.pix.startBatch(batchId, now);
    this.rt.wake();
  }

  /** Carries out what is due; returns when the next item work falls due (simulated ms), or null. */
  runDue(now: number): number | null {
    const due = this.rt.pix.dueItems(now, CHUNK);
    this.rt.db.transaction(() => {
      // Each change happens at its due time, even when the sandbox catches up after a restart or a clock jump.
      for (const item of due) {
        if (item.status === 'processing') this.settle(item, item.due_at ?? now);
        else if (item.status === 'paid') this.refund(item, item.due_at ?? now);
      }
      this.completeBatches(due);
    })();
    return due.length === CHUNK ? now : this.rt.pix.nextDue();
  }

  /** Settles the stale items of a batch whose delay has run out: the update an item-list query prompts. */
  settleStale(batchId: string): void {
    const now = this.rt.clock.now();
    const items = this.rt.pix.staleDue(batchId, now - this.rt.settings.staleMs);
    if (items.length === 0) return;
    this.rt.db.transaction(() => {
      for (const item of items) this.settle({ ...item, plan: 'paid' }, now);
      this.completeBatches(items);
    })();
  }

  /** Tells that the provider took the item for processing: accepted, not paid. */
  private accept(item: ItemRow, now: number): void {
    const pixId = this.rt.nextId('pix');
    const e2e = endToEndId(SANDBOX_INSTITUTION.ispb, now, pixId);
    this.rt.pix.assignPixIds(item.id, pixId, e2e);
    const balanceAfter = this.rt.pix.balance(item.account);
    this.emit(item, { kind: 'accepted', pixId, transactionId: acceptedTransactionId(pixId), endToEndId: e2e, reason: null, balanceAfter, at: now });
  }

  /** The ids given at acceptance, or new ones (drawn in the order pix, then transaction). */
  private idsOf(item: ItemRow, now: number): PixIds {
    if (item.pix_id !== null && item.end_to_end_id !== null) {
      return { pixId: item.pix_id, transactionId: acceptedTransactionId(item.pix_id), endToEndId: item.end_to_end_id };
    }
    const pixId = this.rt.nextId('pix');
    return { pixId, endToEndId: endToEndId(SANDBOX_INSTITUTION.ispb, now, pixId), transactionId: this.rt.nextId('transaction') };
  }

  private settle(item: ItemRow, now: number): void {
    if (item.plan === 'failed') return this.reject(item, now, REJECTIONS);
    if (item.plan === 'instabilityRejection') return this.reject(item, now, INSTABILITY);
    if (item.plan === 'closedAccount') return this.reject(item, now, NO_ACCOUNT);
    const { pixId, transactionId, endToEndId: e2e } = this.idsOf(item, now);
    this.rt.pix.insertTransfer({
      pix_id: pixId, account: item.account, item_id: item.id, identifier: item.identifier, kind: 'payment',
      amount: item.amount, end_to_end_id: e2e, transaction_id: transactionId, reason: null, created_at: now,
    });
    const balanceAfter = this.rt.pix.addToBalance(item.account, -item.amount);
    const refundAt = item.plan === 'instabilityReturn' ? now + this.rt.random.int(REFUND_MS[0], REFUND_MS[1], 'refund', item.id) : null;
    this.rt.pix.updateItem({ id: item.id, status: 'paid', reason: null, pix_id: pixId, end_to_end_id: e2e, due_at: refundAt, updated_at: now });
    this.emit(item, { kind: 'paid', pixId, transactionId, endToEndId: e2e, reason: null, balanceAfter, at: now });
  }

  private reject(item: ItemRow, now: number, codes: readonly PixReason[]): void {
    const reason = this.rt.dialect.pixReason(this.rt.random.pick(codes, 'rejection', item.account, item.identifier));
    const ids = this.idsOf(item, now);
    const balanceAfter = this.rt.pix.balance(item.account);
    // Ids given at acceptance stay on the item; otherwise a rejected item has none.
    this.rt.pix.updateItem({ id: item.id, status: 'failed', reason, pix_id: item.pix_id, end_to_end_id: item.end_to_end_id, due_at: null, updated_at: now });
    this.emit(item, { kind: 'rejected', ...ids, reason, balanceAfter, at: now });
  }

  private refund(item: ItemRow, now: number): void {
    const reason = this.rt.dialect.pixReason(this.rt.random.pick(INSTABILITY, 'instability', item.account, item.identifier));
    const pixId = this.rt.nextId('pix');
    const transactionId = this.rt.nextId('transaction');
    const e2e = endToEndId(SANDBOX_INSTITUTION.ispb, now, pixId);
    this.rt.pix.insertTransfer({
      pix_id: pixId, account: item.account, item_id: item.id, identifier: item.identifier, kind: 'refund',
      amount: item.amount, end_to_end_id: e2e, transaction_id: transactionId, reason, created_at: now,
    });
    const balanceAfter = this.rt.pix.addToBalance(item.account, item.amount);
    this.rt.pix.updateItem({ id: item.id, status: 'returned', reason, pix_id: item.pix_id, end_to_end_id: item.end_to_end_id, due_at: null, updated_at: now });
    this.emit(item, { kind: 'refund', pixId, transactionId, endToEndId: e2e, reason, balanceAfter, at: now });
  }

  private emit(item: ItemRow, outcome: Omit<PixOutcome, 'eventId'>): void {
    const eventId = this.rt.nextId('event');
    recordEvent(this.rt, item.account, 'pix', eventId, pixEvent(item, { ...outcome, eventId }, this.rt.dialect.pixEvents));
  }

  private completeBatches(items: readonly ItemRow[]): void {
    for (const batchId of new Set(items.map((i) => i.batch_id))) this.rt.pix.completeBatchIfSettled(batchId);
  }
}
