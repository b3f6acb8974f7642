/** Bill payments: reading a bill code, planning, paying (never twice), approving, and the bills' documents. The one module the rest of paybatch imports of this feature. */
export * from './approve-bill.js';
export * from './bill-documents.js';
export * from './bill-plan.js';
export * from './bills.js';
export * from './pay-bill.js';
export * from './plan-bills.js';
export * from './resolve-bill.js';
export * from './scheduled-bills.js';
