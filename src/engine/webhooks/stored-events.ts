/**
 * Store, then apply (as large webhook consumers do): a delivery is acknowledged once its event is stored — durable,
 * not applied yet — and its claim is applied right after, in a transaction of its own that also records its effect.
 * An event is applied once: its row says whether it waits, and applying it changes that row in the same transaction.
 * Events are applied in the order they were stored within their lane (the same Pix item's, or the callbacks'), so a
 * later event never overtakes an earlier one about the same payment. What an event claims stays a claim: applying it
 * is applyEffect's, the same as recordWebhookEvent's.
 */
import { parseWebhookEvent, type EventReading, type WebhookEvent } from '../../domain/webhook-event.js';
import { recordEventEffect, storeUnappliedEvent, unappliedEvents } from '../../ledger/event-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import { applyEffect, type DeliveredEvent, type EventRules } from './apply-event.js';

/**
 * Stores events that arrived together with ONE commit, none applied: 'stored', or 'duplicate' for an id stored
 * already (earlier in the group too). Outcomes are in the order of `events` and hold once this resolves (the commit is
 * on disk by then); when the commit or its sync fails it throws, and none of the group may be acknowledged.
 */
export function storeWebhookEvents(ledger: Ledger, events: readonly DeliveredEvent[]): Promise<('stored' | 'duplicate')[]> {
  return ledger.transaction(async (tx) => {
    const outcomes: ('stored' | 'duplicate')[] = [];
    for (const { event, meta } of events) {
      const row = { event_id: event.eventId, kind: event.kind, delivery_id: meta.deliveryId, received_at: meta.receivedAt.toISOString(), payload_json: meta.body ?? JSON.stringify(event.raw) };
      outcomes.push((await storeUnappliedEvent(tx, row)) ? 'stored' : 'duplicate');
    }
    return outcomes;
  }, DURABLE_OFF_THE_LOOP);
}

/**
 * Events of one lane are applied in the order they were stored: a Pix event's lane is its item's identifier; every
 * callback shares one (which bill it moves is known only by applying it).
 */
export function laneOf(event: WebhookEvent): string {
  return event.kind === 'pix' ? `pix:${event.identifier}` : 'callback';
}

/**
 * What applyStoredEvents did with one event: `applied` (its effect recorded); `gone` (it no longer waited: applied
 * already, nothing changed); `failed` (its effect threw; rolled back, it still waits); `held` (an earlier event of its
 * lane failed in this call: not tried, it still waits).
 */
export type ApplyOutcome =
  | { readonly status: 'applied'; readonly effect: string }
  | { readonly status: 'gone' }
  | { readonly status: 'failed'; readonly error: unknown }
  | { readonly status: 'held' };

/** Thrown inside an event's transaction when its row no longer waits, to undo what applying it changed. */
class NotWaiting extends Error {}

/**
 * Applies stored events in the order given, with ONE commit, each as recordWebhookEvent applies one, and records each
 * one's effect on its row — only while the row still waits, so an event is never applied twice. An event whose effect
 * throws is rolled back alone (`failed`), and the later events of its lane are left waiting (`held`); the others still
 * go in. Outcomes are in the order of `events` and hold once this returns; when the commit fails it throws, and
 * nothing was applied. A group where something threw is applied twice (see recordWebhookEvents), its callbacks too.
 */
export async function applyStoredEvents(ledger: Ledger, events: readonly DeliveredEvent[], rules: EventRules = {}): Promise<ApplyOutcome[]> {
  const applyOne = async (tx: Ledger, { event, meta }: DeliveredEvent): Promise<ApplyOutcome> => {
    const e = await applyEffect(tx, event, meta.receivedAt, rules);
    if (!(await recordEventEffect(tx, event.eventId, e))) throw new NotWaiting();
    return { status: 'applied', effect: e.effect };
  };
  // Without a savepoint per event first (see recordWebhookEvents); only a group where something threw pays for them.
  // Not durable by itself: an apply lost to a power cut leaves its events stored as not applied, applied again then.
  try {
    return await ledger.transaction(async (tx) => {
      const outcomes: ApplyOutcome[] = [];
      for (const d of events) outcomes.push(await applyOne(tx, d));
      return outcomes;
    }, NOT_DURABLE);
  } catch {
    // An effect, a row no longer waiting, or the commit threw; the second pass tells which (a failing commit throws again).
  }
  return ledger.transaction(async (tx) => {
    const outcomes: ApplyOutcome[] = [];
    const failedLanes = new Set<string>();
    for (const d of events) {
      const lane = laneOf(d.event);
      if (failedLanes.has(lane)) {
        outcomes.push({ status: 'held' });
        continue;
      }
      try {
        outcomes.push(await tx.transaction((sp) => applyOne(sp, d)));
      } catch (error) {
        if (error instanceof NotWaiting) {
          outcomes.push({ status: 'gone' });
          continue;
        }
        failedLanes.add(lane);
        outcomes.push({ status: 'failed', error });
      }
    }
    return outcomes;
  }, NOT_DURABLE);
}

const NOT_DURABLE = { durable: false } as const;
/** Durable once this resolves, the disk's wait spent on other deliveries and on applying (TransactionOptions). */
const DURABLE_OFF_THE_LOOP = { durable: 'async' } as const;

/**
 * The events stored and not applied yet (a daemon stopped before applying them), in the order they were stored, read
 * as the receiver read them. One whose stored body no longer reads as an event (the profile's reading changed) is
 * quarantined, with why, rather than applied.
 */
export async function unappliedWebhookEvents(ledger: Ledger, reading?: Partial<EventReading>): Promise<DeliveredEvent[]> {
  const delivered: DeliveredEvent[] = [];
  for (const u of await unappliedEvents(ledger)) {
    let json: unknown = null;
    try {
      json = JSON.parse(u.payloadJson);
    } catch {
      // stored from a delivery the receiver read as JSON; answered below like any body that is no event
    }
    const parsed = parseWebhookEvent(json, reading);
    const meta = { deliveryId: u.deliveryId, receivedAt: new Date(u.receivedAt) };
    if (parsed.ok && parsed.event.eventId === u.eventId) delivered.push({ event: parsed.event, meta });
    else {
      const why = `its stored body no longer reads as this event (${parsed.ok ? `its id is ${parsed.event.eventId}` : parsed.reason})`;
      await recordEventEffect(ledger, u.eventId, { effect: `quarantined: ${why}`, topic: 'unknown', quarantine: why });
    }
  }
  return delivered;
}
