import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { withLease } from '../../src/engine/work-lease.js';
import { claimReceiptsDue } from '../../src/ledger/item-repository.js';
import { openLedger, type Ledger } from '../../src/ledger/open-ledger.js';
import { releaseLease, renewLease, takeLease } from '../../src/ledger/work-lease-store.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { plannedItem } from '../helpers/ledger-fixture.js';
import { usePostgresDatabases } from '../helpers/postgres.js';

const freshDatabase = usePostgresDatabases();
const t0 = new Date('2026-11-23T12:00:00.000Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
/** A holder on another host: its liveness cannot be checked, so only expiry frees its leases. */
const elsewhere = (n: number) => `db-host-${n}.internal:4242:abc${n}`;

async function withPostgres<T>(fn: (ledger: Ledger) => Promise<T>): Promise<T> {
  const ledger = await openLedger(await freshDatabase());
  try {
    return await fn(ledger);
  } finally {
    await ledger.close();
  }
}

describe('work leases (several daemons on one PostgreSQL ledger)', () => {
  it('one holder at a time until the lease expires or is released; renewing keeps it', async () => {
    await withPostgres(async (ledger) => {
      expect(await takeLease(ledger, 'attention', elsewhere(1), t0, at(60))).toBe(true);
      expect(await takeLease(ledger, 'attention', elsewhere(2), at(30), at(90))).toBe(false);
      expect(await takeLease(ledger, 'attention', elsewhere(1), at(30), at(90))).toBe(true); // its own, again
      expect(await renewLease(ledger, 'attention', elsewhere(1), at(150))).toBe(true);
      expect(await takeLease(ledger, 'attention', elsewhere(2), at(120), at(180))).toBe(false); // renewed past 120 s
      expect(await takeLease(ledger, 'attention', elsewhere(2), at(151), at(211))).toBe(true); // expired
      expect(await renewLease(ledger, 'attention', elsewhere(1), at(300))).toBe(false); // lost it
      await releaseLease(ledger, 'attention', elsewhere(1)); // not its own any more: nothing happens
      expect(await takeLease(ledger, 'attention', elsewhere(3), at(160), at(220))).toBe(false);
      await releaseLease(ledger, 'attention', elsewhere(2));
      expect(await takeLease(ledger, 'attention', elsewhere(3), at(160), at(220))).toBe(true);
    });
  });

  it('of many daemons asking for one lease at the same moment, exactly one gets it', async () => {
    await withPostgres(async (ledger) => {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => takeLease(ledger, 'batch:7:reconcile', elsewhere(i), t0, at(60))));
      expect(answers.filter(Boolean)).toHaveLength(1);
    });
  });

  it('a lease held by a process of this host that has ended is taken at once', async () => {
    await withPostgres(async (ledger) => {
      // pid 2^22 + 1 is above Linux's pid_max default range: no such process.
      expect(await takeLease(ledger, 'reprocess', `${hostname()}:4194305:dead01`, t0, at(60))).toBe(true);
      expect(await takeLease(ledger, 'reprocess', elsewhere(1), at(1), at(61))).toBe(true);
    });
  });

  it('withLease runs the work only where the lease was taken, and frees it after', async () => {
    await withPostgres(async (ledger) => {
      const now = () => t0;
      let release!: () => void;
      let working!: () => void;
      // A's work begins only where the lease was taken: B asks once A is at work, not after a moment of the clock.
      const atWork = new Promise<void>((r) => (working = r));
      const first = withLease(ledger, 'bill-documents', now, () => new Promise<string>((r) => {
        release = () => r('done by A');
        working();
      }), elsewhere(1));
      await atWork;
      expect(await withLease(ledger, 'bill-documents', now, async () => 'done by B', elsewhere(2))).toBeNull();
      release();
      expect(await first).toBe('done by A');
      expect(await withLease(ledger, 'bill-documents', now, async () => 'done by B', elsewhere(2))).toBe('done by B');
    });
  });

  it('receipts are claimed a page at a time: two daemons get different items, and expired claims come back', async () => {
    await withPostgres(async (ledger) => {
      const items = Array.from({ length: 6 }, (_, i) => plannedItem(i + 1));
      await recordImport(ledger, { fileHash: 'h', fileName: 's.csv', rowCount: 6, batchName: 'Folha', itemCount: 6, items, rejectedCount: 0, now: t0 });
      for (const { id } of await ledger.all(ledger.db.selectFrom('items').select('id'))) {
        await ledger.run(ledger.db.updateTable('items').set({ status: 'paid', pix_id: `pix-${id}` }).where('id', '=', id));
      }
      const [a, b] = await Promise.all([
        claimReceiptsDue(ledger, { holder: elsewhere(1), now: t0, until: at(60), limit: 4 }),
        claimReceiptsDue(ledger, { holder: elsewhere(2), now: t0, until: at(60), limit: 4 }),
      ]);
      const ids = [...a, ...b].map((r) => r.id);
      expect(ids).toHaveLength(6);
      expect(new Set(ids).size).toBe(6);
      expect(await claimReceiptsDue(ledger, { holder: elsewhere(3), now: at(30), until: at(90), limit: 4 })).toEqual([]);
      expect((await claimReceiptsDue(ledger, { holder: elsewhere(3), now: at(61), until: at(121), limit: 10 })).map((r) => r.id).sort()).toEqual([...ids].sort());
    });
  });
});
