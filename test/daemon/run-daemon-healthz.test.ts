import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { DaemonDeps, LogEntry } from '../../src/daemon/run-daemon.js';
import type { Ledger } from '../../src/ledger/open-ledger.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import type { PassResult } from '../../src/engine/follow-up/follow-up.js';
import { DEFAULT_DIALECT } from '../../src/provider/dialect.js';
import type { ProviderClient } from '../../src/provider/client.js';
import { useTempDir } from '../helpers/temp-dir.js';

// The pass itself is not under test here: it is replaced by one that asks the running daemon's /healthz, so the
// receiver is up and the answers are taken while the daemon runs, with no timer involved.
const during = vi.hoisted(() => ({ pass: async (): Promise<void> => {} }));
vi.mock('../../src/engine/follow-up/follow-up.js', () => ({
  followUpPass: async (): Promise<PassResult> => {
    await during.pass();
    return {
      pending: 0,
      unsent: 0,
      missingReceipts: 0,
      unsettledBatches: 0,
      unknownBills: 0,
      unknownPixCalls: 0,
      reprocessed: 0,
      errors: [],
      reconciled: { batches: 0, changed: 0, unknownStatuses: [] },
      submitted: [],
      scheduledStarts: [],
      scheduledBills: { sent: [], refused: [], errors: [] },
      receipts: { saved: [] },
      attention: { stale: 0, alerts: [] },
      openAlerts: 0,
      swept: [],
    } as unknown as PassResult;
  },
}));

const { runDaemon } = await import('../../src/daemon/run-daemon.js');
const tempDir = useTempDir();

function get(url: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the daemon /healthz', () => {
  it('asks the daemon ledger: 200 while its queries answer, 503 while they fail', async () => {
    const real = await openLedger(join(tempDir(), 'ledger.db'));
    let failing = false;
    // The daemon's ledger, whose reads fail on demand (a PostgreSQL server gone away) without being closed.
    const ledger: Ledger = {
      dialect: real.dialect,
      file: real.file,
      db: real.db,
      transaction: (fn) => real.transaction(fn),
      all: (q) => real.all(q),
      first: (q) => (failing ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })) : real.first(q)),
      run: (q) => real.run(q),
      close: () => real.close(),
    };
    const logs: LogEntry[] = [];
    const answers: { status: number; body: unknown }[] = [];
    during.pass = async () => {
      const listening = logs.find((e) => e.msg === 'webhook receiver listening');
      const health = new URL('/healthz', String(listening?.url)).toString();
      answers.push(await get(health));
      failing = true;
      answers.push(await get(health));
      failing = false;
      answers.push(await get(health));
    };
    const deps = {
      ledger,
      provider: { dialect: DEFAULT_DIALECT } as unknown as ProviderClient,
      now: () => new Date('2025-01-06T12:00:00Z'),
      log: (e: LogEntry) => logs.push(e),
      signal: new AbortController().signal,
    } as unknown as DaemonDeps;
    try {
      const result = await runDaemon(deps, {
        once: false,
        intervalSeconds: 1,
        listen: { host: '127.0.0.1', port: 0 },
        subscribeUrl: null,
        webhook: { method: 'auto', secret: 'a-webhook-secret-for-tests' },
        untilSettled: true,
        timeoutSeconds: null,
      });
      expect(result.passes).toBe(1);
    } finally {
      await real.close();
    }
    const counters = { received: 0, stored: 0, duplicate: 0, failed: 0, refused: 0 };
    const verification = { setting: 'auto', detected: [] };
    // Events stored and not applied yet: none here.
    const events = { waitingToApply: 0, oldestWaitMs: 0 };
    expect(answers).toEqual([
      { status: 200, body: { ok: true, counters, verification, events } },
      { status: 503, body: { ok: false, ledger: 'unavailable', reason: 'the ledger cannot be reached (ECONNREFUSED)', counters, verification, events } },
      { status: 200, body: { ok: true, counters, verification, events } },
    ]);
  });
});
