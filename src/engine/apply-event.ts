import { isForward, type ItemState } from '../domain/item-state.js';
import { returnActionFor } from '../domain/reasons.js';
import type { WebhookEvent } from '../domain/webhook-event.js';
import type { Ledger } from '../ledger/open-ledger.js';

type PixEvent = Extract<WebhookEvent, { kind: 'pix' }>;
type CallbackEvent = Extract<WebhookEvent, { kind: 'callback' }>;

/** Handles generic callbacks (bill returns and others); returns the effect to record. Runs inside the event's transaction. */
export type CallbackHandler = (ledger: Ledger, event: CallbackEvent, at: Date) => string;

/**
 * Stores a verified event under its id and applies its effect in the same transaction, so an event is either
 * durable with its effect or not there at all (the provider then retries). A repeated id changes nothing.
 */
export function recordWebhookEvent(
  ledger: Ledger,
  event: WebhookEvent,
  meta: { deliveryId: string | null; receivedAt: Date },
  onCallback: CallbackHandler = () => 'recorded; no handler for this event type',
): 'stored' | 'duplicate' {
  return ledger.transaction(() => {
    const seen = ledger.first(ledger.db.selectFrom('webhook_events').select('event_id').where('event_id', '=', event.eventId));
    if (seen) return 'duplicate';
    const effect = event.kind === 'pix' ? applyPixEvent(ledger, event, meta.receivedAt) : onCallback(ledger, event, meta.receivedAt);
    ledger.run(
      ledger.db.insertInto('webhook_events').values({
        event_id: event.eventId,
        kind: event.kind,
        delivery_id: meta.deliveryId,
        received_at: meta.receivedAt.toISOString(),
        payload_json: JSON.stringify(event.raw),
        effect,
      }),
    );
    return 'stored';
  });
}

/** A Pix payment event moves its item forward: paid, failed, or (a refund) returned with what the reason calls for. */
function applyPixEvent(ledger: Ledger, event: PixEvent, at: Date): string {
  const item = ledger.first(
    ledger.db.selectFrom('items').select(['id', 'status', 'pix_id', 'end_to_end_id']).where('identifier', '=', event.identifier),
  );
  if (!item) return `unknown identifier ${event.identifier}`;
  const target: ItemState = event.isRefund ? 'returned' : event.accepted ? 'paid' : 'failed';
  const iso = at.toISOString();
  const forward = isForward(item.status, target);
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
              status_changed_at: iso,
              reason: event.reason ?? eb.ref('reason'),
              return_action: target === 'returned' ? returnActionFor(event.reason) : eb.ref('return_action'),
            }
          : {}),
      }))
      .where('id', '=', item.id),
  );
  if (!forward) return `no change: item already ${item.status} (event says ${target})`;
  return target === 'returned' ? `item returned (${returnActionFor(event.reason)})` : `item ${target}`;
}
