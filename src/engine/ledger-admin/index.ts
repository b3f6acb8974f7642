/** Looking after the ledger: migrating, copying, backing up and checking it. The one module the rest of paybatch imports of this feature. */
export * from './ledger-admin.js';
