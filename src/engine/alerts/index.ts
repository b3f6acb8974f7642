/** What needs a person: raising alerts from the ledger's state, listing and acknowledging them. The one module the rest of paybatch imports of this feature. */
export * from './alert-inbox.js';
export * from './attention.js';
