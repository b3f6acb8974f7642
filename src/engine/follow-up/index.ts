/** Following payments to the end: the provider's pages read into the ledger, reprocessing, receipts, the pass. The one module the rest of paybatch imports of this feature. */
export * from './compare-with-provider.js';
export * from './fetch-receipts.js';
export * from './follow-up.js';
export * from './news.js';
export * from './reconcile.js';
export * from '../pass-problem.js';
