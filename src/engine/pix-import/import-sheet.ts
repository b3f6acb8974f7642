import type { PixAmountUnit } from '../../provider/dialect.js';
import { basename, dirname, extname, join } from 'node:path';
import { saoPauloDate } from '../../domain/bank-calendar.js';
import { PaybatchError, ProviderError, UsageError, type InputProblem } from '../../errors.js';
import { schedulesOf } from '../../ledger/schedule-store.js';
import type { Settings } from '../../config/settings.js';
import { claimImport, type ImportClaim } from '../../ledger/import-claim.js';
import { findImportByHash, recordImport, type ImportRecord } from '../../ledger/import-repository.js';
import { ImportStaging } from '../../ledger/import-staging.js';
import { itemsOfBatch } from '../../ledger/item-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import { getBatch, type BatchRow } from '../../ledger/batch-repository.js';
import { writePrivateFile } from '../../private-files.js';
import { isLastingFailure } from '../../network/lasting-failure.js';
import type { ProviderClient } from '../../provider/client.js';
import type { IgnoredColumn } from '../../sheet/headers.js';
import type { SheetHead, SheetRow } from '../../sheet/read-sheet.js';
import { hashSheetFile, sheetFormat, streamSheetFile } from '../../sheet/sheet-file.js';
import { rejectedSheetCsv } from '../../sheet/rejected-csv.js';
import { crashPoint } from '../crash-point.js';
import { ImportRefusedError, type ImportProblem } from './import-refusal.js';
import { DUPLICATE_WINDOW_DAYS, duplicatesRefusal, totalsOf, type Duplicate, type NameWarning, type Totals } from './plan-import.js';
import type { OnProgress } from '../progress.js';
import { planStaged, readAndLookUp } from './stage-sheet.js';
import { signBatchesAsMaker, type ApprovalGate, type MakerKey } from '../approvals/index.js';
import { claimOf, submitBatch, type BatchSchedule } from '../batches/index.js';
import { placeInRemittance, planRemittance, remittanceByDate, scheduleLaterParts, waitingForTheirDay, type RemittanceDate, type RemittancePlan } from './remittance-plan.js';

export interface ImportOptions {
  readonly file: string;
  /** The worksheet of an XLSX workbook (default: the first). */
  readonly sheet?: string;
  /** `cnab240`: a CNAB 240 remittance whatever its first line (absent: the file's content tells). */
  readonly format?: 'cnab240';
  /** The day `--pay-on` asks (the caller schedules it); refused for a remittance, whose titles carry their dates. */
  readonly payOn?: string;
  readonly name?: string;
  readonly dryRun: boolean;
  readonly start: boolean;
  readonly skipInvalid: boolean;
  readonly allowDuplicates: boolean;
  /** The rejected rows' problems in words, for the reason column of the rejected-rows file (the edge's words; default: the codes). */
  readonly sayProblem?: (p: ImportProblem) => InputProblem;
}

export interface ImportDeps {
  readonly ledger: Ledger;
  readonly provider: () => Promise<ProviderClient>;
  readonly settings: Pick<Settings, 'maxItemAmount' | 'maxBatchTotal' | 'maxBatchItems'> & Partial<Pick<Settings, 'claimTime' | 'companyDocument' | 'cnabLayout' | 'pixByAccount'>>;
  readonly now: () => Date;
  readonly onProgress?: OnProgress;
  /** The profile's approval policy and approvers: `--start` waits for the approvals they demand (absent: no policy). */
  readonly approvals?: ApprovalGate;
  /** The importer's key under an approval policy: they sign as the maker of the batches, and can never approve them. */
  readonly maker?: MakerKey;
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
  /** Every problem of the rejected rows: a row may have several. */
  readonly rejected: readonly ImportProblem[];
  /** The rows rejected (distinct lines), as many as the rejected-rows file holds. */
  readonly rejectedRows: number;
  readonly nameWarnings: readonly NameWarning[];
  readonly duplicates: readonly Duplicate[];
  readonly start: boolean;
  /** The unit the amounts go out in (the profile's `pixAmountUnit`), so the confirmation shows them as sent; null: unset, nothing can be sent. */
  readonly amountUnit: PixAmountUnit | null;
  /** For a CNAB 240 remittance: its layout, and its Pix titles by payment date; null for a sheet. */
  readonly remittance: RemittanceSummary | null;
}

