import { hostname } from 'node:os';
import { recordDaemonPass, recordDaemonStart, recordDaemonStop } from '../ledger/daemon-pass-store.js';
import { isLedgerUnavailable } from '../ledger/ledger-unavailable.js';
import type { Ledger } from '../ledger/open-ledger.js';

/**
 * What the daemon leaves in the ledger for the dashboard to tell it runs and how late it is: its start and interval,
 * each pass it finishes, and its stop. A ledger out of reach loses that record only (the next pass writes it again).
 */
export function passRecord(ledger: Ledger, o: { intervalSeconds: number | null; now: () => Date }) {
  const me = { host: hostname(), pid: process.pid };
  const unlessUnavailable = (e: unknown) => {
    if (!isLedgerUnavailable(e)) throw e;
  };
  return {
    started: () => recordDaemonStart(ledger, { ...me, intervalSeconds: o.intervalSeconds, at: o.now() }),
    passed: () => recordDaemonPass(ledger, { ...me, at: o.now() }).catch(unlessUnavailable),
    // Never in the way of the stop itself (it runs in a `finally`): a stop not recorded is found by its pid or age.
    stopped: () => recordDaemonStop(ledger, { ...me, at: o.now() }).catch(() => undefined),
  };
}
