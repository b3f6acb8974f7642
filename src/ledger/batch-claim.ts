import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatDuration } from '../domain/duration.js';
import { PaybatchError } from '../errors.js';
import type { Ledger } from './ledger.js';
import { heldByOther, type ClaimHolder } from './process-claim.js';

export interface BatchClaim {
  release(): void;
}

/** The claim, or the run that holds it. */
export type BatchClaimAttempt = { readonly claim: BatchClaim } | { readonly holder: ClaimHolder };

/**
 * Batches this process is submitting right now, per ledger. A row naming this process's pid is otherwise taken for
 * one left by a dead run whose pid was reused; a submission in flight here must keep out a second one all the same.
 */
const heldHere = new WeakMap<Ledger, Set<number>>();

/** How long a run waits for another run's submission of the same batch, and how often it looks. */
const WAIT = { timeoutMs: 120_000, pollMs: 100 };

/**
 * Claims the submission of this batch (creating, filling and starting its remote batch) for this process, or says
 * who holds it. A holder whose process is gone (same host) or that is older than six hours (another host) is
 * replaced. The check and the take are one SQLite transaction.
 */
export function claimBatch(ledger: Ledger, batchId: number, now: Date, pid = process.pid, host = hostname()): BatchClaimAttempt {
  const here = heldHere.get(ledger) ?? new Set<number>();
  heldHere.set(ledger, here);
  const holder = ledger.transaction(() => {
    const row = ledger.first(ledger.db.selectFrom('batch_claims').select(['pid', 'host', 'started_at']).where('batch_id', '=', batchId));
    const ownInFlight = row?.pid === pid && row.host === host && here.has(batchId);
    if (ownInFlight || heldByOther(row, pid, host, now)) return row;
    ledger.run(ledger.db.deleteFrom('batch_claims').where('batch_id', '=', batchId));
    ledger.run(ledger.db.insertInto('batch_claims').values({ batch_id: batchId, pid, host, started_at: now.toISOString() }));
    return undefined;
  });
  if (holder) return { holder };
  here.add(batchId);
  return {
    claim: {
      release: () => {
        here.delete(batchId);
        ledger.run(ledger.db.deleteFrom('batch_claims').where('batch_id', '=', batchId).where('pid', '=', pid).where('host', '=', host));
      },
    },
  };
}

/**
 * Claims the submission of this batch, waiting while another run holds it; fails, having sent nothing, when that
 * run holds it past the wait.
 */
export async function waitForBatchClaim(ledger: Ledger, batchId: number, now: () => Date, wait = WAIT): Promise<BatchClaim> {
  const deadline = performance.now() + wait.timeoutMs;
  for (;;) {
    const attempt = claimBatch(ledger, batchId, now());
    if ('claim' in attempt) return attempt.claim;
    if (performance.now() >= deadline) {
      const { pid, host, started_at } = attempt.holder;
      throw new PaybatchError(
        `Batch #${batchId} is being sent to the provider by another paybatch run (pid ${pid} on ${host}, since ${started_at}); ` +
          `this run waited ${formatDuration(Math.round(wait.timeoutMs / 1000))} for it and sent nothing, so nothing was sent twice.`,
        { hint: 'Run the same command again once that run has finished: it shows the batch, or continues it where that run stopped.' },
      );
    }
    await sleep(wait.pollMs);
  }
}
