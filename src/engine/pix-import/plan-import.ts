import { maskedDocumentMatches } from '../../domain/document.js';
import { namesLikelyMatch } from '../../domain/name-match.js';
import type { DestinationType } from '../../domain/account-destination.js';
import type { PlannedItem } from '../../ledger/import-repository.js';
import { plannedItemOf, type StagedRow } from '../../ledger/import-staging.js';
import type { RecentPayment } from '../../ledger/item-repository.js';
import { ImportRefusedError, type ImportProblem, type RowReason } from './import-refusal.js';
import type { KeyResolution } from './resolve-keys.js';

export interface Totals {
  readonly count: number;
  readonly sumCents: number;
  readonly largestCents: number;
  readonly byKeyType: readonly { readonly keyType: DestinationType; readonly count: number; readonly sumCents: number }[];
}

export interface NameWarning {
  readonly line: number;
  readonly sheetName: string;
  readonly providerName: string;
}

/** How far back the ledger's payment of a key makes a row paying it the same amount a duplicate. */
export const DUPLICATE_WINDOW_DAYS = 30;

/**
 * The refusal of rows that pay a key the same amount again (what --allow-duplicates lets through), naming each row;
 * `source` is the sheet or batch, `nothing` what was not done (imported, created).
 */
export function duplicatesRefusal(source: string, duplicates: readonly Duplicate[], nothing: 'imported' | 'created'): ImportRefusedError {
  return new ImportRefusedError(
    { code: 'duplicates', source, rows: duplicates.length, days: DUPLICATE_WINDOW_DAYS, nothing },
    duplicates.map((d) => ({
      file: source,
      line: d.line,
      field: 'key',
      reason: { code: 'paid_before', key: d.key, amountCents: d.amountCents, batchName: d.previous.batchName, date: d.previous.createdAt.slice(0, 10) },
    })),
  );
}

/** A row paying a key the same amount the ledger paid it recently. */
export interface Duplicate {
  readonly line: number;
  readonly key: string;
  readonly amountCents: number;
  readonly previous: RecentPayment;
}

/** What an import does with one row: pay it (perhaps with a warning, perhaps flagged as a duplicate) or reject it. */
export type RowPlan =
  | { readonly item: PlannedItem; readonly nameWarning: NameWarning | null; readonly duplicate: Duplicate | null; readonly problem: null }
  | { readonly item: null; readonly nameWarning: null; readonly duplicate: null; readonly problem: ImportProblem & { readonly line: number } };

/**
 * Decides one row valid offline, from the provider's answer about its key and the ledger's earlier payment of the
 * same key and amount (if any); pure, so the rules are tested without a database or a provider. The row's
 * identifier is already fixed (given by the sheet, or derived from the sheet's hash and line): a re-run plans the
 * very same payments. Reasons are values (codes and data).
 */
export function planRow(file: string, row: StagedRow, lookup: KeyResolution, previous: RecentPayment | undefined): RowPlan {
  const reject = (field: string, reason: RowReason): RowPlan => ({ item: null, nameWarning: null, duplicate: null, problem: { file, line: row.line, field, reason } });
  if (lookup.error !== null) return reject('key', lookup.error);
  const destination = lookup.destination;
  if (row.document && !maskedDocumentMatches(row.document.value, destination.document)) {
    return reject(
      'document',
      destination.document ? { code: 'document_mismatch', shown: destination.document, given: row.document.value } : { code: 'no_document_shown' },
    );
  }
  const nameWarning = row.name && destination.name && !namesLikelyMatch(row.name, destination.name)
    ? { line: row.line, sheetName: row.name, providerName: destination.name }
    : null;
  return {
    item: plannedItemOf(row, destination),
    nameWarning,
    duplicate: previous ? { line: row.line, key: row.key, amountCents: row.amountCents, previous } : null,
    problem: null,
  };
}

/** Count, sum, largest and the split by key type; integer centavos throughout. */
export function totalsOf(items: readonly { readonly keyType: DestinationType; readonly amountCents: number }[]): Totals {
  const counter = new TotalsCounter();
  for (const it of items) counter.add(it);
  return counter.totals();
}

/** `totalsOf` one item at a time, for items that are never all held (a sheet read as a stream). */
export class TotalsCounter {
  private readonly byType = new Map<DestinationType, { keyType: DestinationType; count: number; sumCents: number }>();
  private count = 0;
  private sumCents = 0;
  private largestCents = 0;

  add(it: { readonly keyType: DestinationType; readonly amountCents: number }): void {
    this.count += 1;
    this.sumCents += it.amountCents;
    this.largestCents = Math.max(this.largestCents, it.amountCents);
    const t = this.byType.get(it.keyType) ?? { keyType: it.keyType, count: 0, sumCents: 0 };
    t.count += 1;
    t.sumCents += it.amountCents;
    this.byType.set(it.keyType, t);
  }

  totals(): Totals {
    return {
      count: this.count, sumCents: this.sumCents, largestCents: this.largestCents,
      byKeyType: [...this.byType.values()].map((t) => ({ ...t })),
    };
  }
}
