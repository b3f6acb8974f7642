import { accountDestinationOf, parseAccountReference } from '../../domain/account-destination.js';
import type { Destination } from '../../domain/destination.js';
import { rowIdentifier } from '../../domain/identifier.js';
import type { ImportStaging, StagedRow } from '../../ledger/import-staging.js';
import type { ProviderClient } from '../../provider/client.js';
import { validateSheetFile, type ValidatedSheetFile } from '../../sheet/sheet-file.js';
import type { ValidRow } from '../../sheet/validate-rows.js';
import type { TableStreamer } from '../../sheet/table.js';
import { planRow, TotalsCounter, type Duplicate, type NameWarning, type Totals } from './plan-import.js';
import type { OnProgress } from '../progress.js';
import { lookKeysUp } from './resolve-keys.js';
import type { ImportProblem, LookupFailure } from './import-refusal.js';

/** Rows staged per transaction while reading, and planned per page afterwards. */
const CHUNK = 1000;

const NOT_LOOKED_UP: LookupFailure = { code: 'key_lookup_failed', why: 'not_looked_up' };

/**
 * Reads a sheet into the staging, each row validated as it comes, while its keys are looked up at the provider:
 * the lookups start with the first valid row, so the provider is busy while the rest of the sheet is read. `check`
 * judges the sheet once it is read (the offline verdict comes before any lookup failure); when it throws, the
 * lookups stop. Returns once every staged key has its answer.
 */
export async function readAndLookUp(
  deps: { readonly provider: () => Promise<ProviderClient>; readonly onProgress?: OnProgress },
  staging: ImportStaging,
  o: {
    readonly file: string; readonly sheet?: string; readonly sheetHash: string; readonly maxItemAmountCents: number; readonly stopOnProblem: boolean;
    /** How the file is read when the import decided it (a remittance's titles with their identifiers). */
    readonly table?: TableStreamer;
  },
  check: (read: ValidatedSheetFile) => void,
): Promise<ValidatedSheetFile> {
  const feed = new KeyFeed(staging);
  let resolved = 0;
  let said = 0;
  const progress = () => {
    said = resolved;
    deps.onProgress?.({ phase: 'lookup', done: resolved, total: feed.staged });
  };
  const lookups = (async () => {
    if (!(await feed.waitForKey())) return;
    const provider = await deps.provider();
    await lookKeysUp(provider, feed, {
      onResolved: (key, resolution) => {
        // The staging keeps a failure as text: its data, read back when the rows are planned.
        staging.resolveKey(key, { destination: resolution.destination, error: resolution.error && JSON.stringify(resolution.error) });
        resolved += 1;
        // While the sheet is read the total still grows: "all done" is said once, at the end.
        if (feed.reading && resolved === feed.staged) return;
        progress();
      },
    });
  })().then(
    () => null,
    (failure: unknown) => ({ failure }),
  );

  let pending: (StagedRow & { destination: Destination | null })[] = [];
  const flush = () => {
    if (pending.length) feed.added(staging.addRows(pending));
    pending = [];
  };
  let read: ValidatedSheetFile;
  try {
    read = await validateSheetFile(
      o.file,
      o.maxItemAmountCents,
      () => {
        pending = [];
        staging.startOver();
        return (row: ValidRow) => {
          pending.push({ ...row, identifier: row.identifier ?? rowIdentifier(o.sheetHash, row.line), destination: accountRowDestination(row) });
          if (pending.length >= CHUNK) flush();
        };
      },
      // A sheet that will be refused for its rows needs no lookups.
      o.stopOnProblem ? () => feed.stop() : undefined,
      { sheet: o.sheet, ...(o.table ? { table: o.table } : {}) },
    );
    flush();
    feed.end();
    check(read);
  } catch (e) {
    feed.stop();
    await lookups;
    throw e;
  }
  const outcome = await lookups;
  if (outcome) throw outcome.failure;
  if (said !== resolved) progress();
  return read;
}

/** The destination of a row paid to an account (its title's account, document and name): it needs no lookup. */
function accountRowDestination(row: ValidRow): Destination | null {
  if (row.keyType !== 'account' || row.accountType === null) return null;
  const account = parseAccountReference(row.key, row.accountType);
  return account && accountDestinationOf(account, row.document?.value ?? '', row.name ?? '');
}

/** What the staged rows come to: the rows the provider's answers rule out, warnings, duplicates and totals. */
export interface StagedPlan {
  readonly lookupProblems: readonly (ImportProblem & { readonly line: number })[];
  readonly nameWarnings: readonly NameWarning[];
  readonly duplicates: readonly Duplicate[];
  readonly totals: Totals;
}

/**
 * Plans the staged rows a page at a time (planRow), marking in the staging the rows that will be paid; a row pays a
 * key the same amount as the ledger did since `since` is a duplicate (first attempts from any other sheet).
 */
export async function planStaged(staging: ImportStaging, o: { readonly file: string; readonly sheetHash: string; readonly since: Date }): Promise<StagedPlan> {
  const lookupProblems: (ImportProblem & { readonly line: number })[] = [];
  const nameWarnings: NameWarning[] = [];
  const duplicates: Duplicate[] = [];
  const totals = new TotalsCounter();
  for (let after = 0; ; ) {
    const page = staging.rowsAfter(after, CHUNK);
    if (page.length === 0) break;
    const last = page.at(-1)!.row.line;
    const previous = await staging.recentPaymentsOn(page[0]!.row.line, last, o.since, o.sheetHash);
    const accepted: number[] = [];
    for (const { row, destination, lookupError } of page) {
      const lookup = destination ? { destination, error: null } : { destination: null, error: lookupError ? (JSON.parse(lookupError) as LookupFailure) : NOT_LOOKED_UP };
      const plan = planRow(o.file, row, lookup, previous.get(row.line));
      if (plan.problem) {
        lookupProblems.push(plan.problem);
        continue;
      }
      accepted.push(row.line);
      totals.add(plan.item);
      if (plan.nameWarning) nameWarnings.push(plan.nameWarning);
      if (plan.duplicate) duplicates.push(plan.duplicate);
    }
    staging.accept(accepted);
    after = last;
  }
  return { lookupProblems, nameWarnings, duplicates, totals: totals.totals() };
}

/**
 * The staged keys as an async iterable for the lookups: keys as the reader stages them, waiting for more while the
 * sheet is read; it ends when the reading has ended and every key was handed out, or at once when stopped.
 */
class KeyFeed implements AsyncIterable<string> {
  reading = true;
  staged = 0;
  #stopped = false;
  #wake: () => void = () => {};

  constructor(private readonly staging: ImportStaging) {}

  added(newKeys: number): void {
    this.staged += newKeys;
    if (newKeys > 0) this.#wake();
  }

  end(): void {
    this.reading = false;
    this.#wake();
  }

  stop(): void {
    this.#stopped = true;
    this.end();
  }

  /** True once a key is staged; false when the reading ends (or is stopped) before any. */
  async waitForKey(): Promise<boolean> {
    while (this.staged === 0 && this.reading) await new Promise<void>((resolve) => (this.#wake = resolve));
    return this.staged > 0 && !this.#stopped;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<string> {
    for (;;) {
      if (this.#stopped) return;
      const key = this.staging.nextKey();
      if (key !== null) {
        yield key;
        continue;
      }
      if (!this.reading) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}
