import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PaybatchError } from '../../src/errors.js';
import { claimBatch, waitForBatchClaim, type BatchClaim, type BatchClaimAttempt } from '../../src/ledger/batch-claim.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { openLedger, sqliteOf, type Ledger } from '../../src/ledger/open-ledger.js';
import { watchingTransactions } from '../helpers/counting-ledger.js';
import { plannedItem } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const now = new Date('2026-11-20T12:00:00Z');
const DEAD_PID = 2147483646;

async function ledgerWithBatch(): Promise<{ ledger: Ledger; batchId: number }> {
  const ledger = await openLedger(join(tempDir(), 'ledger.db'));
  const { batchIds: [batchId] } = await recordImport(ledger, { fileHash: 'h', fileName: 's.csv', rowCount: 1, batchName: 'Folha', itemCount: 1, items: [plannedItem(1)], rejectedCount: 0, now });
  return { ledger, batchId };
}

function taken(attempt: BatchClaimAttempt): BatchClaim {
  if (!('claim' in attempt)) throw new Error(`held by pid ${attempt.holder.pid}`);
  return attempt.claim;
}

const holders = (ledger: Ledger) => sqliteOf(ledger).prepare('SELECT batch_id, pid, host FROM batch_claims').all();

describe('the claim on a batch submission', () => {
  it('is held by one run at a time, this process included, until released', async () => {
    const { ledger, batchId } = await ledgerWithBatch();
    const mine = taken(await claimBatch(ledger, batchId, now));
    expect(holders(ledger)).toEqual([{ batch_id: batchId, pid: process.pid, host: hostname() }]);
    // Another live process on this host (this test's parent), and a second submission in this one.
    expect(await claimBatch(ledger, batchId, now, process.ppid)).toEqual({ holder: { pid: process.pid, host: hostname(), started_at: now.toISOString() } });
    expect(await claimBatch(ledger, batchId, now)).toHaveProperty('holder.pid', process.pid);
    await mine.release();
    expect(holders(ledger)).toEqual([]);

    const parent = taken(await claimBatch(ledger, batchId, now, process.ppid));
    expect(await claimBatch(ledger, batchId, now)).toHaveProperty('holder.pid', process.ppid);
    await parent.release();
    await taken(await claimBatch(ledger, batchId, now)).release();
    await ledger.close();
  });

  it('is taken over from a dead process, a reused pid of this one, and another host after two minutes without renewal', async () => {
    const { ledger, batchId } = await ledgerWithBatch();
    const hold = (pid: number, host: string, at: Date) =>
      sqliteOf(ledger).prepare('INSERT OR REPLACE INTO batch_claims (batch_id, pid, host, started_at) VALUES (?, ?, ?, ?)').run(batchId, pid, host, at.toISOString());

    hold(DEAD_PID, hostname(), now);
    await taken(await claimBatch(ledger, batchId, now)).release();
    // A row naming this pid that this process did not take: left by a dead run whose pid was reused.
    hold(process.pid, hostname(), now);
    await taken(await claimBatch(ledger, batchId, now)).release();

    hold(DEAD_PID, 'other-host', now);
    expect(await claimBatch(ledger, batchId, new Date(now.getTime() + 120_000 - 1))).toHaveProperty('holder.host', 'other-host');
    const late = taken(await claimBatch(ledger, batchId, new Date(now.getTime() + 120_000)));
    expect(holders(ledger)).toEqual([{ batch_id: batchId, pid: process.pid, host: hostname() }]);
    await late.release();
    await ledger.close();
  });

  it('is waited for while another run holds it, and the wait ends naming that run', async () => {
    const { ledger, batchId } = await ledgerWithBatch();
    const other = taken(await claimBatch(ledger, batchId, now, process.ppid));
    // The other run lets go once the waiting one has found it holding the claim twice (it looked, waited, and looked
    // again), not after a moment of the clock; the wait must end then, with the claim, and not before.
    let refused = 0;
    let released: Promise<void> | null = null;
    let takenAfterRelease: boolean | null = null;
    const watched = watchingTransactions(ledger, (result) => {
      if (result !== null && typeof result === 'object' && 'generation' in result) takenAfterRelease ??= released !== null;
      else if (++refused === 2) released = other.release();
    });
    const mine = await waitForBatchClaim(watched, batchId, () => now, { timeoutMs: 60_000, pollMs: 10 });
    await released;
    expect(refused).toBeGreaterThanOrEqual(2);
    expect(takenAfterRelease).toBe(true);
    expect(holders(ledger)).toEqual([{ batch_id: batchId, pid: process.pid, host: hostname() }]);
    await mine.release();

    const stuck = taken(await claimBatch(ledger, batchId, now, process.ppid));
    const error = await waitForBatchClaim(ledger, batchId, () => now, { timeoutMs: 50, pollMs: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaybatchError);
    expect((error as PaybatchError).message).toBe(
      `Batch #${batchId} is being sent to the provider by another paybatch run (pid ${process.ppid} on ${hostname()}, since ${now.toISOString()}); ` +
        'this run waited 0s for it and sent nothing, so nothing was sent twice.',
    );
    expect((error as PaybatchError).hint).toMatch(/^Run the same command again/);
    await stuck.release();
    await ledger.close();
  });
});
