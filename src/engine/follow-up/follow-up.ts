import type { Settings } from '../../config/settings.js';
import { PaybatchError } from '../../errors.js';
import { sweepTemporaryFiles } from '../../private-files.js';
import { batchesAwaitingReturnConfirmation, batchesToWatch, unfinishedBatches } from '../../ledger/batch-repository.js';
import { pruneEventsBefore } from '../../ledger/event-repository.js';
import { batchesRefused } from '../../ledger/refused-batches.js';
import { workLeft, type WorkLeft } from '../../ledger/work-left.js';
import type { ProviderClient } from '../../provider/client.js';
import type { BillDocumentWriter } from '../../receipts/bill-receipt.js';
import { raiseAlerts, type AttentionDeps, type AttentionResult } from '../alerts/index.js';
import { payScheduledBills, writeOwedBillDocuments, type ScheduledBillsResult } from '../bills/index.js';
import { fetchReceipts, type ReceiptsResult } from './fetch-receipts.js';
import { News } from './news.js';
import { reconcileBatch } from './reconcile.js';
import { reprocessUnpaidForInstability } from './reprocess.js';
import type { ApprovalGate } from '../approvals/index.js';
import { startScheduledBatches } from '../batches/index.js';
import { claimOf, submitBatch } from '../batches/index.js';
import { resolveStrayBatches } from './stray-batches.js';
import { passProblem, type PassProblem, type PassStep } from '../pass-problem.js';
import { LEASE_HOLDER, withLease, type LeaseOptions } from '../work-lease.js';

export interface FollowUpDeps extends AttentionDeps {
  readonly settings: AttentionDeps['settings'] & Pick<Settings, 'returnWatch' | 'returnWatchEvery' | 'leaseTime' | 'claimTime'>;
  readonly provider: ProviderClient;
  readonly receiptsDir: string;
  /** Writes the bills' documents in the profile's language (bound by the daemon's caller). */
  readonly billDocuments: BillDocumentWriter;
  /** The profile's approval policy and approvers: starts wait for the approvals they demand (absent: no policy). */
  readonly approvals?: ApprovalGate;
  /** Told when events applied outside the pass paid items (the daemon's deliveries): their receipts are taken in the pass. */
  readonly news?: News;
}

export interface PassResult extends WorkLeft {
  readonly reconciled: { readonly batches: number; readonly changed: number; readonly unknownStatuses: readonly { identifier: string; status: string }[] };
  readonly submitted: readonly number[];
  /** Scheduled batches (`import --pay-on`) whose time came in this pass, started (also in `submitted`). */
  readonly scheduledStarts: readonly number[];
  /** Remittance bills scheduled for a later day (`boleto pay --file`) whose day came: sent or refused in this pass. */
  readonly scheduledBills: ScheduledBillsResult;
  readonly reprocessed: number;
  readonly receipts: ReceiptsResult;
  readonly attention: AttentionResult;
  /** Communication failures of this pass; each is tried again next pass. */
  readonly errors: readonly PassProblem[];
  /** Temporary receipt files a killed write left behind, removed at the start of this pass. */
  readonly swept: readonly string[];
}

const EVENT_RETENTION_DAYS = 30;

/**
 * One pass of following payments to the end: reconcile started batches from the provider's item pages (and, every
 * `returnWatchEvery` for `returnWatch` after they settle, settled ones: a return whose event was lost), turn
 * instability returns into new attempts, finish every submission or start the ledger still owes, save receipts,
 * and alert support. A batch whose calls fail is left for the next pass; nothing is lost by stopping between steps.
 * Each unit of work is taken under a lease (work-lease.ts), so daemons sharing a ledger split a pass between them.
 */
