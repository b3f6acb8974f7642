import type { Destination } from '../../domain/destination.js';
import { saoPauloDate } from '../../domain/bank-calendar.js';
import { uuidV5 } from '../../domain/identifier.js';
import type { ItemState } from '../../domain/item-state.js';
import { formatBRL } from '../../domain/money.js';
import type { Settings } from '../../config/settings.js';
import { InputRejectedError, PaybatchError } from '../../errors.js';
import { getBatch, type BatchRow } from '../../ledger/batch-repository.js';
import { itemByIdentifier } from '../../ledger/item-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import {
  recentPaymentsBesides,
  recordRetryBatch,
  retryableItems,
  retryBatchesOf,
  type RetryableItem,
  type RetryItem,
  type RetryStatus,
} from '../../ledger/retry-store.js';
import type { ProviderClient } from '../../provider/client.js';
import type { StagedRow } from '../../ledger/import-staging.js';
import { crashPoint } from '../crash-point.js';
import { ImportRefusedError } from './import-refusal.js';
import { DUPLICATE_WINDOW_DAYS, duplicatesRefusal, planRow, totalsOf, type Duplicate, type NameWarning, type Totals } from './plan-import.js';
import type { OnProgress } from '../progress.js';
import { resolveKeys, type KeyResolution } from './resolve-keys.js';
import { signBatchesAsMaker, type ApprovalGate, type MakerKey } from '../approvals/index.js';
import { reconcileBatch } from '../follow-up/index.js';
import { claimOf, submitBatch } from '../batches/index.js';

export interface RetryOptions {
  readonly batchId: number;
  readonly statuses: readonly RetryStatus[];
  readonly start: boolean;
  readonly allowDuplicates: boolean;
}

/** What the person confirms (between prepareRetry and commitRetry) and what `--json` reports: the import's summary, for the rows paid again. */
export interface RetrySummary {
  readonly sourceBatchId: number;
  readonly batchName: string;
  readonly rows: number;
  readonly totals: Totals;
  readonly nameWarnings: readonly NameWarning[];
  readonly duplicates: readonly Duplicate[];
  readonly start: boolean;
}

export interface RetryDeps {
  readonly ledger: Ledger;
  readonly provider: () => Promise<ProviderClient>;
  readonly settings: Pick<Settings, 'maxBatchTotal'> & Partial<Pick<Settings, 'claimTime'>>;
  readonly now: () => Date;
  readonly onProgress?: OnProgress;
  /** The profile's approval policy and approvers: `--start` waits for the approvals they demand (absent: no policy). */
  readonly approvals?: ApprovalGate;
  /** The key of who makes the retry batch under an approval policy: they sign as its maker and can never approve it. */
  readonly maker?: MakerKey;
}

export interface RetryResult {
  /** retried: a new batch; resumed: an earlier run's batch sent further; already-retried / nothing: no change. */
  readonly outcome: 'retried' | 'resumed' | 'already-retried' | 'nothing-to-retry';
  readonly source: BatchRow;
  /** The retry batch this run made or took further; null when there was nothing to do. */
  readonly batch: BatchRow | null;
  readonly summary: RetrySummary | null;
  /** Each new payment and the one it pays again. */
  readonly items: readonly { readonly line: number | null; readonly identifier: string; readonly retryOf: string }[];
  /**
   * Rows not paid again because the provider's record, read just before, does not show them failed or returned for
   * good: it shows them paid or under way (the ledger now says so), or does not show them at all.
   */
  readonly skipped: readonly { readonly line: number | null; readonly identifier: string; readonly record: ItemState | null }[];
}

/** The identifier of the `n`-th retry (1, 2, …) of the item whose identifier is `identifier`: always the same. */
export function retryIdentifier(identifier: string, n: number): string {
  return uuidV5(`retry:${identifier}:${n}`);
}

/** A retry to confirm: its summary, and the rows it pays again, each under its new identifier and destination. */
export interface RetryPlan {
  readonly options: RetryOptions;
  readonly source: BatchRow;
  readonly summary: RetrySummary;
  readonly items: readonly RetryItem[];
  readonly skipped: RetryResult['skipped'];
}

