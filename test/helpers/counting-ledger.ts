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

/**
 * The ledger, telling `onCommitted` what each transaction begun through it returned, once it has committed (a batch
 * claim's transaction returns the holder it found, or nothing when it took the claim): a test acts on that event of
 * the code under test instead of after a moment of the clock. The caller gets the transaction's own promise, so the
 * watching adds no step between the commit and what the caller does next.
 */
export function watchingTransactions(ledger: Ledger, onCommitted: (result: unknown) => void): Ledger {
  const transaction: Ledger['transaction'] = (fn) => {
    const committed = ledger.transaction(fn);
    void committed.then(onCommitted, () => undefined);
    return committed;
  };
  return bindSqlite<Ledger>({ ...ledger, transaction }, sqliteOf(ledger));
}