export async function followUpPass(deps: FollowUpDeps): Promise<PassResult> {
  const { ledger, provider, now } = deps;
  const errors: PassProblem[] = [];
  // receipts/<batch>/ and receipts/bills/: one level of folders.
  const swept = sweepTemporaryFiles(deps.receiptsDir, now(), 1);
  const guard = async <T>(step: PassStep, batchId: number | undefined, fn: () => Promise<T>): Promise<T | null> => {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof PaybatchError)) throw e;
      errors.push(passProblem(step, batchId === undefined ? {} : { batchId }, e));
      return null;
    }
  };

  // Receipts are fetched while the provider's item pages are read and batches are sent: both wait on the provider,
  // and a large batch's receipts are most of a follow-up. An item is taken as soon as a page or an event shows it
  // paid (each page read and each batch of events applied tells `news`), and the fetching ends once the payments'
  // side is done and nothing more is due (a `daemon --once` pass leaves no receipt it could save).
  // On a shared (PostgreSQL) ledger receipts are claimed a page at a time, so daemons fetch different ones.
  const news = deps.news ?? new News();
  const paymentsRun = followPayments(deps, guard, news);
  const more = { news, until: paymentsRun };
  const [pixRun, payments] = await Promise.allSettled([
    fetchReceipts({ ledger, provider, receiptsDir: deps.receiptsDir, now, receiptWait: deps.settings.receiptWait }, ledger.dialect === 'postgres' ? { claimAs: LEASE_HOLDER, more } : { more }),
    paymentsRun,
  ]);
  if (payments.status === 'rejected') throw payments.reason;
  if (pixRun.status === 'rejected') throw pixRun.reason;
  const { started, changed, unknownStatuses, reprocess, submitted, scheduled } = payments.value;
  const pix = pixRun.value;
  errors.push(...scheduled.errors);

  const lease = leaseOptions(deps);
  // Each schedule is claimed on its own (a shared ledger), so the lease only spares other daemons the reading.
  const scheduledBills = (await withLease(ledger, 'scheduled-bills', now, () =>
    payScheduledBills({ ledger, now, provider: async () => provider, documents: deps.billDocuments, send: deps.send, profile: deps.profile, sandbox: deps.sandbox, ...(deps.approvals ? { approvals: deps.approvals } : {}) }),
  lease)) ?? { sent: [], refused: [], errors: [] };
  errors.push(...scheduledBills.errors);

  // Bills whose status moved since their last document (scheduled → paid → returned) get the next one.
  const bills = (await withLease(ledger, 'bill-documents', now, () =>
    writeOwedBillDocuments({ ledger, now, documents: deps.billDocuments }),
  lease)) ?? { saved: [], failed: [] };
  const receipts: ReceiptsResult = { saved: [...pix.saved, ...bills.saved], failed: [...pix.failed, ...bills.failed.map((f) => ({ identifier: `bill #${f.billId}`, error: f.error }))] };
  errors.push(...receipts.failed.map((f) => passProblem('receipt', { subject: f.identifier }, f.error)));
  // One daemon at a time decides and sends alerts: with several on one ledger, each alert goes out once.
  const attention = (await withLease(ledger, 'attention', now, () => raiseAlerts(deps), lease)) ?? { alerts: [], stale: 0 };
  // Event ids are kept well past any provider's retry span, then dropped.
  await pruneEventsBefore(ledger, new Date(now().getTime() - EVENT_RETENTION_DAYS * 86_400_000));
  return {
    reconciled: { batches: started.length, changed, unknownStatuses },
    submitted,
    scheduledStarts: scheduled.started,
    scheduledBills,
    reprocessed: reprocess.attempts,
    receipts,
    attention,
    ...(await workLeft(ledger)),
    errors,
    swept,
  };
}

type Guard = <T>(step: PassStep, batchId: number | undefined, fn: () => Promise<T>) => Promise<T | null>;

const leaseOptions = (deps: FollowUpDeps): LeaseOptions & { leaseMs: number } => ({ leaseMs: deps.settings.leaseTime * 1000 });

/**
 * The payments' side of a pass: reconcile started batches (and watched settled ones) from the provider's item pages,
 * turn confirmed instability returns into new attempts, finish every submission or start the ledger still owes,
 * then the scheduled starts whose time came.
 */
async function followPayments(deps: FollowUpDeps, guard: Guard, news: News) {
  const { ledger, provider, now } = deps;
  let changed = 0;
  const unknownStatuses: { identifier: string; status: string }[] = [];
  const started = (await unfinishedBatches(ledger)).filter((b) => b.status === 'started');
  const ago = (seconds: number) => new Date(now().getTime() - seconds * 1000).toISOString();
  const watched = deps.settings.returnWatch > 0 ? await batchesToWatch(ledger, { settledSince: ago(deps.settings.returnWatch), readBefore: ago(deps.settings.returnWatchEvery) }) : [];
  for (const b of [...(await batchesAwaitingReturnConfirmation(ledger)), ...watched]) if (!started.some((s) => s.id === b.id)) started.push(b);
  const lease = leaseOptions(deps);
  // Reading item pages needs the provider: while it does not answer, the lease is let run out, so another host can try.
  const reading = { ...lease, progressing: () => provider.answering(lease.leaseMs / 3) };
  for (const b of started) {
    // A batch another daemon is reading right now (a shared ledger) is that daemon's in this pass.
    const r = await guard('reconcile', b.id, () =>
      withLease(ledger, `batch:${b.id}:reconcile`, now, (fence) => reconcileBatch({ ledger, provider, now, instabilityWords: provider.dialect.instabilityWords, fence, news }, b.id), reading),
    );
    if (r) {
      changed += r.changed;
      unknownStatuses.push(...r.unknownStatuses);
    }
  }

  const reprocess = (await guard('reprocess', undefined, () => withLease(ledger, 'reprocess', now, () => reprocessUnpaidForInstability({ ledger, provider, now }, { maxReprocess: deps.settings.maxReprocess }), lease))) ?? { attempts: 0 };

  const submitted: number[] = [];
  const claim = claimOf(deps.settings);
  // A batch the provider keeps refusing is alerted (attention.ts) and left to a person, not sent again at every pass.
  const refused = await batchesRefused(ledger);
  for (const b of (await unfinishedBatches(ledger)).filter((b) => b.status !== 'started' && !refused.has(b.id))) {
    if (b.status === 'submitted' && !b.start_requested) continue; // waits for a person to start it
    // A batch another run is sending right now (an import with --start) is that run's; the next pass sees how it ended.
    const done = await guard('send', b.id, () => submitBatch({ ledger, provider, now, approvals: deps.approvals, ...claim }, b.id, { start: Boolean(b.start_requested), onBusy: 'skip' }));
    if (done) submitted.push(b.id);
  }
  // Remote batches a run created after losing its claim: deleted while empty, otherwise alerted.
  await guard('stray_batches', undefined, () => resolveStrayBatches({ ledger, provider, now, ...claim }));
  // After the batches already owed a start, so that a scheduled start that fails is tried once per pass.
  const scheduled = (await withLease(ledger, 'scheduled-starts', now, () => startScheduledBatches(deps), lease)) ?? { started: [], errors: [] };
  submitted.push(...scheduled.started);
  return { started, changed, unknownStatuses, reprocess, submitted, scheduled };
}