/** A retry is either planned, to confirm and commit, or already done: nothing to take, or an earlier run's batch sent on. */
export type RetryPreparation = { readonly kind: 'plan'; readonly plan: RetryPlan } | { readonly kind: 'done'; readonly result: RetryResult };

/**
 * `paybatch batch retry`, first half: the rows of a batch that failed (or were returned for good) are planned as a new
 * batch, each item under an identifier derived from the one it pays again, with the import's key lookups and
 * duplicate rule; nothing of the retry is written until commitRetry, once the person confirmed the plan's summary.
 * Running it again after an interruption finds nothing new to take and continues the batch the first run wrote.
 */
export async function prepareRetry(deps: RetryDeps, o: RetryOptions): Promise<RetryPreparation> {
  const { ledger, now } = deps;
  const source = await getBatch(ledger, o.batchId);
  const claimed = await retryableItems(ledger, source.id, o.statuses);
  if (claimed.length === 0) return { kind: 'done', result: await continueEarlier(deps, source, o.start) };

  // Paying again is decided on the provider's record, read right now, never on what events claimed: the ledger
  // converges to the item pages of the batches these rows are in, and only rows they show failed (or returned for
  // good) are taken.
  const provider = await deps.provider();
  for (const batchId of new Set(claimed.map((c) => c.item.batch_id))) {
    await reconcileBatch({ ledger, provider, now, instabilityWords: provider.dialect.instabilityWords }, batchId);
  }
  const retryable = await retryableItems(ledger, source.id, o.statuses);
  const candidates = retryable.filter((c) => c.item.record_state === c.item.status);
  const taken = new Set(candidates.map((c) => c.item.id));
  const skipped: { line: number | null; identifier: string; record: ItemState | null }[] = [];
  for (const c of claimed.filter((k) => !taken.has(k.item.id))) {
    skipped.push({ line: c.item.line, identifier: c.item.identifier, record: (await itemByIdentifier(ledger, c.item.identifier))?.record_state ?? null });
  }
  if (candidates.length === 0) return { kind: 'done', result: { outcome: 'nothing-to-retry', source, batch: null, summary: null, items: [], skipped } };

  // A payment to an account has no key to look up: it goes to the account it was sent to.
  const resolutions = await resolveKeys(provider, candidates.filter((c) => c.item.key_type !== 'account').map((c) => c.item.key), { onProgress: deps.onProgress });
  const resolutionOf = (c: (typeof candidates)[number]): KeyResolution =>
    c.item.key_type === 'account' ? { destination: JSON.parse(c.item.destination_json!) as Destination, error: null } : resolutions.get(c.item.key)!;
  const label = `batch #${source.id}`;
  const since = new Date(now().getTime() - DUPLICATE_WINDOW_DAYS * 86_400_000);
  const identifiers = new Map(candidates.map((c) => [c.item.id, retryIdentifier(c.item.identifier, c.retries + 1)]));
  const recent = new Map((await recentPaymentsBesides(ledger, { since, keys: candidates.map((c) => c.item.key), exceptRoots: candidates.map((c) => c.rootId) })).map((p) => [`${p.key}\u0000${p.amountCents}`, p]));
  const plans = candidates.map((c) => planRow(label, asRow(c, identifiers.get(c.item.id)!), resolutionOf(c), recent.get(`${c.item.key}\u0000${c.item.amount_cents}`)));
  const plan = {
    items: plans.flatMap((p) => (p.item ? [p.item] : [])),
    lookupProblems: plans.flatMap((p) => (p.problem ? [p.problem] : [])),
    nameWarnings: plans.flatMap((p) => (p.nameWarning ? [p.nameWarning] : [])),
    duplicates: plans.flatMap((p) => (p.duplicate ? [p.duplicate] : [])),
  };
  const totals = totalsOf(plan.items);
  if (plan.lookupProblems.length) {
    throw new ImportRefusedError({ code: 'retry_ruled_out', source: label, batchId: source.id, rows: plan.lookupProblems.length, statuses: o.statuses.join(',') }, plan.lookupProblems);
  }
  if (totals.sumCents > deps.settings.maxBatchTotal) {
    throw new InputRejectedError(
      `${label}: the total ${formatBRL(totals.sumCents)} is above the profile's maxBatchTotal of ${formatBRL(deps.settings.maxBatchTotal)}; nothing was created.`,
      [],
    );
  }
  if (plan.duplicates.length && !o.allowDuplicates) throw duplicatesRefusal(label, plan.duplicates, 'created');
  const summary: RetrySummary = {
    sourceBatchId: source.id,
    batchName: `${source.name} retry ${saoPauloDate(now())}`,
    rows: candidates.length,
    totals,
    nameWarnings: plan.nameWarnings,
    duplicates: plan.duplicates,
    start: o.start,
  };
  const byIdentifier = new Map(plan.items.map((p) => [p.identifier, p]));
  const items = candidates.map((c) => ({ from: c, identifier: identifiers.get(c.item.id)!, destination: byIdentifier.get(identifiers.get(c.item.id)!)!.destination }));
  return { kind: 'plan', plan: { options: o, source, summary, items, skipped } };
}

