/** Importing a payment sheet: checking, planning, staging and sending its batches; retrying failed rows. The one module the rest of paybatch imports of this feature. */
export * from './check-sheet.js';
export * from './import-sheet.js';
export * from './retry-batch.js';
export * from './import-refusal.js';