export interface RemittanceSummary {
  readonly layout: string;
  readonly bank: string;
  /** Lines of bills (segment J) left to `boleto pay --file`. */
  readonly billLines: readonly number[];
  /** The Pix titles' payment dates, in order, each with how many titles and how much; a later date is scheduled. */
  readonly dates: readonly RemittanceDate[];
}

export interface ImportResult {
  readonly outcome: 'dry-run' | 'imported' | 'resumed' | 'already-imported';
  readonly summary: ImportSummary | null;
  readonly importId: number | null;
  /** The import's batches (its parts, in sheet order); none after a dry run. */
  readonly batches: readonly BatchRow[];
  readonly rejectedFile: string | null;
  /** The batches a remittance's later payment dates scheduled (as `--pay-on` does). */
  readonly scheduled?: readonly BatchSchedule[];
}

/** An earlier run of the same sheet, interrupted: its batches are taken on from where they stand, never planned again. */
export interface ResumedImport {
  readonly importId: number;
  readonly batchIds: readonly number[];
  readonly createdAt: string;
}

/**
 * An import to confirm (between prepareImport and commitImport, or abandonImport): what the person is shown, and
 * what the commit writes and sends. It holds the sheet's claim and its staged rows until it is committed or abandoned.
 */
export interface ImportPlan {
  /** What to confirm; null when there is nothing to ask (a resumed import sends on what its first run confirmed). */
  readonly summary: ImportSummary | null;
  /** The earlier interrupted run this one takes on; null for a new import. */
  readonly resuming: ResumedImport | null;
  readonly work: NewImport | ResumeWork;
}

/** A new import, planned: written by the commit from its staged rows. */
interface NewImport {
  readonly kind: 'new';
  readonly session: ImportSession;
  readonly file: string;
  readonly sheet: string | undefined;
  readonly sheetHash: string;
  readonly head: SheetHead;
  readonly rejected: readonly (ImportProblem & { readonly line: number })[];
  readonly rejectedFile: string;
  readonly sayProblem: ((p: ImportProblem) => InputProblem) | undefined;
  readonly summary: ImportSummary;
  readonly remittance: RemittancePlan | null;
}

/** An earlier run's batches, sent on by the commit. */
interface ResumeWork {
  readonly kind: 'resume';
  readonly session: ImportSession;
  readonly importId: number;
  readonly batchIds: readonly number[];
  readonly before: readonly BatchRow[];
  readonly start: boolean;
}

/** An import is either planned, to confirm and commit, or done already (a dry run, a sheet already imported). */
export type ImportPreparation = { readonly kind: 'plan'; readonly plan: ImportPlan } | { readonly kind: 'done'; readonly result: ImportResult };

/** What a planned import holds until it is committed or abandoned: the sheet's claim and its staged rows. */
class ImportSession {
  staging: ImportStaging | null = null;
  constructor(private readonly claim: ImportClaim | null) {}

  closeStaging(): void {
    this.staging?.close();
    this.staging = null;
  }

  async close(): Promise<void> {
    this.closeStaging();
    await this.claim?.release();
  }
}

/**
 * `paybatch import`, first half: sheet → offline validation → key lookups → plan. Nothing is written to the ledger
 * and nothing is sent: the plan is confirmed, then commitImport writes and sends it (or abandonImport lets it go).
 * Running the same import again (the sheet's hash is its identity) plans to continue where an interrupted run stopped.
 */
export async function prepareImport(deps: ImportDeps, o: ImportOptions): Promise<ImportPreparation> {
  const { ledger, now } = deps;
  // No unit, no payment: refused before the ledger or the provider hears of the sheet (a dry run only shows it).
  if (!o.dryRun) (await deps.provider()).requirePixAmountUnit();
  const sheetHash = await hashSheetFile(o.file);
  // One run per sheet at a time: a second one would plan it again (counting the first one's items as duplicates)
  // or continue its batch alongside it. A dry run changes nothing, so it needs no claim. Claimed before the sheet
  // is validated, so that a second run started meanwhile is told at once; held until the plan is committed or let go.
  const session = new ImportSession(o.dryRun ? null : await claimImport(ledger, { fileHash: sheetHash, fileName: o.file, now: now() }));
  try {
    const existing = await findImportByHash(ledger, sheetHash);
    const prepared = existing ? await prepareResume(deps, o, existing, session) : await planSheet(deps, o, sheetHash, session);
    if (prepared.kind === 'done') await session.close();
    return prepared;
  } catch (e) {
    await session.close();
    throw e instanceof ProviderError && !o.dryRun ? asResumable(e) : e;
  }
}

