import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { formatBRL } from '../domain/money.js';
import { saoPauloDate } from '../domain/bank-calendar.js';
import { CancelledError, InputRejectedError, PaybatchError, ProviderError, type InputProblem } from '../errors.js';
import type { Settings } from '../config/settings.js';
import { claimImport } from '../ledger/import-claim.js';
import { findImportByHash, recordImport } from '../ledger/import-repository.js';
import { itemsOfBatch, recentPayments } from '../ledger/item-repository.js';
import type { Ledger } from '../ledger/open-ledger.js';
import { getBatch, type BatchRow } from '../ledger/batch-repository.js';
import { writePrivateFile } from '../private-files.js';
import type { ProviderClient } from '../provider/client.js';
import { readSheet } from '../sheet/read-sheet.js';
import { rejectedSheetCsv } from '../sheet/rejected-csv.js';
import { validateRows, type RowProblem } from '../sheet/validate-rows.js';
import { crashPoint } from './crash-point.js';
import { planImport, totalsOf, type ImportPlan, type Totals } from './plan-import.js';
import type { OnProgress } from './progress.js';
import { resolveKeys } from './resolve-keys.js';
import { submitBatch } from './submit-batch.js';

export interface ImportOptions {
  readonly file: string;
  readonly name?: string;
  readonly dryRun: boolean;
  readonly start: boolean;
  readonly skipInvalid: boolean;
  readonly allowDuplicates: boolean;
}

export interface ImportDeps {
  readonly ledger: Ledger;
  readonly provider: () => Promise<ProviderClient>;
  readonly settings: Pick<Settings, 'maxItemAmount' | 'maxBatchTotal'>;
  readonly now: () => Date;
  /** Shown the plan before anything is written; false cancels. */
  readonly confirm: (summary: ImportSummary) => Promise<boolean>;
  readonly onProgress?: OnProgress;
  readonly onResume?: (r: { importId: number; batchId: number; createdAt: string }) => void;
}

/** What the person confirms and what `--json` reports. */
export interface ImportSummary {
  readonly file: string;
  readonly batchName: string;
  readonly rows: number;
  readonly totals: Totals;
  readonly rejected: readonly InputProblem[];
  readonly nameWarnings: ImportPlan['nameWarnings'];
  readonly duplicates: ImportPlan['duplicates'];
  readonly start: boolean;
}

export interface ImportResult {
  readonly outcome: 'dry-run' | 'imported' | 'resumed' | 'already-imported';
  readonly summary: ImportSummary | null;
  readonly importId: number | null;
  readonly batch: BatchRow | null;
  readonly rejectedFile: string | null;
}

const DUPLICATE_WINDOW_DAYS = 30;

/**
 * `paybatch import`: sheet → offline validation → key lookups → plan → confirmation → ledger → remote batch.
 * Nothing is written before the confirmation; from then on the ledger leads, and running the same import again
 * (the sheet's hash is its identity) continues where an interrupted run stopped.
 */
