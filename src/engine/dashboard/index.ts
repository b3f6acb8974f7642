/** The read models of the local web dashboard. The one module the rest of paybatch imports of this feature. */
export * from './dashboard.js';
export * from './daemon-status.js';
export * from './statement.js';
