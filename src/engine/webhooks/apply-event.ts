import { claimedState, nextItemState, type ItemState } from '../../domain/item-state.js';
import { itemStateFromWord } from '../../domain/provider-words.js';
import { returnActionFor } from '../../domain/reasons.js';
import type { WebhookEvent } from '../../domain/webhook-event.js';
import { startSent } from '../../ledger/call-log.js';
import { isEventStored, storeEvent } from '../../ledger/event-repository.js';
import { itemForEvent, updateItem } from '../../ledger/item-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import { recordPixIdClaim } from '../../ledger/pix-id-claims.js';
import type { EventTopic } from '../../ledger/schema.js';

type PixEvent = Extract<WebhookEvent, { kind: 'pix' }>;
type CallbackEvent = Extract<WebhookEvent, { kind: 'callback' }>;

/**
 * Handles a generic callback (bill events and others): what applying it did, and what it was about. Runs inside the
 * event's transaction.
 */
export type CallbackHandler = (ledger: Ledger, event: CallbackEvent, at: Date) => Promise<{ effect: string; topic: EventTopic; quarantine?: string }>;

/** How events are applied under the profile. */
export interface EventRules {
  /** Generic callbacks; without one they are recorded as unknown. */
  readonly onCallback?: CallbackHandler;
  /** Words that mark a return as Pix instability beyond the built-in ones (the profile's `instabilityWords`). */
  readonly instabilityWords?: readonly string[];
  /** Status words beyond the built-in table (the profile's `statusWords`): an event's word is read like a page's. */
  readonly statusWords?: Readonly<Record<string, ItemState>>;
}

const unhandled: CallbackHandler = async () => ({ effect: 'recorded; no handler for callbacks', topic: 'unknown' });

/** How an event was delivered. */
export interface DeliveryMeta {
  readonly deliveryId: string | null;
  readonly receivedAt: Date;
  /** The body as received, stored as the event's payload; without it, `raw` serialised again. */
  readonly body?: string;
}

/**
 * Stores a verified event under its id and applies its effect in the same transaction, so an event is either
 * durable with its effect or not there at all (the provider then retries). A repeated id changes nothing. Called
 * inside another transaction (recordWebhookEvents), it is a savepoint of it and durable only once that commits.
 */
export function recordWebhookEvent(
  ledger: Ledger,
  event: WebhookEvent,
  meta: DeliveryMeta,
  rules: EventRules = {},
): Promise<'stored' | 'duplicate'> {
  return ledger.transaction((tx) => applyWebhookEvent(tx, event, meta, rules));
}

/** recordWebhookEvent's work, in a transaction the caller holds. */
async function applyWebhookEvent(ledger: Ledger, event: WebhookEvent, meta: DeliveryMeta, rules: EventRules): Promise<'stored' | 'duplicate'> {
  if (await isEventStored(ledger, event.eventId)) return 'duplicate';
  const receivedAt = meta.receivedAt.toISOString();
  const { effect, topic, quarantine } = await applyEffect(ledger, event, meta.receivedAt, rules);
  await storeEvent(ledger, {
    event_id: event.eventId,
    kind: event.kind,
    delivery_id: meta.deliveryId,
    received_at: receivedAt,
    payload_json: meta.body ?? JSON.stringify(event.raw),
    effect,
    topic,
    quarantine,
  });
  return 'stored';
}

/** What applying an event did to the ledger, and what it was about; `quarantine` says why it was kept aside instead. */
export interface EventEffect {
  readonly effect: string;
  readonly topic: EventTopic;
  readonly quarantine: string | null;
}

/** Applies an event's claim to the ledger (not the event's own row), in a transaction the caller holds. */
export async function applyEffect(ledger: Ledger, event: WebhookEvent, receivedAt: Date, rules: EventRules): Promise<EventEffect> {
  const { effect, topic, quarantine = null } =
    event.kind === 'pix'
      ? { ...(await applyPixEvent(ledger, event, receivedAt.toISOString(), rules)), topic: 'pix' as const }
      : await (rules.onCallback ?? unhandled)(ledger, event, receivedAt);
  return { effect, topic, quarantine };
}

/** A verified event and how it was delivered. */
export interface DeliveredEvent {
  readonly event: WebhookEvent;
  readonly meta: DeliveryMeta;
}

/** One event of a group, as recordWebhookEvents settles it: its outcome, or why it was not stored. */
export type GroupOutcome = { readonly ok: true; readonly outcome: 'stored' | 'duplicate' } | { readonly ok: false; readonly error: unknown };

/**
 * Records events that arrived together with ONE commit (STYLE.md: durable acknowledgements are grouped). Each is
 * applied as recordWebhookEvent does: an event whose effect throws is rolled back alone and settles `ok: false`, the
 * others still go in; an id repeated within the group is applied once (the later ones are 'duplicate'). Outcomes are
 * in the order of `events`, and hold only once this returns: when the commit itself fails it throws, and none of the
 * group may be acknowledged. A group where an effect threw is applied twice (see below), and so is its onCallback.
 */
