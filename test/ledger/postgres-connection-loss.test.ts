import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { startOwnPostgres } from '../helpers/postgres-process.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('a PostgreSQL ledger whose server goes away', () => {
  it('a connection dropped while a transaction holds it between queries fails that transaction, never the process', async () => {
    const server = await startOwnPostgres('drop', cleanups);
    const ledger = await openLedger(server.url);
    cleanups.push(() => ledger.close().catch(() => {}));

    // The fast shutdown tells every connection it is terminated; the transaction's, checked out of the pool and idle
    // between two queries, hears it as an 'error' event as it next uses it: unheard, it would end the process (vitest reports it).
    const outcome = ledger.transaction(async (tx) => {
      await tx.run(sql`SELECT 1`);
      await server.stop();
      await tx.run(sql`SELECT 1`);
    });
    await expect(outcome).rejects.toThrow();
  }, 60_000);
});
