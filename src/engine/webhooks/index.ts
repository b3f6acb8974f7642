/** Provider events: storing a delivery and applying what it claims to the ledger (a claim, never the record). The one module the rest of paybatch imports of this feature. */
export * from './apply-callback.js';
export * from './apply-event.js';
export * from './event-log.js';
export * from './stored-events.js';
