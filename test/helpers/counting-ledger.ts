import { bindSqlite, sqliteOf, type Ledger } from '../../src/ledger/ledger.js';

/**
 * The ledger, telling `onTransaction` of every transaction begun through it or through the `tx` its transactions
 * hand out (`nested`: a savepoint of the open one), so a test can count commits and savepoints.
 */
export function countingTransactions(ledger: Ledger, onTransaction: (nested: boolean) => void, nested = false): Ledger {
  const transaction: Ledger['transaction'] = (fn) => {
    onTransaction(nested);
    return ledger.transaction((tx) => fn(countingTransactions(tx, onTransaction, true)));
  };
  return bindSqlite<Ledger>({ ...ledger, transaction }, sqliteOf(ledger));
}
