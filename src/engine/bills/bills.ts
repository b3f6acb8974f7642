/** The bills the ledger holds, as `paybatch boleto list|resolve` read them. */
export { findBill, listBills, type BillRow } from '../../ledger/bill-repository.js';
