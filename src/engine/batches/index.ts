/** Pix batches at the provider: submitting, starting, scheduling, deleting, and reading a batch as people see it. The one module the rest of paybatch imports of this feature. */
export * from './batch-actions.js';
export * from './batch-outcomes.js';
export * from './batches.js';
export * from './not-yet-started.js';
export * from './schedule-batch.js';
export * from './submit-batch.js';
export * from './batch-lineage.js';
