import { isForward, type ItemState } from '../domain/item-state.js';
import { returnActionFor } from '../domain/reasons.js';
import type { WebhookEvent } from '../domain/webhook-event.js';
import type { Ledger } from '../ledger/open-ledger.js';
import type { EventTopic } from '../ledger/schema.js';

type PixEvent = Extract<WebhookEvent, { kind: 'pix' }>;
type CallbackEvent = Extract<WebhookEvent, { kind: 'callback' }>;

/**
 * Handles a generic callback (bill events and others): what applying it did, and what it was about. Runs inside the
 * event's transaction.
 */
export type CallbackHandler = (ledger: Ledger, event: CallbackEvent, at: Date) => { effect: string; topic: EventTopic };

/** How events are applied under the profile. */
export interface EventRules {
  /** Generic callbacks; without one they are recorded as unknown. */
  readonly onCallback?: CallbackHandler;
  /** Words that mark a return as Pix instability beyond the built-in ones (the profile's `instabilityWords`). */
  readonly instabilityWords?: readonly string[];
}

const unhandled: CallbackHandler = () => ({ effect: 'recorded; no handler for callbacks', topic: 'unknown' });

/**
 * Stores a verified event under its id and applies its effect in the same transaction, so an event is either
 * durable with its effect or not there at all (the provider then retries). A repeated id changes nothing.
 */
export function recordWebhookEvent(
  ledger: Ledger,
  event: WebhookEvent,
  meta: { deliveryId: string | null; receivedAt: Date },
  rules: EventRules = {},
): 'stored' | 'duplicate' {
  return ledger.transaction(() => {
    const seen = ledger.first(ledger.db.selectFrom('webhook_events').select('event_id').where('event_id', '=', event.eventId));
    if (seen) return 'duplicate';
    const { effect, topic } =
      event.kind === 'pix'
        ? { effect: applyPixEvent(ledger, event, meta.receivedAt, rules.instabilityWords ?? []), topic: 'pix' as const }
        : (rules.onCallback ?? unhandled)(ledger, event, meta.receivedAt);
    ledger.run(
      ledger.db.insertInto('webhook_events').values({
        event_id: event.eventId,
        kind: event.kind,
        delivery_id: meta.deliveryId,
        received_at: meta.receivedAt.toISOString(),
        payload_json: JSON.stringify(event.raw),
        effect,
        topic,
      }),
    );
    return 'stored';
  });
}

/** A Pix payment event moves its item forward: paid, failed, or (a refund) returned with what the reason calls for. */
function applyPixEvent(ledger: Ledger, event: PixEvent, at: Date, instabilityWords: readonly string[]): string {
  const item = ledger.first(
    ledger.db.selectFrom('items').select(['id', 'status', 'pix_id', 'end_to_end_id', 'return_action']).where('identifier', '=', event.identifier),
  );
  if (!item) return `unknown identifier ${event.identifier}`;
  const target: ItemState = event.isRefund ? 'returned' : event.accepted ? 'paid' : 'failed';
  const iso = at.toISOString();
  // A return seen first in the item pages, which give no reason, waits for the refund event to say why.
  const explains = event.isRefund && item.status === 'returned' && item.return_action === null;
  const forward = isForward(item.status, target) || explains;
  // A refund carries its own id; the payment's pix id (the receipt's) stays.
  const pixId = event.isRefund ? item.pix_id : (item.pix_id ?? event.pixId);
  ledger.run(
    ledger.db
      .updateTable('items')
      .set((eb) => ({
        pix_id: pixId,
        end_to_end_id: item.end_to_end_id ?? event.endToEndId,
        updated_at: iso,
        ...(forward
          ? {
              status: target,
              status_changed_at: explains ? eb.ref('status_changed_at') : iso,
              reason: event.reason ?? eb.ref('reason'),
              return_action: target === 'returned' ? returnActionFor(event.reason, instabilityWords) : eb.ref('return_action'),
            }
          : {}),
      }))
      .where('id', '=', item.id),
  );
  if (!forward) return `no change: item already ${item.status} (event says ${target})`;
  return target === 'returned' ? `item returned (${returnActionFor(event.reason, instabilityWords)})` : `item ${target}`;
}
