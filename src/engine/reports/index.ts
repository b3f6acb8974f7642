/** A batch for accounting: its report, its rows exported, its saved receipts. The one module the rest of paybatch imports of this feature. */
export * from './batch-report.js';
export * from './export-batch.js';
export * from './saved-receipts.js';
export * from './period-statement.js';
export * from '../row-stories.js';
export * from './return-file.js';
export * from './bill-return-file.js';
