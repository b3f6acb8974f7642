import { hostname } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { LeaseLost, withLease, type LeaseFence } from '../../src/engine/work-lease.js';
import { claimReceiptsDue } from '../../src/ledger/item-repository.js';
import { openLedger, type Ledger } from '../../src/ledger/open-ledger.js';
import { leaseHeld, releaseLease, renewLease, takeLease } from '../../src/ledger/work-lease-store.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { plannedItem } from '../helpers/ledger-fixture.js';
import { usePostgresDatabases } from '../helpers/postgres.js';

const freshDatabase = usePostgresDatabases();
const t0 = new Date('2026-11-23T12:00:00.000Z');
/** A holder on another host: its liveness cannot be checked, so only expiry frees its leases. */
const elsewhere = (n: number) => `db-host-${n}.internal:4242:abc${n}`;

const leaseTaken = async (ledger: Ledger) => (await ledger.first(ledger.db.selectFrom('work_leases').select('name'))) !== undefined;

async function withPostgres<T>(fn: (ledger: Ledger) => Promise<T>): Promise<T> {
  const ledger = await openLedger(await freshDatabase());
  try {
    return await fn(ledger);
  } finally {
    await ledger.close();
  }
}

describe('work leases (several daemons on one PostgreSQL ledger)', () => {
  it('one holder at a time until the lease expires (by the database clock) or is released; renewing keeps it', async () => {
    await withPostgres(async (ledger) => {
      // The hosts' own clocks are far apart and say nothing: the database's clock decides.
      const behind = new Date('2001-01-01T00:00:00Z');
      const ahead = new Date('2099-01-01T00:00:00Z');
      const first = await takeLease(ledger, 'attention', elsewhere(1), 60_000, behind);
      expect(first).toEqual({ name: 'attention', holder: elsewhere(1), generation: 1 });
      expect(await takeLease(ledger, 'attention', elsewhere(2), 60_000, ahead)).toBeNull();
      const again = (await takeLease(ledger, 'attention', elsewhere(1), 60_000, ahead))!; // its own, again: a new generation
      expect(again.generation).toBe(2);
      expect(await leaseHeld(ledger, first!)).toBe(false); // the first take is over
      expect(await leaseHeld(ledger, again)).toBe(true);
      // Renewed to end a moment ago (a lease that ran out while its holder was paused): another host takes it.
      expect(await renewLease(ledger, again, -1)).toBe(true);
      expect(await leaseHeld(ledger, again)).toBe(false);
      const second = (await takeLease(ledger, 'attention', elsewhere(2), 60_000, behind))!;
      expect(second.generation).toBe(3);
      // The paused holder, back: it cannot renew, its writes are fenced, and its release changes nothing.
      expect(await renewLease(ledger, again, 60_000)).toBe(false);
      await releaseLease(ledger, again);
      expect(await takeLease(ledger, 'attention', elsewhere(3), 60_000)).toBeNull();
      await releaseLease(ledger, second);
      expect(await takeLease(ledger, 'attention', elsewhere(3), 60_000)).toMatchObject({ generation: 4 });
    });
  });

  it('of many daemons asking for one lease at the same moment, exactly one gets it', async () => {
    await withPostgres(async (ledger) => {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => takeLease(ledger, 'batch:7:reconcile', elsewhere(i), 60_000)));
      expect(answers.filter(Boolean)).toHaveLength(1);
    });
  });

  it('a lease held by a process of this host that has ended is taken at once', async () => {
    await withPostgres(async (ledger) => {
      // pid 2^22 + 1 is above Linux's pid_max default range: no such process.
      expect(await takeLease(ledger, 'reprocess', `${hostname()}:4194305:dead01`, 60_000)).not.toBeNull();
      expect(await takeLease(ledger, 'reprocess', elsewhere(1), 60_000)).not.toBeNull();
    });
  });

  it('withLease runs the work only where the lease was taken, fences its writes, and frees it after', async () => {
    await withPostgres(async (ledger) => {
      const now = () => t0;
      let release!: () => void;
      let working!: () => void;
      // A's work begins only where the lease was taken: B asks once A is at work, not after a moment of the clock.
      const atWork = new Promise<void>((r) => (working = r));
      let fenceOfA!: LeaseFence;
      const first = withLease(ledger, 'bill-documents', now, (fence) => new Promise<string>((r) => {
        fenceOfA = fence;
        release = () => r('done by A');
        working();
      }), { holder: elsewhere(1) });
      await atWork;
      await fenceOfA.check(ledger);
      expect(await withLease(ledger, 'bill-documents', now, async () => 'done by B', { holder: elsewhere(2) })).toBeNull();
      // A pauses past its lease: it runs out (as if the database's clock had moved on a minute) and B takes the work.
      await ledger.run(ledger.db.updateTable('work_leases').set({ expires_at: '2000-01-01T00:00:00.000Z' }).where('name', '=', 'bill-documents'));
      const taken = new Promise<void>((r) => (working = r));
      let finishB!: () => void;
      const second = withLease(ledger, 'bill-documents', now, () => new Promise<string>((r) => {
        finishB = () => r('done by B');
        working();
      }), { holder: elsewhere(2) });
      await taken;
      // A, resumed, checks its lease before writing: lost.
      await expect(fenceOfA.check(ledger)).rejects.toBeInstanceOf(LeaseLost);
      release();
      expect(await first).toBe('done by A');
      finishB();
      expect(await second).toBe('done by B');
      expect(await withLease(ledger, 'bill-documents', now, async () => 'done by C', { holder: elsewhere(3) })).toBe('done by C');
    });
  });

  it('withLease renews the lease while the work progresses, and lets it run out while it cannot (the provider silent)', async () => {
    await withPostgres(async (ledger) => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      try {
        let answering = true;
        let finish!: () => void;
        // Renewals are the writes made through the ledger while the work runs (the take is a transaction).
        let renewals = 0;
        const counted: Ledger = { ...ledger, run: (q) => ((renewals += 1), ledger.run(q)) };
        const expiry = async () => (await ledger.first(ledger.db.selectFrom('work_leases').select('expires_at').where('name', '=', 'batch:3:reconcile')))!.expires_at;
        const work = withLease(counted, 'batch:3:reconcile', () => t0, () => new Promise<void>((r) => (finish = r)), { holder: elsewhere(1), leaseMs: 30_000, progressing: () => answering });
        await vi.waitFor(async () => expect(await leaseTaken(ledger)).toBe(true));
        const taken = await expiry();
        // A renewal is due every third of the lease: while the provider answers, it moves the lease's end on.
        await vi.advanceTimersByTimeAsync(10_000);
        await vi.waitFor(async () => expect(await expiry()).not.toBe(taken));
        // The provider falls silent: the next renewals are skipped, so the lease runs out for another host.
        answering = false;
        const renewed = await expiry();
        const before = renewals;
        await vi.advanceTimersByTimeAsync(20_000);
        expect(renewals).toBe(before);
        expect(await expiry()).toBe(renewed);
        // It answers again: renewals resume.
        answering = true;
        await vi.advanceTimersByTimeAsync(10_000);
        expect(renewals).toBe(before + 1);
        finish();
        await work;
      } finally {
        vi.useRealTimers();
      }
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
        claimReceiptsDue(ledger, { holder: elsewhere(1), now: t0, claimMs: 60_000, limit: 4 }),
        claimReceiptsDue(ledger, { holder: elsewhere(2), now: t0, claimMs: 60_000, limit: 4 }),
      ]);
      const ids = [...a, ...b].map((r) => r.id);
      expect(ids).toHaveLength(6);
      expect(new Set(ids).size).toBe(6);
      expect(await claimReceiptsDue(ledger, { holder: elsewhere(3), now: t0, claimMs: 60_000, limit: 4 })).toEqual([]);
      // The claims run out (as if the database's clock had moved on a minute): they come back.
      await ledger.run(ledger.db.updateTable('items').set({ receipt_claim_until: '2000-01-01T00:00:00.000Z' }));
      expect((await claimReceiptsDue(ledger, { holder: elsewhere(3), now: t0, claimMs: 60_000, limit: 10 })).map((r) => r.id).sort()).toEqual([...ids].sort());
    });
  });
});
