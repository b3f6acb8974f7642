import type { Database as Db } from 'better-sqlite3';

export interface SubscriptionRow {
  account: string;
  id: string;
  url: string;
  secret: string;
  created_at: number;
}

export interface DeliveryRow {
  id: number;
  event_id: string;
  account: string;
  /** 0 for the delivery of an event, 1 for the injected duplicate. */
  copy: number;
  /** pending → delivered | failed (gave up); lost (the lostWebhook fault: never attempted). */
  status: string;
  attempts: number;
  due_at: number | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: number | null;
}

export interface EventRow {
  event_id: string;
  account: string;
  kind: string;
  body: string;
  created_at: number;
}

function statements(db: Db) {
  return {
    subscribe: db.prepare(
      'INSERT INTO subscriptions (account, id, url, secret, created_at) VALUES (@account, @id, @url, @secret, @created_at) ON CONFLICT (account) DO UPDATE SET id = excluded.id, url = excluded.url, secret = excluded.secret, created_at = excluded.created_at',
    ),
    subscription: db.prepare<[string], SubscriptionRow>('SELECT * FROM subscriptions WHERE account = ?'),
    insertEvent: db.prepare('INSERT INTO events (event_id, account, kind, body, created_at) VALUES (@event_id, @account, @kind, @body, @created_at)'),
    event: db.prepare<[string], EventRow>('SELECT * FROM events WHERE event_id = ?'),
    insertDelivery: db.prepare("INSERT INTO deliveries (event_id, account, copy, status, due_at) VALUES (?, ?, ?, 'pending', ?)"),
    insertLostDelivery: db.prepare("INSERT INTO deliveries (event_id, account, copy, status, due_at) VALUES (?, ?, 0, 'lost', NULL)"),
    dueDeliveries: db.prepare<[number, number], DeliveryRow>('SELECT * FROM deliveries WHERE due_at <= ? ORDER BY due_at, id LIMIT ?'),
    nextDue: db.prepare<[], { at: number | null }>('SELECT MIN(due_at) AS at FROM deliveries WHERE due_at IS NOT NULL'),
    delivered: db.prepare("UPDATE deliveries SET status = 'delivered', attempts = attempts + 1, due_at = NULL, last_status = ?, last_error = NULL, delivered_at = ? WHERE id = ?"),
    attemptFailed: db.prepare('UPDATE deliveries SET status = ?, attempts = attempts + 1, due_at = ?, last_status = ?, last_error = ? WHERE id = ?'),
  };
}

/** Webhook subscriptions (one per account), the events produced, and their deliveries. */
export class WebhookStore {
  private readonly q: ReturnType<typeof statements>;

  constructor(db: Db) {
    this.q = statements(db);
  }

  subscribe(row: SubscriptionRow): void {
    this.q.subscribe.run(row);
  }

  subscription(account: string): SubscriptionRow | undefined {
    return this.q.subscription.get(account);
  }

  insertEvent(row: EventRow): void {
    this.q.insertEvent.run(row);
  }

  event(eventId: string): EventRow | undefined {
    return this.q.event.get(eventId);
  }

  insertDelivery(eventId: string, account: string, copy: number, dueAt: number): void {
    this.q.insertDelivery.run(eventId, account, copy, dueAt);
  }

  /** Records the delivery of an event that the provider "lost": the inspection routes show it, nobody attempts it. */
  insertLostDelivery(eventId: string, account: string): void {
    this.q.insertLostDelivery.run(eventId, account);
  }

  dueDeliveries(now: number, limit: number): DeliveryRow[] {
    return this.q.dueDeliveries.all(now, limit);
  }

  nextDue(): number | null {
    return this.q.nextDue.get()?.at ?? null;
  }

  markDelivered(id: number, status: number, now: number): void {
    this.q.delivered.run(status, now, id);
  }

  /** Records a failed attempt: retried at `retryAt`, or given up (`failed`) when that is null. */
  markAttemptFailed(id: number, retryAt: number | null, status: number | null, error: string): void {
    this.q.attemptFailed.run(retryAt === null ? 'failed' : 'pending', retryAt, status, error, id);
  }
}
