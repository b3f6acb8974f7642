import type { Runtime } from './runtime.js';

/**
 * Stores an event and schedules its deliveries to the account's subscription, if it has one (events of an account
 * without a subscription are kept, never delivered). `lostWebhook` records a delivery that is never attempted;
 * `reorderWebhook` holds a delivery back 5–30 s so later events overtake it; `dupWebhook` schedules a second
 * delivery of the same event 0.5–5 s after the first.
 */
export function recordEvent(rt: Runtime, account: string, kind: string, eventId: string, body: unknown): void {
  const now = rt.clock.now();
  rt.webhooks.insertEvent({ event_id: eventId, account, kind, body: JSON.stringify(body), created_at: now });
  if (!rt.webhooks.subscription(account)) return;
  if (rt.random.chance(rt.faults.lostWebhook, 'lostWebhook', eventId)) {
    rt.webhooks.insertLostDelivery(eventId, account);
    rt.log(`fault lostWebhook: event ${eventId} will never be delivered`);
    return;
  }
  const held = rt.random.chance(rt.faults.reorderWebhook, 'reorderWebhook', eventId) ? rt.random.int(5_000, 30_000, 'reorderDelay', eventId) : 0;
  rt.webhooks.insertDelivery(eventId, account, 0, now + held);
  if (rt.random.chance(rt.faults.dupWebhook, 'dupWebhook', eventId)) {
    rt.webhooks.insertDelivery(eventId, account, 1, now + held + rt.random.int(500, 5_000, 'dupDelay', eventId));
  }
  rt.wake();
}
