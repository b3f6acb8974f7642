import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import type { Runtime } from './runtime.js';
import type { DeliveryRow } from './webhook-store.js';

/** Simulated seconds before attempt 2, 3, …; the last step repeats. About 28 simulated hours over 10 attempts. */
const BACKOFF_SECONDS = [5, 30, 120, 600, 1_800, 3_600, 7_200, 18_000, 36_000];
const MAX_IN_FLIGHT = 8;
/** Real time a receiver has to answer one delivery. */
const ATTEMPT_TIMEOUT_MS = 10_000;

/**
 * Delivers webhook events: POST of the event's JSON to the account's current subscription, with the dialect's proof
 * of origin (paybatch: Standard Webhooks signature headers, `webhook-id` = the event id so a redelivery has the same
 * id, `webhook-timestamp` in real Unix seconds since receivers compare it with their own clock; spec: the secret in
 * a header; iso: an HMAC over real milliseconds and a fresh nonce). Any answer but 2xx, or no answer, is retried with
 * backoff in simulated time until `webhookAttempts` attempts; every attempt is recorded.
 */
export class WebhookSender {
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly agent = new Agent({ connections: MAX_IN_FLIGHT, headersTimeout: ATTEMPT_TIMEOUT_MS, bodyTimeout: ATTEMPT_TIMEOUT_MS });
  private readonly abort = new AbortController();

  constructor(private readonly rt: Runtime) {}

  /** Starts the deliveries that are due, as far as free connections allow; returns the next due time or null. */
  runDue(now: number): number | null {
    const candidates = this.rt.webhooks.dueDeliveries(now, this.inFlight.size + MAX_IN_FLIGHT);
    for (const delivery of candidates) {
      if (this.inFlight.size >= MAX_IN_FLIGHT) break;
      if (this.inFlight.has(delivery.id)) continue;
      const attempt = this.attempt(delivery).finally(() => {
        this.inFlight.delete(delivery.id);
        this.rt.wake();
      });
      this.inFlight.set(delivery.id, attempt);
    }
    if (this.inFlight.size >= MAX_IN_FLIGHT) return null; // a finishing attempt wakes the scheduler
    const waiting = this.rt.webhooks.dueDeliveries(Number.MAX_SAFE_INTEGER, this.inFlight.size + 1).find((d) => !this.inFlight.has(d.id));
    return waiting?.due_at ?? null;
  }

  /** Abandons attempts in flight (they stay pending and are retried after a restart) and closes connections. */
  async close(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled(this.inFlight.values());
    await this.agent.destroy();
  }

  private async attempt(delivery: DeliveryRow): Promise<void> {
    const event = this.rt.webhooks.event(delivery.event_id);
    const subscription = this.rt.webhooks.subscription(delivery.account);
    if (!event || !subscription) return this.failed(delivery, null, 'no subscription', true);
    if (this.rt.random.chance(this.rt.faults.webhookDown, 'webhookDown', delivery.id, delivery.attempts)) {
      return this.failed(delivery, null, 'receiver down (injected webhookDown fault)');
    }
    const realNow = Date.now();
    const proof = {
      secret: subscription.secret, eventId: event.event_id, timestampSeconds: Math.floor(realNow / 1000), timestampMs: realNow,
      nonce: randomBytes(16).toString('hex'), body: event.body,
    };
    try {
      const response = await request(subscription.url, {
        method: 'POST',
        dispatcher: this.agent,
        signal: this.abort.signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'paybatch-sandbox',
          ...this.rt.dialect.deliveryHeaders(proof),
        },
        body: event.body,
      });
      await response.body.dump();
      if (response.statusCode >= 200 && response.statusCode < 300) {
        this.rt.webhooks.markDelivered(delivery.id, response.statusCode, this.rt.clock.now());
      } else {
        this.failed(delivery, response.statusCode, `receiver answered ${response.statusCode}`);
      }
    } catch (error) {
      if (this.abort.signal.aborted) return;
      this.failed(delivery, null, error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    }
  }

  private failed(delivery: DeliveryRow, status: number | null, error: string, giveUp = false): void {
    const attempts = delivery.attempts + 1;
    const last = giveUp || attempts >= this.rt.settings.webhookAttempts;
    const wait = BACKOFF_SECONDS[Math.min(attempts - 1, BACKOFF_SECONDS.length - 1)] ?? 0;
    this.rt.webhooks.markAttemptFailed(delivery.id, last ? null : this.rt.clock.now() + wait * 1000, status, error);
    if (last) this.rt.log(`webhook event ${delivery.event_id} given up after ${attempts} attempt(s): ${error}`);
  }
}