/**
 * `paybatch batch retry`, second half, once the plan is confirmed: the new batch is written, then sent like an
 * import's. A row is taken only while no other payment of it is under way or paid, checked again in the transaction
 * that writes the batch, so two runs never pay a row twice.
 */
export async function commitRetry(deps: RetryDeps, plan: RetryPlan): Promise<RetryResult> {
  const { ledger, now } = deps;
  const { options: o, source, summary } = plan;
  const batchId = await ledger.transaction(async (tx) => {
    // Read again where the batch is written: another run may have taken some of these rows meanwhile.
    const still = new Map((await retryableItems(tx, source.id, o.statuses)).map((c) => [c.item.id, c.retries]));
    if (plan.items.some((i) => still.get(i.from.item.id) !== i.from.retries)) {
      throw new PaybatchError(`Some rows of batch #${source.id} were paid again by another run meanwhile; nothing was created.`, {
        hint: `Run 'paybatch batch retry ${source.id}' again to see what is left.`,
        reason: { code: 'retry_raced', batchId: source.id },
      });
    }
    return recordRetryBatch(tx, { sourceBatchId: source.id, statuses: o.statuses, name: summary.batchName, items: plan.items, start: o.start, at: now(), importedBy: deps.maker?.signer.fingerprint ?? null });
  });
  if (deps.maker && deps.approvals) await signBatchesAsMaker(ledger, deps.approvals, now, deps.maker, [batchId]);
  crashPoint('retry-write');
  const provider = await deps.provider();
  const batch = await submitBatch({ ledger, provider, now, onProgress: deps.onProgress, approvals: deps.approvals, ...claimOf(deps.settings) }, batchId, { start: o.start });
  const items = plan.items.map((i) => ({ line: i.from.item.line, identifier: i.identifier, retryOf: i.from.item.identifier }));
  return { outcome: 'retried', source, batch, summary, items, skipped: plan.skipped };
}

/** Nothing left to take: a retry batch an earlier run wrote but did not finish sending (or starting) is sent on. */
async function continueEarlier(deps: RetryDeps, source: BatchRow, start: boolean): Promise<RetryResult> {
  const earlier = await retryBatchesOf(deps.ledger, source.id);
  const last = earlier.at(-1);
  if (!last) return { outcome: 'nothing-to-retry', source, batch: null, summary: null, items: [], skipped: [] };
  const owed = ['draft', 'created'].includes(last.status) || (last.status === 'submitted' && (start || last.start_requested === 1));
  if (!owed) return { outcome: 'already-retried', source, batch: last, summary: null, items: [], skipped: [] };
  const batch = await submitBatch(
    { ledger: deps.ledger, provider: await deps.provider(), now: deps.now, onProgress: deps.onProgress, approvals: deps.approvals, ...claimOf(deps.settings) },
    last.id,
    { start: start || last.start_requested === 1 },
  );
  return { outcome: 'resumed', source, batch, summary: null, items: [], skipped: [] };
}

/** An item to pay again, as the import's planner takes a sheet row. */
function asRow(c: RetryableItem, identifier: string): StagedRow {
  const it = c.item;
  const document = it.sheet_document ? { type: it.sheet_document.length === 11 ? ('cpf' as const) : ('cnpj' as const), value: it.sheet_document } : null;
  return {
    line: it.line ?? 0,
    key: it.key,
    keyType: it.key_type,
    amountCents: it.amount_cents,
    description: it.description,
    identifier,
    name: it.sheet_name,
    document,
  };
}

