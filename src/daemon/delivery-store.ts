import { performance } from 'node:perf_hooks';
import type { EventReading } from '../domain/webhook-event.js';
import type { News } from '../engine/follow-up/index.js';
import { applyStoredEvents, laneOf, recordWebhookEvents, storeWebhookEvents, unappliedWebhookEvents, type DeliveredEvent, type EventRules } from '../engine/webhooks/index.js';
import type { Ledger } from '../ledger/open-ledger.js';
import { groupCommit, type Settled } from './group-commit.js';
import type { DaemonLogEntry } from './log-events.js';
import type { ReceiverOptions } from './webhook-receiver.js';

/** What the receiver stores deliveries with, and what is left to apply. */
export interface DeliveryStore {
  /** The receiver's onEvent: resolves once the event is durable (stored, on SQLite not applied yet). */
  readonly onEvent: ReceiverOptions['onEvent'];
  /** Events stored and applied so far, what waits to be applied and how long it waited. */
  state(): DeliveryState;
  /** Applies what waits (unless applying fails), then stops applying; what is left is applied at the next start. */
  close(): Promise<void>;
}

export interface DeliveryState {
  readonly stored: number;
  readonly applied: number;
  readonly waiting: number;
  /** How long the oldest event waiting has waited since it was stored, ms (0 when none waits). */
  readonly oldestWaitMs: number;
  /** From an event's store to its apply (its commit), ms: the longest and the mean, over the events applied. */
  readonly lagMs: { readonly max: number; readonly mean: number };
}

/** Events applied per transaction, at most. */
const APPLY_BATCH = 512;
/**
 * While deliveries come, applying waits for a lull (none for QUIET_MS), so a burst is answered at the pace of storing
 * alone — unless the oldest event has waited MAX_WAIT_MS, or MAX_WAITING wait.
 */
const QUIET_MS = 10;
const MAX_WAIT_MS = 2_000;
const MAX_WAITING = 100_000;
/**
 * Groups of deliveries being stored at once: the next group is written while the one before waits for the disk
 * (storeWebhookEvents syncs off the event loop), and the syncs are shared.
 */
const STORES_AT_ONCE = 4;
/** After applying failed (an effect threw, the ledger away), trying again after this long. */
const RETRY_MS = 5_000;

interface Waiting {
  readonly delivered: DeliveredEvent;
  readonly lane: string;
  /** performance.now() when it was stored (for a recovered event: when it was read back). */
  readonly storedAt: number;
}

/**
 * The receiver's store for a ledger. Deliveries that arrive together are stored with one commit (groupCommit), and
 * each resolves only once that commit is done.
 *
 * On SQLite (one daemon per ledger) the store holds the event only, marked not applied, and the delivery is answered
 * then; applying follows right after, in order, a batch of events per transaction (engine/webhooks/stored-events.ts):
 * in a lull of deliveries, or once the oldest waited MAX_WAIT_MS. Events a stopped daemon left unapplied are read back
 * first, ahead of any new one. An event whose effect throws waits, with the later ones of its lane (its item), and is
 * tried again after RETRY_MS. On PostgreSQL, where several hosts may receive the same item's events, each event is
 * applied in the transaction that stores it, so the order of the commits is the order of the events.
 */
