import type { Insertable } from 'kysely';
import type { Ledger } from './ledger.js';
import { preparedQuery } from './prepared-query.js';
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
export async function listEvents(ledger: Ledger, o: { topic?: EventTopic; limit: number }): Promise<StoredEvent[]> {
  let q = ledger.db.selectFrom('webhook_events').selectAll().orderBy('received_at', 'desc').orderBy('event_id').limit(o.limit);
  if (o.topic !== undefined) q = q.where('topic', '=', o.topic);
  return (await ledger.all(q)).map((r) => ({
    eventId: r.event_id,
    kind: r.kind,
    topic: r.topic,
    receivedAt: r.received_at,
    effect: r.effect,
    payload: JSON.parse(r.payload_json) as unknown,
  }));
}

/** The Pix events received in [from, to) that were applied (not quarantined), oldest first. */
export async function pixEventsReceived(ledger: Ledger, o: { from: string; to: string }): Promise<{ receivedAt: string; payload: unknown }[]> {
  const rows = await ledger.all(
    ledger.db
      .selectFrom('webhook_events')
      .select(['received_at', 'payload_json'])
      .where('kind', '=', 'pix')
      .where('quarantine', 'is', null)
      .where('received_at', '>=', o.from)
      .where('received_at', '<', o.to)
      .orderBy('received_at')
      .orderBy('event_id'),
  );
  return rows.map((r) => ({ receivedAt: r.received_at, payload: JSON.parse(r.payload_json) as unknown }));
}

/** Marks a stored event as quarantined after the fact: the provider's own record contradicted it. */
export async function quarantineEvent(ledger: Ledger, eventId: string, why: string): Promise<void> {
  await ledger.run(ledger.db.updateTable('webhook_events').set({ quarantine: why, effect: `quarantined: ${why}` }).where('event_id', '=', eventId));
}

/** Drops events received before `before` (their ids are no longer needed to recognise a repeated delivery). */
export async function pruneEventsBefore(ledger: Ledger, before: Date): Promise<void> {
  await ledger.run(ledger.db.deleteFrom('webhook_events').where('received_at', '<', before.toISOString()).where('quarantine', 'is', null));
}

/** Whether an event with this id was stored already (a repeated delivery). */
export async function isEventStored(ledger: Ledger, eventId: string): Promise<boolean> {
  return (await ledger.first(storedEvent(ledger, eventId))) !== undefined;
}

const storedEvent = preparedQuery((db, eventId: string) => db.selectFrom('webhook_events').select('event_id').where('event_id', '=', eventId));

/** Stores one event row. */
export async function storeEvent(ledger: Ledger, row: Insertable<WebhookEventsTable>): Promise<void> {
  await ledger.run(
    insertEvent(ledger, row.event_id, row.kind, row.delivery_id ?? null, row.received_at, row.payload_json, row.effect, row.topic ?? 'unknown', row.quarantine ?? null, row.alerted_at ?? null),
  );
}

// Every column named, defaults included: one SQL text whatever the row.
const insertEvent = preparedQuery(
  (
    db,
    event_id: string,
    kind: WebhookEventsTable['kind'],
    delivery_id: string | null,
    received_at: string,
    payload_json: string,
    effect: string,
    topic: EventTopic,
    quarantine: string | null,
    alerted_at: string | null,
  ) => db.insertInto('webhook_events').values({ event_id, kind, delivery_id, received_at, payload_json, effect, topic, quarantine, alerted_at }),
);
