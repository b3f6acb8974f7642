import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatDuration } from '../domain/duration.js';
import { PaybatchError } from '../errors.js';
import type { Ledger } from './ledger.js';
import { heldByOther, type ClaimHolder } from './process-claim.js';

export interface BatchClaim {
  release(): Promise<void>;
}

/** The claim, or the run that holds it. */
export type BatchClaimAttempt = { readonly claim: BatchClaim } | { readonly holder: ClaimHolder };

/**
 * Batches this process is submitting right now, per ledger. A row naming this process's pid is otherwise taken for
 * one left by a dead run whose pid was reused; a submission in flight here must keep out a second one all the same.
 */
const heldHere = new WeakMap<Ledger, Set<number>>();

/**
 * A submission renews its claim this often (its `started_at` moves on), and a claim from another host not renewed
 * for BATCH_CLAIM_STALE_MS is taken over: a host that died mid-submission holds its batches up for two minutes.
 */
const RENEW_EVERY_MS = 30_000;
const BATCH_CLAIM_STALE_MS = 120_000;

/** How long a run waits for another run's submission of the same batch, and how often it looks. */
const WAIT = { timeoutMs: 120_000, pollMs: 100 };

/**
 * Claims the submission of this batch (creating, filling and starting its remote batch) for this process, or says
 * who holds it. A holder whose process is gone (same host) or that has not renewed its claim for two minutes (another
 * host) is replaced. The check and the take are one transaction.
 */
export async function claimBatch(ledger: Ledger, batchId: number, now: Date, pid = process.pid, host = hostname()): Promise<BatchClaimAttempt> {
  const here = heldHere.get(ledger) ?? new Set<number>();
  heldHere.set(ledger, here);
  const holder = await ledger.transaction(async (tx) => {
    const row = await tx.first(tx.db.selectFrom('batch_claims').select(['pid', 'host', 'started_at']).where('batch_id', '=', batchId));
    const ownInFlight = row?.pid === pid && row.host === host && here.has(batchId);
    if (ownInFlight || heldByOther(row, pid, host, now, BATCH_CLAIM_STALE_MS)) return row;
    await tx.run(tx.db.deleteFrom('batch_claims').where('batch_id', '=', batchId));
    await tx.run(tx.db.insertInto('batch_claims').values({ batch_id: batchId, pid, host, started_at: now.toISOString() }));
    return undefined;
  });
  if (holder) return { holder };
  here.add(batchId);
  const started = Date.now();
  const renew = () =>
    ledger.run(
      ledger.db.updateTable('batch_claims').set({ started_at: new Date(now.getTime() + Date.now() - started).toISOString() })
        .where('batch_id', '=', batchId).where('pid', '=', pid).where('host', '=', host),
    );
  // A failed renewal (the database away) only lets the claim age: the submission's own calls fail the same way.
  const renewal = setInterval(() => void renew().catch(() => {}), RENEW_EVERY_MS);
  renewal.unref();
  return {
    claim: {
      release: async () => {
        clearInterval(renewal);
        here.delete(batchId);
        await ledger.run(ledger.db.deleteFrom('batch_claims').where('batch_id', '=', batchId).where('pid', '=', pid).where('host', '=', host));
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
    const attempt = await claimBatch(ledger, batchId, now());
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