export async function recordWebhookEvents(
  ledger: Ledger,
  events: readonly DeliveredEvent[],
  rules: EventRules = {},
): Promise<GroupOutcome[]> {
  // A savepoint per event (SAVEPOINT, its sub-journal, RELEASE) cost ~10% of storing an event, paid for the rare
  // effect that throws. So the group is applied without them first; only when something threw (everything of the
  // group is then rolled back) is it applied again from the same state, each event in a savepoint of its own.
  try {
    return await ledger.transaction(async (tx) => {
      const outcomes: GroupOutcome[] = [];
      for (const { event, meta } of events) outcomes.push({ ok: true, outcome: await applyWebhookEvent(tx, event, meta, rules) });
      return outcomes;
    });
  } catch {
    // An effect or the commit threw; the second pass tells which (a failing commit throws again).
  }
  return ledger.transaction(async (tx) => {
    const outcomes: GroupOutcome[] = [];
    for (const { event, meta } of events) {
      try {
        outcomes.push({ ok: true, outcome: await recordWebhookEvent(tx, event, meta, rules) });
      } catch (error) {
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  });
}

/**
 * A Pix payment event moves its item forward: paid, failed, or (a refund) returned with what the reason calls for —
 * a return is paid again only once the provider's item page confirms it (reprocess.ts). An event that disagrees with
 * the ledger (amount, key, an item of a batch never started) is not applied but quarantined: kept, alerted, and the
 * item left to be reconciled from the provider's own pages.
 */
async function applyPixEvent(ledger: Ledger, event: PixEvent, iso: string, rules: EventRules): Promise<{ effect: string; quarantine?: string }> {
  const instabilityWords = rules.instabilityWords ?? [];
  const item = await itemForEvent(ledger, event.identifier);
  if (!item) return { effect: `unknown identifier ${event.identifier}` };
  // Read only for an item whose batch the ledger does not yet hold as started: off the hot path.
  const started = item.batchStatus === 'started' || item.batchStatus === 'settled' || (await startSent(ledger, item.batch_id));
  const disagreement = disagreementOf(event, { ...item, started });
  if (disagreement !== null) return { effect: `quarantined: ${disagreement}`, quarantine: disagreement };
  const target = claimedState({ said: itemStateFromWord(event.transactionStatus, rules.statusWords), accepted: event.accepted, isRefund: event.isRefund });
  if (target === null) return { effect: `no change: status ${JSON.stringify(event.transactionStatus)} (accepted ${event.accepted}) says nothing settled` };
  const step = nextItemState({ status: item.status, undecided: item.return_action === null, returnConfirmed: item.return_confirmed_at !== null, recordState: item.record_state }, target, 'event');
  const explains = step === 'explain';
  const forward = step === 'move' || explains;
  // A refund carries its own ids, the return's: the payment's Pix id and end-to-end id (the receipt's) come only
  // from the payment's own news, even when the refund arrives first. The id an event gives is a claim too: the
  // receipt endpoint settles it when two events disagree (fetch-receipts.ts).
  if (!event.isRefund && event.pixId) await recordPixIdClaim(ledger, { itemId: item.id, pixId: event.pixId, endToEndId: event.endToEndId, eventId: event.eventId, at: new Date(iso) });
  await updateItem(ledger, item.id, {
    pix_id: event.isRefund ? item.pix_id : (item.pix_id ?? event.pixId),
    end_to_end_id: event.isRefund ? item.end_to_end_id : (item.end_to_end_id ?? event.endToEndId),
    updated_at: iso,
    ...(forward
      ? {
          status: target,
          ...(explains ? {} : { status_changed_at: iso }),
          ...(event.reason === null ? {} : { reason: event.reason }),
          ...(target === 'returned' ? { return_action: returnActionFor(event.reason, instabilityWords), return_claim: event.eventId } : {}),
          // What a rejection calls for; it is acted on only once an item page shows the item failed.
          ...(target === 'failed' ? { return_action: returnActionFor(event.reason, instabilityWords) } : {}),
        }
      : {}),
  });
  if (!forward) return { effect: `no change: item already ${item.status} (event says ${target})` };
  return { effect: target === 'returned' ? `item returned (${returnActionFor(event.reason, instabilityWords)}; paid again only once the provider confirms)` : `item ${target}` };
}

/** Why a Pix event cannot be about this ledger item, or null when it agrees with it. */
function disagreementOf(event: PixEvent, item: { amount_cents: number; key: string; batchStatus: string; started: boolean }): string | null {
  if (!item.started) return `the item's batch was never started (it is ${item.batchStatus})`;
  if (event.amountCents !== item.amount_cents) return `amount ${event.amountCents} centavos, but the item is of ${item.amount_cents}`;
  const to = (event.raw as { payload?: { to?: { key?: unknown } } }).payload?.to?.key;
  if (typeof to === 'string' && to !== '' && !sameKey(to, item.key)) return 'the destination key differs from the item\'s';
  return null;
}

/** Pix keys as providers write them back: case, punctuation and a country code (+55) may differ. */
function sameKey(a: string, b: string): boolean {
  const norm = (k: string) => k.toLowerCase().replace(/[^a-z0-9@]/g, '');
  const x = norm(a);
  const y = norm(b);
  return x === y || (x.length >= 8 && y.length >= 8 && (x.endsWith(y) || y.endsWith(x)));
}
