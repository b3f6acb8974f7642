import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { DaemonDeps, DaemonOptions } from '../../src/daemon/run-daemon.js';
import type { PassResult } from '../../src/engine/follow-up/follow-up.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { DEFAULT_DIALECT } from '../../src/provider/dialect.js';
import type { ProviderClient } from '../../src/provider/client.js';
import { useTempDir } from '../helpers/temp-dir.js';

// The pass itself is not under test: it reads what the daemon recorded so far and moves the clock, so that the
// start, the pass and the stop differ.
const during = vi.hoisted(() => ({ pass: async (): Promise<void> => {} }));
vi.mock('../../src/engine/follow-up/follow-up.js', () => ({
  followUpPass: async (): Promise<PassResult> => {
    await during.pass();
    return {
      pending: 0, unsent: 0, unsettledBatches: 0, unknownBills: 0, unknownPixCalls: 0, missingReceipts: 0, reprocessed: 0, errors: [], reconciled: { batches: 0, changed: 0, unknownStatuses: [] }, submitted: [],
      scheduledStarts: [], scheduledBills: { sent: [], refused: [], errors: [] }, receipts: { saved: [] }, attention: { stale: 0, alerts: [] }, openAlerts: 0, swept: [],
    } as unknown as PassResult;
  },
}));

const { runDaemon } = await import('../../src/daemon/run-daemon.js');
const tempDir = useTempDir();

const OPTIONS: DaemonOptions = {
  once: false, intervalSeconds: 30, listen: { host: '127.0.0.1', port: 0 }, subscribeUrl: null, webhook: null, untilSettled: true, timeoutSeconds: null,
};

describe('the daemon records its passes for the dashboard', () => {
  it.each([
    ['a daemon at an interval', OPTIONS, 30],
    ['one pass and out (--once, from cron)', { ...OPTIONS, once: true }, null],
  ] as const)('%s: when it started, when it last passed, at what interval, and when it stopped', async (_, options, interval) => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    let clock = new Date('2026-11-23T15:00:00.000Z');
    const rows = () => ledger.all(ledger.db.selectFrom('daemon_passes').selectAll());
    let before: unknown;
    during.pass = async () => {
      before = await rows();
      clock = new Date('2026-11-23T15:00:07.000Z');
    };
    const deps = {
      ledger, provider: { dialect: DEFAULT_DIALECT } as unknown as ProviderClient, now: () => clock, log: () => {}, signal: new AbortController().signal,
    } as unknown as DaemonDeps;
    try {
      expect((await runDaemon(deps, options)).passes).toBe(1);
      // Recorded from its start, before its first pass ends.
      expect(before).toEqual([{ host: hostname(), pid: process.pid, interval_seconds: interval, started_at: '2026-11-23T15:00:00.000Z', last_pass_at: null, stopped_at: null }]);
      expect(await rows()).toEqual([{
        host: hostname(), pid: process.pid, interval_seconds: interval, started_at: '2026-11-23T15:00:00.000Z', last_pass_at: '2026-11-23T15:00:07.000Z',
        stopped_at: '2026-11-23T15:00:07.000Z',
      }]);
    } finally {
      await ledger.close();
    }
  });
});
