import type { Database as Db } from 'better-sqlite3';
import type { BillStore } from './bill-store.js';
import type { SimClock } from './clock.js';
import type { Dialect, DialectName } from './dialect.js';
import type { FaultRates } from './faults.js';
import type { PixStore } from './pix-store.js';
import type { Random } from './random.js';
import type { Meta } from './store.js';
import type { WebhookStore } from './webhook-store.js';

/** Knobs that are not faults. Durations in simulated milliseconds. */
export interface Settings {
  readonly pageSize: number;
  /** How long a stale item waits, after it would have settled, before an item-list query settles it. */
  readonly staleMs: number;
  /** Delivery attempts of a webhook event before the sandbox gives up. */
  readonly webhookAttempts: number;
  readonly dialect: DialectName;
}

/** Everything routes and background jobs share. */
export interface Runtime {
  readonly db: Db;
  readonly meta: Meta;
  readonly pix: PixStore;
  readonly webhooks: WebhookStore;
  readonly bills: BillStore;
  readonly clock: SimClock;
  readonly random: Random;
  readonly faults: FaultRates;
  readonly settings: Settings;
  /** What goes over the wire where the provider's API leaves a choice open. */
  readonly dialect: Dialect;
  /** A new id of a kind (batch, item, pix, event…): a UUID from the seed, the state file's nonce and a counter. */
  nextId(kind: string): string;
  /** Tells the background jobs that work may be due (new events, a start, the clock moved). */
  wake(): void;
  log(line: string): void;
}