/**
 * `paybatch import`, second half, once the plan is confirmed: the import is written to the ledger (the rejected rows
 * to their file), then its batches are sent a chunk at a time from the ledger. From here on the ledger leads.
 */
export async function commitImport(deps: ImportDeps, plan: ImportPlan): Promise<ImportResult> {
  try {
    const work = plan.work;
    if (work.kind === 'resume') {
      // A run killed between writing the import and signing (or scheduling) it is signed (and scheduled) now.
      await signAsMaker(deps, work.batchIds);
      await scheduleLaterParts(deps.ledger, deps.now, work.batchIds);
      const batches = await submitParts(deps, await deps.provider(), work.batchIds, work.start, await waitingForTheirDay(deps.ledger, work.batchIds));
      const moved = batches.some((b, i) => b.status !== work.before[i]!.status);
      const scheduled = (await schedulesOf(deps.ledger, work.batchIds)).filter((s) => s.state === 'scheduled');
      return { outcome: moved ? 'resumed' : 'already-imported', summary: null, importId: work.importId, batches, rejectedFile: null, scheduled };
    }
    const recorded = await record(deps, work);
    // The staged rows are in the ledger now: the batches are sent from there.
    work.session.closeStaging();
    // A remittance's parts for a later payment date are scheduled for it, as --pay-on does, and not started now.
    const scheduled = await scheduleLaterParts(deps.ledger, deps.now, recorded.batchIds);
    const batches = await submitParts(deps, await deps.provider(), recorded.batchIds, work.summary.start, await waitingForTheirDay(deps.ledger, recorded.batchIds));
    return { outcome: 'imported', summary: work.summary, importId: recorded.importId, batches, rejectedFile: recorded.rejectedFile, scheduled };
  } catch (e) {
    throw e instanceof ProviderError ? asResumable(e) : e;
  } finally {
    await plan.work.session.close();
  }
}

/** A plan not confirmed: nothing was written; the sheet's claim and staged rows are let go. */
export async function abandonImport(plan: ImportPlan): Promise<void> {
  await plan.work.session.close();
}

/** The sheet lines these problems are on: a row with two problems is one rejected row. */
function linesOf(problems: readonly { readonly line: number }[]): Set<number> {
  return new Set(problems.map((p) => p.line));
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
  if (streamed.sha256 !== sha256) throw sheetChanged(file);
  return rows;
}

/** The sheet's bytes changed between two readings of one run. */
function sheetChanged(file: string): PaybatchError {
  return new PaybatchError(`${file} changed while it was being imported; nothing was imported. Run the import again.`, { reason: { code: 'sheet_changed', file } });
}

/** A sheet the ledger has already imported: its batches are planned to be taken on from where they stand, never planned again. */
async function prepareResume(deps: ImportDeps, o: ImportOptions, existing: ImportRecord, session: ImportSession): Promise<ImportPreparation> {
  const { ledger } = deps;
  if (o.dryRun) return { kind: 'done', result: { outcome: 'already-imported', summary: null, importId: existing.id, batches: [], rejectedFile: null } };
  const before: BatchRow[] = [];
  for (const id of existing.batchIds) before.push(await getBatch(ledger, id));
  const resuming = { importId: existing.id, batchIds: existing.batchIds, createdAt: existing.createdAt };
  const work: ResumeWork = { kind: 'resume', session, importId: existing.id, batchIds: existing.batchIds, before, start: o.start };
  // The first run was confirmed without a start; starting now moves money, so it is confirmed on its own. A batch
  // scheduled for a later day (--pay-on, a remittance's payment date) is not started by running the import again.
  const waiting = await waitingForTheirDay(ledger, existing.batchIds);
  if (!(o.start && before.some((b) => !b.start_requested && b.status !== 'deleted' && !waiting.has(b.id)))) return { kind: 'plan', plan: { summary: null, resuming, work } };
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
    rejectedRows: 0,
    nameWarnings: [],
    duplicates: [],
    start: true,
    amountUnit: (await deps.provider()).dialect.pixAmountUnit,
    remittance: null,
  };
  return { kind: 'plan', plan: { summary, resuming, work } };
}

/**
 * Reads the sheet into the import staging (a stream, each row validated as it comes, its keys looked up meanwhile)
 * and plans it: nothing is written to the ledger, and nothing is sent. Memory holds the problems and warnings, not the rows.
 */
