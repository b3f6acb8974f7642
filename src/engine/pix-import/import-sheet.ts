import type { PixAmountUnit } from '../../provider/dialect.js';
import { basename, dirname, extname, join } from 'node:path';
import { formatBRL } from '../../domain/money.js';
import { saoPauloDate } from '../../domain/bank-calendar.js';
import type { Locale } from '../../words/locale.js';
import { CancelledError, InputRejectedError, PaybatchError, ProviderError, type InputProblem } from '../../errors.js';
import type { Settings } from '../../config/settings.js';
import { claimImport } from '../../ledger/import-claim.js';
import { findImportByHash, recordImport, type ImportRecord } from '../../ledger/import-repository.js';
import { ImportStaging } from '../../ledger/import-staging.js';
import { itemsOfBatch } from '../../ledger/item-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import { getBatch, type BatchRow } from '../../ledger/batch-repository.js';
import { writePrivateFile } from '../../private-files.js';
import { isLastingFailure } from '../../network/lasting-failure.js';
import type { ProviderClient } from '../../provider/client.js';
import type { IgnoredColumn } from '../../sheet/headers.js';
import type { SheetRow } from '../../sheet/read-sheet.js';
import { hashSheetFile, streamSheetFile } from '../../sheet/sheet-file.js';
import { rejectedSheetCsv } from '../../sheet/rejected-csv.js';
import { crashPoint } from '../crash-point.js';
import { IMPORT_WORDS, sheetProblemIn } from './import-words.js';
import { DUPLICATE_WINDOW_DAYS, duplicatesRefusal, totalsOf, type Duplicate, type NameWarning, type Totals } from './plan-import.js';
import type { OnProgress } from '../progress.js';
import { planStaged, readAndLookUp } from './stage-sheet.js';
import { signBatchesAsMaker, type ApprovalGate, type MakerKey } from '../approvals/index.js';
import { claimOf, submitBatch } from '../batches/index.js';

export interface ImportOptions {
  readonly file: string;
  /** The worksheet of an XLSX workbook (default: the first). */
  readonly sheet?: string;
  readonly name?: string;
  readonly dryRun: boolean;
  readonly start: boolean;
  readonly skipInvalid: boolean;
  readonly allowDuplicates: boolean;
  /** The language of refusals and row reasons (default English; the CLI passes 'en' under --json). */
  readonly locale?: Locale;
}

export interface ImportDeps {
  readonly ledger: Ledger;
  readonly provider: () => Promise<ProviderClient>;
  readonly settings: Pick<Settings, 'maxItemAmount' | 'maxBatchTotal' | 'maxBatchItems'> & Partial<Pick<Settings, 'claimTime'>>;
  readonly now: () => Date;
  /** Shown the plan before anything is written; false cancels. */
  readonly confirm: (summary: ImportSummary) => Promise<boolean>;
  readonly onProgress?: OnProgress;
  /** The profile's approval policy and approvers: `--start` waits for the approvals they demand (absent: no policy). */
  readonly approvals?: ApprovalGate;
  /** The importer's key under an approval policy: they sign as the maker of the batches, and can never approve them. */
  readonly maker?: MakerKey;
  readonly onResume?: (r: { importId: number; batchIds: readonly number[]; createdAt: string }) => void | Promise<void>;
}

/** What the person confirms and what `--json` reports. */
export interface ImportSummary {
  readonly file: string;
  readonly batchName: string;
  /** Batches at the provider: more than one when the sheet has more items than `maxBatchItems`. */
  readonly parts: number;
  readonly rows: number;
  /** Named columns of the sheet that paybatch does not read, so that a misspelt one is seen before anything is paid. */
  readonly ignoredColumns: readonly IgnoredColumn[];
  readonly totals: Totals;
  readonly rejected: readonly InputProblem[];
  readonly nameWarnings: readonly NameWarning[];
  readonly duplicates: readonly Duplicate[];
  readonly start: boolean;
  /** The unit the amounts go out in (the profile's `pixAmountUnit`), so the confirmation shows them as sent; null: unset, nothing can be sent. */
  readonly amountUnit: PixAmountUnit | null;
}

