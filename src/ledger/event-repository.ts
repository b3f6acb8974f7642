import { sql, type Insertable } from 'kysely';
import type { Ledger } from './ledger.js';
import { preparedQuery } from './prepared-query.js';
import type { EventTopic, WebhookEventsTable } from './schema.js';

/**
 * The effect of an event stored but not applied yet (the daemon on SQLite acknowledges a delivery once it is stored,
 * and applies it right after, in order: see engine/webhooks/stored-events.ts). No effect an applied event gets is empty.
 */
export const NOT_APPLIED = '';

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
    effect: r.effect === NOT_APPLIED ? 'stored; not applied yet' : r.effect,
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
      .where('effect', '!=', NOT_APPLIED)
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

/**
 * Drops events received before `before` (their ids are no longer needed to recognise a repeated delivery); never one
 * not applied yet.
 */
export async function pruneEventsBefore(ledger: Ledger, before: Date): Promise<void> {
  await ledger.run(
    ledger.db.deleteFrom('webhook_events').where('received_at', '<', before.toISOString()).where('quarantine', 'is', null).where('effect', '!=', NOT_APPLIED),
  );
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

/** Stores an event not applied yet under its id; false when the id was stored already (a repeated delivery). */
export async function storeUnappliedEvent(ledger: Ledger, row: { event_id: string; kind: WebhookEventsTable['kind']; delivery_id: string | null; received_at: string; payload_json: string }): Promise<boolean> {
  const topic: EventTopic = row.kind === 'pix' ? 'pix' : 'unknown';
  const { changes } = await ledger.run(insertUnapplied(ledger, row.event_id, row.kind, row.delivery_id, row.received_at, row.payload_json, NOT_APPLIED, topic));
  return changes === 1;
}

const insertUnapplied = preparedQuery(
  (db, event_id: string, kind: WebhookEventsTable['kind'], delivery_id: string | null, received_at: string, payload_json: string, effect: string, topic: EventTopic) =>
    db.insertInto('webhook_events').values({ event_id, kind, delivery_id, received_at, payload_json, effect, topic }).onConflict((oc) => oc.column('event_id').doNothing()),
);

/**
 * Records what applying a stored event did; false when it was not waiting to be applied (applied already), and then
 * nothing changes.
 */
export async function recordEventEffect(ledger: Ledger, eventId: string, o: { effect: string; topic: EventTopic; quarantine: string | null }): Promise<boolean> {
  const { changes } = await ledger.run(setEffect(ledger, o.effect, o.topic, o.quarantine, eventId, NOT_APPLIED));
  return changes === 1;
}

const setEffect = preparedQuery((db, effect: string, topic: EventTopic, quarantine: string | null, event_id: string, notApplied: string) =>
  db.updateTable('webhook_events').set({ effect, topic, quarantine }).where('event_id', '=', event_id).where('effect', '=', notApplied),
);

/** An event stored and not applied yet, as stored. */
export interface UnappliedEvent {
  readonly eventId: string;
  readonly deliveryId: string | null;
  readonly receivedAt: string;
  readonly payloadJson: string;
}

/**
 * The events stored and not applied yet, in the order they were stored (SQLite's row order; PostgreSQL's by their
 * receipt time and id). A scan of the events kept: asked once when the daemon starts.
 */
export async function unappliedEvents(ledger: Ledger): Promise<UnappliedEvent[]> {
  const q = ledger.db.selectFrom('webhook_events').select(['event_id', 'delivery_id', 'received_at', 'payload_json']).where('effect', '=', NOT_APPLIED);
  const rows = await ledger.all(ledger.dialect === 'sqlite' ? q.orderBy(sql`rowid`) : q.orderBy('received_at').orderBy('event_id'));
  return rows.map((r) => ({ eventId: r.event_id, deliveryId: r.delivery_id, receivedAt: r.received_at, payloadJson: r.payload_json }));
}
