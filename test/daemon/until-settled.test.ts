import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { DaemonDeps, LogEntry } from '../../src/daemon/run-daemon.js';
import type { PassResult } from '../../src/engine/follow-up/follow-up.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { DEFAULT_DIALECT } from '../../src/provider/dialect.js';
import type { ProviderClient } from '../../src/provider/client.js';
import { useTempDir } from '../helpers/temp-dir.js';

// The passes are scripted (what a pass leaves is what work-left.ts counts, tested on a ledger in test/ledger): each
// made progress, so the daemon goes on to the next one at once, with no timer involved.
const script = vi.hoisted(() => ({ passes: [] as Partial<PassResult>[], ran: 0 }));
vi.mock('../../src/engine/follow-up/follow-up.js', () => ({
  followUpPass: async (): Promise<PassResult> => {
    const left = script.passes[script.ran++] ?? {};
    return {
      pending: 0,
      unsent: 0,
      missingReceipts: 0,
      unsettledBatches: 0,
      unknownBills: 0,
      unknownPixCalls: 0,
      reprocessed: 0,
      errors: [],
      reconciled: { batches: 1, changed: 1, unknownStatuses: [] },
      submitted: [],
      scheduledStarts: [],
      scheduledBills: { sent: [], refused: [], errors: [] },
      receipts: { saved: [], failed: [] },
      attention: { stale: 0, alerts: [] },
      openAlerts: 0,
      swept: [],
      ...left,
    } as PassResult;
  },
}));

const { runDaemon, nothingLeft, outcomesUnknown } = await import('../../src/daemon/run-daemon.js');
const tempDir = useTempDir();

async function untilSettled(passes: Partial<PassResult>[]) {
  script.passes = passes;
  script.ran = 0;
  const ledger = await openLedger(join(tempDir(), 'ledger.db'));
  const logs: LogEntry[] = [];
  const deps = {
    ledger,
    provider: { dialect: DEFAULT_DIALECT } as unknown as ProviderClient,
    now: () => new Date('2026-11-20T12:00:00Z'),
    log: (e: LogEntry) => logs.push(e),
    signal: new AbortController().signal,
  } as unknown as DaemonDeps;
  try {
    const result = await runDaemon(deps, { once: false, intervalSeconds: 30, listen: { host: '127.0.0.1', port: 0 }, subscribeUrl: null, webhook: null, untilSettled: true, timeoutSeconds: null });
    return { result, logs };
  } finally {
    await ledger.close();
  }
}

describe('daemon --until-settled', () => {
  it('makes one more pass while a batch is still held started, although none of its items is pending', async () => {
    const { result, logs } = await untilSettled([{ unsettledBatches: 1 }, { unsettledBatches: 0 }]);
    expect(result.passes).toBe(2);
    expect(logs.filter((e) => e.event === 'pass_done').map((e) => e.unsettledBatches)).toEqual([1, 0]);
  });

  it('stops without waiting on a bill whose outcome is unknown, and says so for the exit code', async () => {
    const { result } = await untilSettled([{ unknownBills: 1 }]);
    expect(result.passes).toBe(1);
    expect(nothingLeft(result.last!)).toBe(true);
    expect(outcomesUnknown(result.last!)).toBe(true);
  });

  it('takes a lost Pix call not made again as an unknown outcome; nothing unknown otherwise', async () => {
    const { result } = await untilSettled([{ unsent: 1, unknownPixCalls: 1 }, {}]);
    expect(result.passes).toBe(2);
    expect(outcomesUnknown({ ...result.last!, unknownPixCalls: 1 })).toBe(true);
    expect(outcomesUnknown(result.last!)).toBe(false);
  });
});