export interface ImportResult {
  readonly outcome: 'dry-run' | 'imported' | 'resumed' | 'already-imported';
  readonly summary: ImportSummary | null;
  readonly importId: number | null;
  /** The import's batches (its parts, in sheet order); none after a dry run. */
  readonly batches: readonly BatchRow[];
  readonly rejectedFile: string | null;
}

/**
 * `paybatch import`: sheet → offline validation → key lookups → plan → confirmation → ledger → remote batch.
 * Nothing is written before the confirmation; from then on the ledger leads, and running the same import again
 * (the sheet's hash is its identity) continues where an interrupted run stopped.
 */
export async function importSheet(deps: ImportDeps, o: ImportOptions): Promise<ImportResult> {
  const { ledger, now } = deps;
  // No unit, no payment: refused before the ledger or the provider hears of the sheet (a dry run only shows it).
  if (!o.dryRun) (await deps.provider()).requirePixAmountUnit();
  const sheetHash = await hashSheetFile(o.file);
  // One run per sheet at a time: a second one would plan it again (counting the first one's items as duplicates)
  // or continue its batch alongside it. A dry run changes nothing, so it needs no claim. Claimed before the sheet
  // is validated, so that a second run started meanwhile is told at once.
  const claim = o.dryRun ? null : await claimImport(ledger, { fileHash: sheetHash, fileName: o.file, now: now() });
  try {
    const existing = await findImportByHash(ledger, sheetHash);
    if (existing) return await resumeImport(deps, o, existing);
    // Planned and recorded in a function of its own, so that the sheet's rows and the plan are garbage once the
    // items are in the ledger: the batches are then sent a chunk at a time from the ledger.
    const recorded = await planAndRecord(deps, o, sheetHash);
    if (recorded.outcome === 'dry-run') return { outcome: 'dry-run', summary: recorded.summary, importId: null, batches: [], rejectedFile: null };
    const batches = await submitParts(deps, await deps.provider(), recorded.batchIds, o.start);
    return { outcome: 'imported', summary: recorded.summary, importId: recorded.importId, batches, rejectedFile: recorded.rejectedFile };
  } catch (e) {
    throw e instanceof ProviderError && !o.dryRun ? asResumable(e) : e;
  } finally {
    await claim?.release();
  }
}

/** The sheet's rows on these lines, read again from the file (which must still have the bytes of `sha256`). */
async function rowsOnLines(file: string, sheet: string | undefined, sha256: string, lines: ReadonlySet<number>): Promise<SheetRow[]> {
  let rows: SheetRow[] = [];
  const streamed = await streamSheetFile(file, () => {
    rows = [];
    return (row) => {
      if (lines.has(row.line)) rows.push(row);
    };
  }, { sheet });
  if (streamed.sha256 !== sha256) throw new PaybatchError(`${file} changed while it was being imported; nothing was imported. Run the import again.`);
  return rows;
}

/** A sheet the ledger has already imported: its batches are taken on from where they stand, never planned again. */
async function resumeImport(deps: ImportDeps, o: ImportOptions, existing: ImportRecord): Promise<ImportResult> {
  const { ledger } = deps;
  if (o.dryRun) return { outcome: 'already-imported', summary: null, importId: existing.id, batches: [], rejectedFile: null };
  await deps.onResume?.({ importId: existing.id, batchIds: existing.batchIds, createdAt: existing.createdAt });
  // A run killed between writing the import and signing it is signed now.
  await signAsMaker(deps, existing.batchIds);
  const before: BatchRow[] = [];
  for (const id of existing.batchIds) before.push(await getBatch(ledger, id));
  // The first run was confirmed without a start; starting now moves money, so it is confirmed on its own.
  if (o.start && before.some((b) => !b.start_requested && b.status !== 'deleted')) {
    const items = [];
    for (const b of before) items.push(...(await itemsOfBatch(ledger, b.id)));
    const summary: ImportSummary = {
      file: o.file,
      batchName: before[0]!.name,
      parts: before.length,
      rows: existing.rowCount,
      ignoredColumns: [],
      totals: totalsOf(items.map((it) => ({ keyType: it.key_type, amountCents: it.amount_cents }))),
      rejected: [],
      nameWarnings: [],
      duplicates: [],
      start: true,
      amountUnit: (await deps.provider()).dialect.pixAmountUnit,
    };
    if (!(await deps.confirm(summary))) throw new CancelledError();
  }
  const batches = await submitParts(deps, await deps.provider(), existing.batchIds, o.start);
  const moved = batches.some((b, i) => b.status !== before[i]!.status);
  return { outcome: moved ? 'resumed' : 'already-imported', summary: null, importId: existing.id, batches, rejectedFile: null };
}

