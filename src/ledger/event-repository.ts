import type { Insertable } from 'kysely';
import type { Ledger } from './ledger.js';
import type { EventTopic, WebhookEventsTable } from './schema.js';

export interface StoredEvent {
  readonly eventId: string;
  readonly kind: 'pix' | 'callback';
  readonly topic: EventTopic;
  readonly receivedAt: string;
  readonly effect: string;
  /** The body as received (already verified). */
  readonly payload: unknown;
}

/** Webhook events kept in the ledger, newest first; only those of `topic` when given. */
export function listEvents(ledger: Ledger, o: { topic?: EventTopic; limit: number }): StoredEvent[] {
  let q = ledger.db.selectFrom('webhook_events').selectAll().orderBy('received_at', 'desc').orderBy('event_id').limit(o.limit);
  if (o.topic !== undefined) q = q.where('topic', '=', o.topic);
  return ledger.all(q).map((r) => ({
    eventId: r.event_id,
    kind: r.kind,
    topic: r.topic,
    receivedAt: r.received_at,
    effect: r.effect,
    payload: JSON.parse(r.payload_json) as unknown,
  }));
}

/** Marks a stored event as quarantined after the fact: the provider's own record contradicted it. */
export function quarantineEvent(ledger: Ledger, eventId: string, why: string): void {
  ledger.run(ledger.db.updateTable('webhook_events').set({ quarantine: why, effect: `quarantined: ${why}` }).where('event_id', '=', eventId));
}

/** Drops events received before `before` (their ids are no longer needed to recognise a repeated delivery). */
export function pruneEventsBefore(ledger: Ledger, before: Date): void {
  ledger.run(ledger.db.deleteFrom('webhook_events').where('received_at', '<', before.toISOString()).where('quarantine', 'is', null));
}

/** Whether an event with this id was stored already (a repeated delivery). */
export function isEventStored(ledger: Ledger, eventId: string): boolean {
  return ledger.first(ledger.db.selectFrom('webhook_events').select('event_id').where('event_id', '=', eventId)) !== undefined;
}

export function storeEvent(ledger: Ledger, row: Insertable<WebhookEventsTable>): void {
  ledger.run(ledger.db.insertInto('webhook_events').values(row));
}
