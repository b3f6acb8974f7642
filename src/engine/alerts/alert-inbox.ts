/** The alerts recorded in the ledger, as `paybatch alerts` lists and acknowledges them. */
export { acknowledgeAlerts, listAlerts, type AcknowledgeResult, type StoredAlert } from '../../ledger/alert-repository.js';