export function storeDeliveries(ledger: Ledger, rules: EventRules, o: { reading?: Partial<EventReading>; log?: (e: DaemonLogEntry) => void; news?: News } = {}): DeliveryStore {
  if (ledger.dialect !== 'sqlite') return storedWithEffect(ledger, rules, o.news);
  const log = o.log ?? (() => {});
  let stored = 0;
  let applied = 0;
  let lagSum = 0;
  let lagMax = 0;
  /** Deliveries handed to the store and not settled yet, and when the last came: applying waits for a lull. */
  let storing = 0;
  let lastDelivery = 0;
  let queue: Waiting[] = [];
  let recovered = false;
  let running: Promise<void> | null = null;
  let applying = false;
  let scheduled = false;
  let closing = false;
  /** Closed: nothing more is applied by this daemon. */
  let stopped = false;
  /** Lanes whose first event failed, until when they wait; the whole queue waits while `pausedUntil` (the ledger failed). */
  const blocked = new Map<string, number>();
  let pausedUntil = 0;
  let wake: NodeJS.Timeout | null = null;

  /** The last group's turn to queue its events: groups are queued for applying in the order they were committed. */
  let queued: Promise<unknown> = Promise.resolve();
  const store = groupCommit(
    async (group: readonly DeliveredEvent[]): Promise<Settled<'stored' | 'duplicate'>[]> => {
      // Transactions take the ledger in the order asked, so the groups commit in this order; their syncs may overlap.
      const storing = storeWebhookEvents(ledger, group);
      const turn = queued.then(() => storing);
      queued = turn.catch(() => {});
      const outcomes = await turn;
      const at = performance.now();
      group.forEach((d, i) => {
        if (outcomes[i] !== 'stored') return;
        stored += 1;
        // The payload is in the ledger now; the event is what applying needs.
        queue.push({ delivered: { event: d.event, meta: { deliveryId: d.meta.deliveryId, receivedAt: d.meta.receivedAt } }, lane: laneOf(d.event), storedAt: at });
      });
      schedule();
      return outcomes.map((outcome) => ({ ok: true, outcome }));
    },
    { overlap: STORES_AT_ONCE },
  );

  /** Applies on the next turn of the event loop; asked while applying, once more after. */
  let again = false;
  function schedule(): void {
    if (stopped) return;
    if (applying) again = true;
    if (scheduled || applying) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void run();
    });
  }

  /** applyWaiting, one at a time. */
  function run(): Promise<void> {
    if (applying) return running ?? Promise.resolve();
    applying = true;
    running = applyWaiting().finally(() => {
      running = null;
      applying = false;
      if (again && !closing) schedule();
    });
    return running;
  }

  function mayApply(): boolean {
    if (stopped || performance.now() < pausedUntil) return false;
    if (!recovered) return true;
    if (queue.length === 0) return false;
    const now = performance.now();
    if (closing || (storing === 0 && now - lastDelivery >= QUIET_MS) || queue.length >= MAX_WAITING) return true;
    return now - queue[0]!.storedAt >= MAX_WAIT_MS;
  }

  /** One timer: the earliest moment something waiting may be applied. */
  let wakeAt = Infinity;
  function wakeIn(ms: number): void {
    const at = performance.now() + Math.max(1, ms);
    if (closing || at >= wakeAt) return;
    if (wake) clearTimeout(wake);
    wakeAt = at;
    wake = setTimeout(() => {
      wake = null;
      wakeAt = Infinity;
      schedule();
    }, Math.max(1, ms));
    wake.unref();
  }

  /** The next events to apply, in order, leaving out the lanes that wait after a failure. */
  function nextBatch(now: number): Waiting[] {
    const batch: Waiting[] = [];
    for (const w of queue) {
      const until = blocked.get(w.lane);
      if (until !== undefined) {
        if (until > now) continue;
        blocked.delete(w.lane);
      }
      batch.push(w);
      if (batch.length === APPLY_BATCH) break;
    }
    return batch;
  }

  /** The ledger failed (away, busy): everything waits RETRY_MS. */
  function pause(error: unknown): void {
    notApplied(log, null, error);
    pausedUntil = performance.now() + RETRY_MS;
    wakeIn(RETRY_MS);
  }

  async function applyWaiting(): Promise<void> {
    again = false;
    while (mayApply()) {
      if (!recovered) {
        try {
          const unapplied = await unappliedWebhookEvents(ledger, o.reading);
          // Those stored since this daemon started are queued already, behind the ones read back.
          const known = new Set(queue.map((w) => w.delivered.event.eventId));
          const at = performance.now();
          const left = unapplied.filter((d) => !known.has(d.event.eventId));
          queue = [...left.map((d) => ({ delivered: d, lane: laneOf(d.event), storedAt: at })), ...queue];
          recovered = true;
        } catch (error) {
          pause(error);
          return;
        }
        continue;
      }
      const batch = nextBatch(performance.now());
      if (batch.length === 0) {
        // Only lanes that wait after a failure are left.
        wakeIn(Math.min(...blocked.values()) - performance.now());
        return;
      }
      let outcomes;
      try {
        outcomes = await applyStoredEvents(ledger, batch.map((w) => w.delivered), rules);
      } catch (error) {
        pause(error);
        return;
      }
      const at = performance.now();
      const done = new Set<Waiting>();
      batch.forEach((w, i) => {
        const outcome = outcomes[i]!;
        if (outcome.status === 'applied' || outcome.status === 'gone') {
          done.add(w);
          if (outcome.status === 'applied') {
            applied += 1;
            const lag = at - w.storedAt;
            lagSum += lag;
            lagMax = Math.max(lagMax, lag);
          }
        } else if (outcome.status === 'failed') {
          blocked.set(w.lane, at + RETRY_MS);
          notApplied(log, w.delivered.event.eventId, outcome.error);
        }
      });
      queue = queue.filter((w) => !done.has(w));
      if (done.size > 0) o.news?.tell();
      // Deliveries get their turn between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Deliveries still coming (a lull schedules this again), or a pause: at the latest then.
    if (queue.length > 0) wakeIn(Math.max(pausedUntil, Math.min(queue[0]!.storedAt + MAX_WAIT_MS, storing === 0 ? lastDelivery + QUIET_MS : Infinity)) - performance.now());
  }

  // Events a stopped daemon left unapplied are read back (and applied) at once.
  schedule();
  return {
    onEvent: (event, meta) => {
      storing += 1;
      lastDelivery = performance.now();
      return store.submit({ event, meta }).finally(() => {
        storing -= 1;
        // Nothing more to store right now: a lull, unless another delivery comes within QUIET_MS.
        if (storing === 0 && queue.length > 0) wakeIn(QUIET_MS);
      });
    },
    state: () => ({
      stored,
      applied,
      waiting: queue.length,
      oldestWaitMs: queue.length === 0 ? 0 : Math.round(performance.now() - queue[0]!.storedAt),
      lagMs: { max: Math.round(lagMax), mean: applied === 0 ? 0 : Math.round(lagSum / applied) },
    }),
    async close() {
      closing = true;
      if (wake) clearTimeout(wake);
      wake = null;
      // Each round applies what it can; it stops once a round leaves the queue as it was (what failed waits for the next start).
      for (let before = -1; (queue.length > 0 || !recovered) && queue.length !== before; ) {
        before = queue.length;
        await run();
      }
      await running;
      stopped = true;
    },
  };
}

/** PostgreSQL's: each event stored and applied in one transaction, a group of deliveries per commit. */
function storedWithEffect(ledger: Ledger, rules: EventRules, news: News | undefined): DeliveryStore {
  let stored = 0;
  const store = groupCommit((group: readonly DeliveredEvent[]) => recordWebhookEvents(ledger, group, rules));
  return {
    onEvent: async (event, meta) => {
      const outcome = await store.submit({ event, meta });
      if (outcome === 'stored') {
        stored += 1;
        news?.tell();
      }
      return outcome;
    },
    state: () => ({ stored, applied: stored, waiting: 0, oldestWaitMs: 0, lagMs: { max: 0, mean: 0 } }),
    close: async () => {},
  };
}

function notApplied(log: (e: DaemonLogEntry) => void, eventId: string | null, error: unknown): void {
  log({
    level: 'error',
    event: 'webhook_not_applied',
    msg: 'webhook event stored but not applied yet; trying again shortly',
    ...(eventId === null ? {} : { eventId }),
    error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
  });
}
