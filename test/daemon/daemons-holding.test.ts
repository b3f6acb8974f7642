import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireDaemonLock, daemonsHolding } from '../../src/daemon/lock.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { takeLease } from '../../src/ledger/work-lease-store.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();

describe('daemonsHolding', () => {
  it("names a live lock holder and unexpired leases of holders not known to have ended; never a dead one's", async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    try {
      const now = new Date('2026-11-27T12:00:00Z');
      expect(await daemonsHolding(ledger, now, 'host-a')).toEqual([]);
      // The lock of a daemon on another host, whose heartbeat is a minute old: alive.
      await acquireDaemonLock(ledger, () => new Date(now.getTime() - 60_000), 4242, 'host-b');
      // Leases: one of another host, one expired, one of a process of this host that has ended (pid 2^22 + 1 is above Linux's pid limit).
      await takeLease(ledger, 'batch:1:reconcile', 'host-c:77:abc', 60_000, now);
      await takeLease(ledger, 'attention', 'host-c:78:abd', 120_000 - 1, new Date(now.getTime() - 120_000));
      await takeLease(ledger, 'reprocess', `host-a:${2 ** 22 + 1}:abe`, 60_000, now);
      expect(await daemonsHolding(ledger, now, 'host-a')).toEqual([
        { kind: 'lock', pid: 4242, host: 'host-b', since: '2026-11-27T11:59:00.000Z' },
        { kind: 'lease', holder: 'host-c:77:abc', work: 'batch:1:reconcile', until: '2026-11-27T12:01:00.000Z' },
      ]);
      // Three minutes later the lock's heartbeat is stale and the lease has run out: nobody holds the ledger.
      expect(await daemonsHolding(ledger, new Date(now.getTime() + 180_000), 'host-a')).toEqual([]);
    } finally {
      await ledger.close();
    }
  });
});
