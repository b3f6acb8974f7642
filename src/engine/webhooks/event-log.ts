/** The provider's events the ledger kept, as `paybatch events list` shows them. */
export { listEvents, type StoredEvent } from '../../ledger/event-repository.js';
