import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { freePort } from '../helpers/free-port.js';
import { PostgresProcess } from '../helpers/postgres-process.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('a PostgreSQL ledger whose server goes away', () => {
  it('a connection dropped while a transaction holds it between queries fails that transaction, never the process', async () => {
    // A server of this test's own, since it is stopped; not in a private test folder (its user may be postgres).
    const dir = mkdtempSync(join(tmpdir(), 'paybatch-pg-drop-'));
    const server = new PostgresProcess(dir, await freePort(), 'drop-test');
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    cleanups.push(() => server.stop());
    await server.initialise();
    await server.start();
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
