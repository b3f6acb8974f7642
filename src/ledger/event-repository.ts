import type { Insertable } from 'kysely';
import type Sqlite from 'better-sqlite3';
import { sqliteOf, type Ledger } from './ledger.js';
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
  return statementsOf(ledger).isStored.get(eventId) !== undefined;
}

/** Stores one event row. */
export function storeEvent(ledger: Ledger, row: Insertable<WebhookEventsTable>): void {
  statementsOf(ledger).store.run(
    row.event_id,
    row.kind,
    row.delivery_id ?? null,
    row.received_at,
    row.payload_json,
    row.effect,
    row.topic ?? 'unknown',
    row.quarantine ?? null,
    row.alerted_at ?? null,
  );
}

// Every delivery runs these two: prepared once per connection (STYLE.md: hot paths use prepared statements).
type StoreParameters = [string, string, string | null, string, string, string, string, string | null, string | null];
const prepared = new WeakMap<Sqlite.Database, { isStored: Sqlite.Statement<[string]>; store: Sqlite.Statement<StoreParameters> }>();

function statementsOf(ledger: Ledger): { isStored: Sqlite.Statement<[string]>; store: Sqlite.Statement<StoreParameters> } {
  const raw = sqliteOf(ledger);
  let s = prepared.get(raw);
  if (!s) {
    s = {
      isStored: raw.prepare<[string]>('SELECT 1 FROM webhook_events WHERE event_id = ?'),
      store: raw.prepare<StoreParameters>(
        `INSERT INTO webhook_events (event_id, kind, delivery_id, received_at, payload_json, effect, topic, quarantine, alerted_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
    };
    prepared.set(raw, s);
  }
  return s;
}