async function planSheet(deps: ImportDeps, o: ImportOptions, sheetHash: string, session: ImportSession): Promise<ImportPreparation> {
  const { now } = deps;
  const { cnabLayout, companyDocument, pixByAccount } = deps.settings;
  const format = await sheetFormat(o.file, { sheet: o.sheet, ...(cnabLayout ? { cnabLayout } : {}) });
  const isRemittance = format.kind === 'cnab240' || o.format === 'cnab240';
  // A remittance is paid whole, each title on its own date: no rows left out, no date of the command's.
  if (isRemittance && (o.skipInvalid || o.payOn !== undefined)) {
    throw new UsageError(`${o.skipInvalid ? '--skip-invalid' : '--pay-on'} does not go with a CNAB 240 remittance: it is imported whole, each title on its own payment date.`, {
      reason: { code: 'remittance_option', option: o.skipInvalid ? 'skip-invalid' : 'pay-on' },
    });
  }
  const remittance = isRemittance ? await planRemittance(deps.ledger, o.file, { now: now(), cnabLayout, companyDocument, accountsAccepted: pixByAccount === 'bank-code' }) : null;
  // A remittance's problems name the positions of its fields, a sheet's its columns.
  const place = remittance ? placeInRemittance(remittance) : <P>(p: P) => p;
  const staging = new ImportStaging(deps.ledger);
  session.staging = staging;
  const rejectedFile = join(dirname(o.file), `${basename(o.file, extname(o.file))}.rejected.csv`);
  const read = await readAndLookUp(
    deps,
    staging,
    {
      file: o.file, sheet: o.sheet, sheetHash, maxItemAmountCents: deps.settings.maxItemAmount, stopOnProblem: !o.skipInvalid,
      ...(remittance ? { table: remittance.table } : {}),
    },
    (read) => {
      if (read.sha256 !== sheetHash) throw sheetChanged(o.file);
      if (read.head.problems.length) throw new ImportRefusedError({ code: 'sheet_unreadable', file: o.file, imported: true }, read.head.problems);
      if (read.rowCount === 0) throw new ImportRefusedError({ code: 'sheet_empty', file: o.file, imported: true });
      if (read.problems.length && !o.skipInvalid) {
        throw new ImportRefusedError({ code: 'rows_invalid', file: o.file, rejected: read.rejectedCount, rows: read.rowCount, rejectedFile }, read.problems.map(place));
      }
    },
  );

  const since = new Date(now().getTime() - DUPLICATE_WINDOW_DAYS * 86_400_000);
  const plan = await planStaged(staging, { file: o.file, sheetHash, since });
  const rejected: (ImportProblem & { readonly line: number })[] = [...read.problems, ...plan.lookupProblems].map(place).sort((a, b) => a.line - b.line);
  if (plan.lookupProblems.length && !o.skipInvalid) {
    throw new ImportRefusedError({ code: 'rows_ruled_out', file: o.file, rows: linesOf(plan.lookupProblems).size, rejectedFile }, plan.lookupProblems.map(place));
  }
  if (plan.totals.count === 0) throw new ImportRefusedError({ code: 'no_row_payable', file: o.file }, rejected);
  if (plan.totals.sumCents > deps.settings.maxBatchTotal) {
    throw new ImportRefusedError({ code: 'above_batch_total', file: o.file, totalCents: plan.totals.sumCents, limitCents: deps.settings.maxBatchTotal, imported: true });
  }
  if (plan.duplicates.length && !o.allowDuplicates) throw duplicatesRefusal(o.file, plan.duplicates, 'imported');

  const byDate = remittance ? remittanceByDate(remittance, staging.acceptedItems(), now(), deps.settings.maxBatchItems) : null;
  const summary: ImportSummary = {
    file: o.file,
    batchName: o.name ?? `${basename(o.file, extname(o.file))} ${saoPauloDate(now())}`,
    parts: byDate ? byDate.parts : Math.ceil(plan.totals.count / deps.settings.maxBatchItems),
    rows: read.rowCount,
    ignoredColumns: read.head.ignoredColumns,
    totals: plan.totals,
    rejected,
    rejectedRows: linesOf(rejected).size,
    nameWarnings: plan.nameWarnings,
    duplicates: plan.duplicates,
    start: o.start,
    amountUnit: (await deps.provider()).dialect.pixAmountUnit,
    remittance: remittance && byDate && { layout: remittance.remittance.layout.id, bank: remittance.remittance.bank, billLines: remittance.billLines, dates: byDate.dates },
  };
  if (o.dryRun) return { kind: 'done', result: { outcome: 'dry-run', summary, importId: null, batches: [], rejectedFile: null } };
  const work: NewImport = { kind: 'new', session, file: o.file, sheet: o.sheet, sheetHash, head: read.head, rejected, rejectedFile, sayProblem: o.sayProblem, summary, remittance };
  return { kind: 'plan', plan: { summary, resuming: null, work } };
}

