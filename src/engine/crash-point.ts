import { appendFileSync } from 'node:fs';

/**
 * Deterministic kill points for the exactly-once simulation (`npm run simulate`, scripts/simulate.mjs).
 *
 * With `PAYBATCH_CRASH_AT=<phase>:<n>` in the environment, the n-th call of `crashPoint(<phase>)` in this process
 * appends `<phase>` (one line) to the file named by `PAYBATCH_CRASH_LOG`, when set, and then kills this process with
 * SIGKILL — the same as `kill -9` from outside at exactly that moment: no `finally`, no exit handlers, no flushing.
 * With `PAYBATCH_CRASH_SIGNAL=SIGSTOP` it pauses instead, as a frozen host does, until a SIGCONT (the several-hosts
 * tests). The variables are read once; unset (every ordinary run) a call costs one comparison.
 */
export type CrashPhase =
  /** After a key lookup's answer (import). */
  | 'lookup'
  /** After the import, its batch and items are written to the ledger (import). */
  | 'import-write'
  /** After an items chunk's answer, before it is recorded; and after it is recorded (import, daemon). */
  | 'items-chunk'
  /** After the provider answered the start of a batch, before it is recorded (import, daemon). */
  | 'start'
  /** While new attempts are planned for instability returns (daemon). */
  | 'reprocess'
  /** After a retry batch and its items are written to the ledger, before it is sent (batch retry). */
  | 'retry-write'
  /** After a receipt file is written, before its path is recorded (daemon). */
  | 'receipt-write'
  /** After a bill payment's intent is committed, before the call (boleto pay). */
  | 'bill-intent'
  /** After a bill payment's answer, before its outcome is recorded (boleto pay). */
  | 'bill-outcome';

export const CRASH_PHASES: readonly CrashPhase[] = ['lookup', 'import-write', 'items-chunk', 'start', 'reprocess', 'retry-write', 'receipt-write', 'bill-intent', 'bill-outcome'];

interface Armed {
  readonly phase: string;
  readonly n: number;
  readonly log: string | undefined;
  readonly signal: 'SIGKILL' | 'SIGSTOP';
  seen: number;
}

function arm(): Armed | null {
  const spec = process.env['PAYBATCH_CRASH_AT'];
  const m = spec === undefined ? null : /^([a-z-]+):([1-9][0-9]*)$/.exec(spec.trim());
  if (!m) return null;
  const signal = process.env['PAYBATCH_CRASH_SIGNAL'] === 'SIGSTOP' ? 'SIGSTOP' : 'SIGKILL';
  return { phase: m[1]!, n: Number(m[2]), log: process.env['PAYBATCH_CRASH_LOG'] || undefined, signal, seen: 0 };
}

const armed: Armed | null = arm();

/** Kills (or pauses) this process on the n-th call for the phase named by PAYBATCH_CRASH_AT; otherwise nothing. */
export function crashPoint(phase: CrashPhase): void {
  if (armed === null || armed.phase !== phase) return;
  armed.seen += 1;
  if (armed.seen !== armed.n) return;
  if (armed.log !== undefined) {
    try {
      appendFileSync(armed.log, `${phase}\n`);
    } catch {
      // The kill matters more than its record.
    }
  }
  process.kill(process.pid, armed.signal);
}