type Recorded =
  | { readonly outcome: 'dry-run'; readonly summary: ImportSummary }
  | { readonly outcome: 'recorded'; readonly summary: ImportSummary; readonly importId: number; readonly batchIds: readonly number[]; readonly rejectedFile: string | null };

/**
 * Reads the sheet into the import staging (a stream, each row validated as it comes, its keys looked up meanwhile),
 * plans it, asks for the confirmation and writes the import: nothing is written to the ledger before the
 * confirmation, and nothing is sent here. Memory holds the problems and warnings, not the rows.
 */
async function planAndRecord(deps: ImportDeps, o: ImportOptions, sheetHash: string): Promise<Recorded> {
  const staging = new ImportStaging(deps.ledger);
  try {
    return await planAndRecordStaged(deps, o, sheetHash, staging);
  } finally {
    staging.close();
  }
}

async function planAndRecordStaged(deps: ImportDeps, o: ImportOptions, sheetHash: string, staging: ImportStaging): Promise<Recorded> {
  const { ledger, now } = deps;
  const rejectedFile = join(dirname(o.file), `${basename(o.file, extname(o.file))}.rejected.csv`);
  const locale = o.locale ?? 'en';
  const w = IMPORT_WORDS[locale];
  const read = await readAndLookUp(
    deps,
    staging,
    { file: o.file, sheet: o.sheet, sheetHash, maxItemAmountCents: deps.settings.maxItemAmount, stopOnProblem: !o.skipInvalid, locale },
    (read) => {
      if (read.sha256 !== sheetHash) throw new PaybatchError(w.sheetChanged(o.file));
      if (read.head.problems.length) throw new InputRejectedError(w.refused(w.cannotRead(o.file), true), read.head.problems.map((p) => sheetProblemIn(p, locale)));
      if (read.rowCount === 0) throw new InputRejectedError(w.refused(w.noRows(o.file), true));
      if (read.problems.length && !o.skipInvalid) {
        throw new InputRejectedError(
          w.refused(w.rowsInvalid(o.file, read.rejectedCount, read.rowCount), true),
          read.problems.map((p) => sheetProblemIn(p, locale)),
          { hint: w.fixOrSkipInvalid(rejectedFile) },
        );
      }
    },
  );

  const since = new Date(now().getTime() - DUPLICATE_WINDOW_DAYS * 86_400_000);
  const plan = await planStaged(staging, { file: o.file, sheetHash, since, locale });
  const rejected = [...read.problems.map((p) => sheetProblemIn(p, locale)), ...plan.lookupProblems].sort((a, b) => a.line - b.line);
  if (plan.lookupProblems.length && !o.skipInvalid) {
    throw new InputRejectedError(
      w.refused(w.providerRulesOut(o.file, plan.lookupProblems.length), true),
      plan.lookupProblems,
      { hint: w.fixOrSkipRuledOut(rejectedFile) },
    );
  }
  if (plan.totals.count === 0) throw new InputRejectedError(w.refused(w.noRowPayable(o.file), true), rejected);
  if (plan.totals.sumCents > deps.settings.maxBatchTotal) {
    throw new InputRejectedError(
      w.refused(w.aboveBatchTotal(o.file, formatBRL(plan.totals.sumCents), formatBRL(deps.settings.maxBatchTotal)), true),
      [],
      { hint: w.splitOrRaise },
    );
  }
  if (plan.duplicates.length && !o.allowDuplicates) throw duplicatesRefusal(o.file, plan.duplicates, w.nothingImported, w);

  const summary: ImportSummary = {
    file: o.file,
    batchName: o.name ?? `${basename(o.file, extname(o.file))} ${saoPauloDate(now())}`,
    parts: Math.ceil(plan.totals.count / deps.settings.maxBatchItems),
    rows: read.rowCount,
    ignoredColumns: read.head.ignoredColumns,
    totals: plan.totals,
    rejected,
    nameWarnings: plan.nameWarnings,
    duplicates: plan.duplicates,
    start: o.start,
    amountUnit: (await deps.provider()).dialect.pixAmountUnit,
  };
  if (o.dryRun) return { outcome: 'dry-run', summary };
  if (!(await deps.confirm(summary))) throw new CancelledError();

  let writtenRejects: string | null = null;
  if (rejected.length) {
    const lines = new Set(rejected.map((p) => p.line));
    const rows = await rowsOnLines(o.file, o.sheet, sheetHash, lines);
    const byLine = new Map<number, InputProblem[]>();
    for (const p of rejected) byLine.set(p.line, [...(byLine.get(p.line) ?? []), p]);
    const csv = rejectedSheetCsv({ ...read.head, rows: [] }, rows.map((row) => ({ row, problems: byLine.get(row.line) ?? [] })));
    // Private like the ledger: the rejected rows carry names, documents, keys and amounts.
    await writePrivateFile(rejectedFile, csv);
    writtenRejects = rejectedFile;
  }
  const { importId, batchIds } = await recordImport(ledger, {
    fileHash: sheetHash,
    fileName: o.file,
    rowCount: read.rowCount,
    batchName: summary.batchName,
    itemCount: plan.totals.count,
    // Iterable again, not a one-shot generator: on PostgreSQL a transaction that loses a conflict to another host is
    // run again, and its items must be read again from the start.
    items: { [Symbol.iterator]: () => staging.acceptedItems() },
    rejectedCount: rejected.length,
    now: now(),
    partSize: deps.settings.maxBatchItems,
    importedBy: deps.maker?.signer.fingerprint ?? null,
  });
  await signAsMaker(deps, batchIds);
  crashPoint('import-write');
  return { outcome: 'recorded', summary, importId, batchIds, rejectedFile: writtenRejects };
}

