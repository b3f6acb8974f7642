import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatDuration } from '../domain/duration.js';
import { PaybatchError } from '../errors.js';
import type { Ledger } from './ledger.js';
import { sql } from 'kysely';
import { ledgerTime } from './ledger-clock.js';
import { claimStands, type ClaimHolder } from './process-claim.js';

export interface BatchClaim {
  /** This take's generation, which the batch row carries while the claim is this run's. */
  readonly generation: number;
  /**
   * True while the batch is still this run's to write: no run took the claim since. Asked inside the transaction
   * that writes the batch's remote batch or status, it fences the write (a run that paused past its claim writes nothing).
   */
  holds(tx: Ledger): Promise<boolean>;
  release(): Promise<void>;
}

/** A run stopped sending a batch: another run took its claim meanwhile (this one paused, or lost the ledger). */
export class BatchClaimLost extends PaybatchError {
  constructor(readonly batchId: number) {
    super(`Batch #${batchId} was taken over by another paybatch run while this one was sending it (this run paused or lost the ledger for longer than the claim lasts); this run stopped and changed nothing more of it.`, {
      hint: 'Nothing to do: the run holding it carries the batch on. `paybatch batch show` says where it stands.',
    });
  }
}

/** The claim, or the run that holds it. */
export type BatchClaimAttempt = { readonly claim: BatchClaim } | { readonly holder: ClaimHolder };

/**
 * Batches this process is submitting right now, per ledger. A row naming this process's pid is otherwise taken for
 * one left by a dead run whose pid was reused; a submission in flight here must keep out a second one all the same.
 */
const heldHere = new WeakMap<Ledger, Set<number>>();

/**
 * A claim lasts this long unless its holder renews it (by the ledger's clock), a quarter as often: a host that died or
 * paused mid-submission holds its batches up for two minutes (the `claimTime` setting of the holder).
 */
export const BATCH_CLAIM_MS = 120_000;

/**
 * Whether a claim ran out by the ledger's clock: past the end its holder gave it (and renews), or, for a claim of an
 * older paybatch that gave none, `claimMs` after it was taken.
 */
const ranOut = (tx: Ledger, now: Date, claimMs: number) =>
  sql`(expires_at <= ${ledgerTime(tx, now)} OR (expires_at IS NULL AND started_at <= ${ledgerTime(tx, now, -claimMs)}))`;

/** How long a run waits for another run's submission of the same batch, and how often it looks. */
const WAIT = { timeoutMs: 120_000, pollMs: 100 };

/**
 * Claims the submission of this batch (creating, filling and starting its remote batch) for this process, or says
 * who holds it. A holder whose process is gone (same host) or whose claim ran out by the ledger's clock (another
 * host: never by this host's clock against a time another host wrote) is replaced. This run's claim lasts `claimMs`,
 * renewed while it works. The check and the take are one transaction; each take gives the batch row the claim's
 * next generation.
 */
export async function claimBatch(ledger: Ledger, batchId: number, now: Date, pid = process.pid, host = hostname(), claimMs = BATCH_CLAIM_MS): Promise<BatchClaimAttempt> {
  const here = heldHere.get(ledger) ?? new Set<number>();
  heldHere.set(ledger, here);
  let marked = false;
  const taken = await ledger.transaction<{ holder: ClaimHolder } | { generation: number }>(async (tx) => {
    const row = await tx.first(
      tx.db.selectFrom('batch_claims')
        .select(['pid', 'host', 'started_at', sql<number>`CASE WHEN ${ranOut(tx, now, claimMs)} THEN 1 ELSE 0 END`.as('stale')])
        .where('batch_id', '=', batchId),
    );
    if (row && ((row.pid === pid && row.host === host && here.has(batchId)) || claimStands(row, pid, host, Number(row.stale) === 1))) {
      return { holder: { pid: row.pid, host: row.host, started_at: row.started_at } };
    }
    const { claim_generation } = (await tx.first(tx.db.selectFrom('batches').select('claim_generation').where('id', '=', batchId)))!;
    const generation = Number(claim_generation) + 1;
    await tx.run(tx.db.updateTable('batches').set({ claim_generation: generation }).where('id', '=', batchId));
    await tx.run(tx.db.deleteFrom('batch_claims').where('batch_id', '=', batchId));
    await tx.run(tx.db.insertInto('batch_claims').values({ batch_id: batchId, pid, host, started_at: ledgerTime(tx, now), expires_at: ledgerTime(tx, now, claimMs), generation }));
    // Marked before the commit: a second submission of this process, its transaction next, finds it in flight.
    if (!here.has(batchId)) marked = here.add(batchId) !== undefined;
    return { generation };
  }).catch((e: unknown) => {
    if (marked) here.delete(batchId);
    throw e;
  });
  if ('holder' in taken) {
    // An attempt that lost a conflict and was run again may have marked it.
    if (marked) here.delete(batchId);
    return { holder: taken.holder };
  }
  const { generation } = taken;
  const started = Date.now();
  const renew = () =>
    ledger.run(
      ledger.db.updateTable('batch_claims').set({ expires_at: ledgerTime(ledger, new Date(now.getTime() + Date.now() - started), claimMs) })
        .where('batch_id', '=', batchId).where('generation', '=', generation),
    );
  // A failed renewal (the database away) only lets the claim age: the submission's own calls fail the same way.
  const renewal = setInterval(() => void renew().catch(() => {}), claimMs / 4);
  renewal.unref();
  return {
    claim: {
      generation,
      holds: async (tx) => (await tx.first(tx.db.selectFrom('batches').select('id').where('id', '=', batchId).where('claim_generation', '=', generation))) !== undefined,
      release: async () => {
        clearInterval(renewal);
        here.delete(batchId);
        await ledger.run(ledger.db.deleteFrom('batch_claims').where('batch_id', '=', batchId).where('generation', '=', generation));
      },
    },
  };
}

/**
 * Claims the submission of this batch, waiting while another run holds it; fails, having sent nothing, when that
 * run holds it past the wait.
 */
export async function waitForBatchClaim(ledger: Ledger, batchId: number, now: () => Date, wait = WAIT, claimMs = BATCH_CLAIM_MS): Promise<BatchClaim> {
  const deadline = performance.now() + wait.timeoutMs;
  for (;;) {
    const attempt = await claimBatch(ledger, batchId, now(), process.pid, hostname(), claimMs);
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