/** Writes a confirmed new import: the rejected rows to their file, the import and its batches to the ledger. */
async function record(deps: ImportDeps, work: NewImport): Promise<{ importId: number; batchIds: readonly number[]; rejectedFile: string | null }> {
  const { ledger, now } = deps;
  const staging = work.session.staging;
  if (!staging) throw new Error('the import plan was committed or abandoned already');
  let writtenRejects: string | null = null;
  if (work.rejected.length) {
    const rows = await rowsOnLines(work.file, work.sheet, work.sheetHash, linesOf(work.rejected));
    const say = work.sayProblem ?? ((p: ImportProblem): InputProblem => ({ ...p, reason: p.reason.code }));
    const byLine = new Map<number, InputProblem[]>();
    for (const p of work.rejected) byLine.set(p.line, [...(byLine.get(p.line) ?? []), say(p)]);
    const csv = rejectedSheetCsv({ ...work.head, rows: [] }, rows.map((row) => ({ row, problems: byLine.get(row.line) ?? [] })));
    // Private like the ledger: the rejected rows carry names, documents, keys and amounts.
    await writePrivateFile(work.rejectedFile, csv);
    writtenRejects = work.rejectedFile;
  }
  const dates = work.remittance?.dates;
  const { importId, batchIds } = await recordImport(ledger, {
    fileHash: work.sheetHash,
    fileName: work.file,
    rowCount: work.summary.rows,
    batchName: work.summary.batchName,
    itemCount: work.summary.totals.count,
    // Iterable again, not a one-shot generator: on PostgreSQL a transaction that loses a conflict to another host is
    // run again, and its items must be read again from the start.
    items: { [Symbol.iterator]: () => staging.acceptedItems() },
    rejectedCount: work.summary.rejectedRows,
    now: now(),
    partSize: deps.settings.maxBatchItems,
    importedBy: deps.maker?.signer.fingerprint ?? null,
    ...(work.remittance && dates ? { partOf: (it: { readonly line: number }) => dates.get(it.line)!, remittance: work.remittance.record } : {}),
  });
  await signAsMaker(deps, batchIds);
  crashPoint('import-write');
  return { importId, batchIds, rejectedFile: writtenRejects };
}

/** The importer signs as the maker of these batches, when a key was given (under an approval policy). */
async function signAsMaker(deps: ImportDeps, batchIds: readonly number[]): Promise<void> {
  if (deps.maker && deps.approvals) await signBatchesAsMaker(deps.ledger, deps.approvals, deps.now, deps.maker, batchIds);
}

/** Sends the import's batches one after the other (each resumable on its own), started when asked unless scheduled. */
async function submitParts(deps: ImportDeps, provider: ProviderClient, batchIds: readonly number[], start: boolean, scheduled: ReadonlySet<number> = new Set()): Promise<BatchRow[]> {
  const batches: BatchRow[] = [];
  for (const id of batchIds) {
    const sendDeps = { ledger: deps.ledger, provider, now: deps.now, onProgress: deps.onProgress, approvals: deps.approvals, ...claimOf(deps.settings) };
    const batch = await submitBatch(sendDeps, id, { start: start && !scheduled.has(id) });
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
  // Items refused as written are refused again: what the profile says of the provider must change first.
  const refused = e.method === 'POST' && /\/items$/.test(e.path) && (e.status === 400 || e.status === 422);
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
    hint: refused
      ? `The provider refused the items as written, and would again: check the profile against its documentation (pixAmountUnit for the amounts; pixByAccount for payments to account data, which need a provider that takes a Pix without a key), then run the same command again: ${again}`
      : isLastingFailure(e) && e.hint ? `${e.hint} Then run the same command again: ${again}` : `Run the same command again when the provider answers: ${again}`,
    ...(refused ? { reason: { code: 'items_refused', call: `${e.method} ${e.path}`, status: e.status!, detail: /\((.*)\)$/.exec(e.message)?.[1] ?? '' } } : {}),
  });
}