/** The importer signs as the maker of these batches, when a key was given (under an approval policy). */
async function signAsMaker(deps: ImportDeps, batchIds: readonly number[]): Promise<void> {
  if (deps.maker && deps.approvals) await signBatchesAsMaker(deps.ledger, deps.approvals, deps.now, deps.maker, batchIds);
}

/** Sends the import's batches one after the other (each resumable on its own), started when asked. */
async function submitParts(deps: ImportDeps, provider: ProviderClient, batchIds: readonly number[], start: boolean): Promise<BatchRow[]> {
  const batches: BatchRow[] = [];
  for (const id of batchIds) {
    const batch = await submitBatch({ ledger: deps.ledger, provider, now: deps.now, onProgress: deps.onProgress, approvals: deps.approvals, ...claimOf(deps.settings) }, id, { start });
    if (!batch.remote_id) throw new PaybatchError(`Batch #${id} has no remote id after submission.`);
    batches.push(batch);
  }
  return batches;
}

/**
 * A provider failure during an import: whatever the call, repeating the import is the safe next step — it continues
 * where this run stopped, and every item keeps its identifier (the provider's idempotency key).
 */
function asResumable(e: ProviderError): ProviderError {
  const again = 'the import continues where it stopped, and every item keeps its identifier, so nothing is paid twice.';
  return new ProviderError(e.message, {
    status: e.status,
    method: e.method,
    path: e.path,
    code: e.code,
    body: e.body,
    outcomeUnknown: e.outcomeUnknown,
    unreachable: e.type === 'provider_unreachable',
    cause: e.cause,
    // What to change comes first when waiting cannot help (a refused certificate, a proxy asking for credentials).
    hint: isLastingFailure(e) && e.hint ? `${e.hint} Then run the same command again: ${again}` : `Run the same command again when the provider answers: ${again}`,
  });
}