export async function importSheet(deps: ImportDeps, o: ImportOptions): Promise<ImportResult> {
  const { ledger, now } = deps;
  const bytes = await readFile(o.file).catch((e: NodeJS.ErrnoException) => {
    throw new InputRejectedError(`Cannot read ${o.file}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  });
  const sheetHash = createHash('sha256').update(bytes).digest('hex');
  // One run per sheet at a time: a second one would plan it again (counting the first one's items as duplicates)
  // or continue its batch alongside it. A dry run changes nothing, so it needs no claim.
  const claim = o.dryRun ? null : claimImport(ledger, { fileHash: sheetHash, fileName: o.file, now: now() });
  try {
    return await importClaimed(deps, o, bytes, sheetHash);
  } catch (e) {
    throw e instanceof ProviderError && !o.dryRun ? asResumable(e) : e;
  } finally {
    claim?.release();
  }
}

async function importClaimed(deps: ImportDeps, o: ImportOptions, bytes: Buffer, sheetHash: string): Promise<ImportResult> {
  const { ledger, now } = deps;
  const existing = findImportByHash(ledger, sheetHash);
  if (existing) {
    if (o.dryRun) return { outcome: 'already-imported', summary: null, importId: existing.id, batch: null, rejectedFile: null };
    deps.onResume?.({ importId: existing.id, batchId: existing.batchId, createdAt: existing.createdAt });
    const before = getBatch(ledger, existing.batchId);
    // The first run was confirmed without a start; starting now moves money, so it is confirmed on its own.
    if (o.start && !before.start_requested && before.status !== 'deleted') {
      const items = itemsOfBatch(ledger, before.id);
      const summary: ImportSummary = {
        file: o.file,
        batchName: before.name,
        rows: existing.rowCount,
        totals: totalsOf(items.map((it) => ({ keyType: it.key_type, amountCents: it.amount_cents }))),
        rejected: [],
        nameWarnings: [],
        duplicates: [],
        start: true,
      };
      if (!(await deps.confirm(summary))) throw new CancelledError();
    }
    const batch = await submitBatch({ ledger, provider: await deps.provider(), now, onProgress: deps.onProgress }, existing.batchId, { start: o.start });
    const moved = batch.status !== before.status;
    return { outcome: moved ? 'resumed' : 'already-imported', summary: null, importId: existing.id, batch, rejectedFile: null };
  }

  const sheet = readSheet(bytes, o.file);
  if (sheet.problems.length) throw new InputRejectedError(`${o.file} cannot be read as a payment sheet; nothing was imported.`, sheet.problems);
  const validation = validateRows(sheet, { maxItemAmountCents: deps.settings.maxItemAmount });
  if (sheet.rows.length === 0) throw new InputRejectedError(`${o.file} has no payment rows; nothing was imported.`);
  const rejectedFile = join(dirname(o.file), `${basename(o.file, extname(o.file))}.rejected.csv`);
  if (validation.problems.length && !o.skipInvalid) {
    throw new InputRejectedError(
      `${o.file}: ${validation.rejected.length} of ${sheet.rows.length} rows are invalid; nothing was imported.`,
      validation.problems,
      { hint: `Fix the sheet, or pass --skip-invalid to import the valid rows and write the others to ${rejectedFile}.` },
    );
  }

  const provider = await deps.provider();
  const resolutions = await resolveKeys(provider, validation.valid.map((r) => r.key), { onProgress: deps.onProgress });
  const since = new Date(now().getTime() - DUPLICATE_WINDOW_DAYS * 86_400_000);
  const plan = planImport({ file: o.file, sheetHash, rows: validation.valid, resolutions, recent: recentPayments(ledger, since, sheetHash) });
  const rejected: RowProblem[] = [...validation.problems, ...plan.lookupProblems].sort((a, b) => a.line - b.line);
  if (plan.lookupProblems.length && !o.skipInvalid) {
    throw new InputRejectedError(
      `${o.file}: the provider rules out ${plan.lookupProblems.length} rows; nothing was imported.`,
      plan.lookupProblems,
      { hint: `Fix the sheet, or pass --skip-invalid to import the other rows and write these to ${rejectedFile}.` },
    );
  }
  if (plan.items.length === 0) throw new InputRejectedError(`${o.file}: no row can be paid; nothing was imported.`, rejected);
  if (plan.totals.sumCents > deps.settings.maxBatchTotal) {
    throw new InputRejectedError(
      `${o.file}: the total ${formatBRL(plan.totals.sumCents)} is above the profile's maxBatchTotal of ${formatBRL(deps.settings.maxBatchTotal)}; nothing was imported.`,
      [],
      { hint: "Split the sheet, or raise the limit with 'paybatch config set maxBatchTotal <R$>'." },
    );
  }
  if (plan.duplicates.length && !o.allowDuplicates) {
    throw new InputRejectedError(
      `${o.file}: ${plan.duplicates.length} rows pay a key the same amount it was paid in the last ${DUPLICATE_WINDOW_DAYS} days; nothing was imported.`,
      plan.duplicates.map((d) => ({
        file: o.file,
        line: d.line,
        field: 'key',
        reason: `${d.key} was paid ${formatBRL(d.amountCents)} in batch "${d.previous.batchName}" on ${d.previous.createdAt.slice(0, 10)}`,
      })),
      { hint: 'If these are meant to be paid again, pass --allow-duplicates.' },
    );
  }

  const summary: ImportSummary = {
    file: o.file,
    batchName: o.name ?? `${basename(o.file, extname(o.file))} ${saoPauloDate(now())}`,
    rows: sheet.rows.length,
    totals: plan.totals,
    rejected,
    nameWarnings: plan.nameWarnings,
    duplicates: plan.duplicates,
    start: o.start,
  };
  if (o.dryRun) return { outcome: 'dry-run', summary, importId: null, batch: null, rejectedFile: null };
  if (!(await deps.confirm(summary))) throw new CancelledError();

  let writtenRejects: string | null = null;
  if (rejected.length) {
    const lines = new Set(rejected.map((p) => p.line));
    const rows = sheet.rows.filter((r) => lines.has(r.line));
    const csv = rejectedSheetCsv(sheet, rows.map((row) => ({ row, problems: rejected.filter((p) => p.line === row.line) })));
    // Private like the ledger: the rejected rows carry names, documents, keys and amounts.
    await writePrivateFile(rejectedFile, csv);
    writtenRejects = rejectedFile;
  }
  const { importId, batchId } = recordImport(ledger, {
    fileHash: sheetHash,
    fileName: o.file,
    rowCount: sheet.rows.length,
    batchName: summary.batchName,
    items: plan.items,
    rejectedCount: rejected.length,
    now: now(),
  });
  crashPoint('import-write');
  const batch = await submitBatch({ ledger, provider, now, onProgress: deps.onProgress }, batchId, { start: o.start });
  if (!batch.remote_id) throw new PaybatchError(`Batch #${batchId} has no remote id after submission.`);
  return { outcome: 'imported', summary, importId, batch, rejectedFile: writtenRejects };
}

/**
 * A provider failure during an import: whatever the call, repeating the import is the safe next step — it continues
 * where this run stopped, and every item keeps its identifier (the provider's idempotency key).
 */
function asResumable(e: ProviderError): ProviderError {
  return new ProviderError(e.message, {
    status: e.status,
    method: e.method,
    path: e.path,
    code: e.code,
    body: e.body,
    outcomeUnknown: e.outcomeUnknown,
    cause: e.cause,
    hint: 'Run the same command again when the provider answers: the import continues where it stopped, and every item keeps its identifier, so nothing is paid twice.',
  });
}
