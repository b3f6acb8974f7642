import { maskedDocumentMatches } from '../domain/document.js';
import { rowIdentifier } from '../domain/identifier.js';
import { namesLikelyMatch } from '../domain/name-match.js';
import type { PixKeyType } from '../domain/pix-key.js';
import type { PlannedItem } from '../ledger/import-repository.js';
import type { RecentPayment } from '../ledger/item-repository.js';
import type { RowProblem, ValidRow } from '../sheet/validate-rows.js';
import type { KeyResolution } from './resolve-keys.js';

export interface Totals {
  readonly count: number;
  readonly sumCents: number;
  readonly largestCents: number;
  readonly byKeyType: readonly { readonly keyType: PixKeyType; readonly count: number; readonly sumCents: number }[];
}

export interface ImportPlan {
  readonly items: readonly PlannedItem[];
  /** Rows valid offline that the provider's answer rules out (unknown key, document of someone else). */
  readonly lookupProblems: readonly RowProblem[];
  readonly nameWarnings: readonly { readonly line: number; readonly sheetName: string; readonly providerName: string }[];
  readonly duplicates: readonly { readonly line: number; readonly key: string; readonly amountCents: number; readonly previous: RecentPayment }[];
  readonly totals: Totals;
}

/**
 * Decides what an import will pay, from rows already valid offline and the provider's key lookups; pure, so
 * `--dry-run` costs nothing and the rules are tested without a database. Identifiers come from the sheet or are
 * derived from the sheet's hash and the row's line, so a re-run plans the very same payments.
 */
export function planImport(input: {
  readonly file: string;
  readonly sheetHash: string;
  readonly rows: readonly ValidRow[];
  readonly resolutions: ReadonlyMap<string, KeyResolution>;
  readonly recent: readonly RecentPayment[];
}): ImportPlan {
  const items: PlannedItem[] = [];
  const lookupProblems: RowProblem[] = [];
  const nameWarnings: ImportPlan['nameWarnings'][number][] = [];
  const recentByKey = new Map<string, RecentPayment>();
  for (const p of input.recent) recentByKey.set(`${p.key}\u0000${p.amountCents}`, p);
  const duplicates: ImportPlan['duplicates'][number][] = [];

  for (const row of input.rows) {
    const resolution = input.resolutions.get(row.key);
    if (!resolution) throw new Error(`no lookup result for line ${row.line}`);
    if (resolution.error !== null) {
      lookupProblems.push({ file: input.file, line: row.line, field: 'key', reason: resolution.error });
      continue;
    }
    const destination = resolution.destination;
    if (row.document && !maskedDocumentMatches(row.document.value, destination.document)) {
      lookupProblems.push({
        file: input.file,
        line: row.line,
        field: 'document',
        reason: destination.document
          ? `the key belongs to document ${destination.document}, not ${row.document.value}`
          : 'the provider shows no document for this key, so it cannot be checked',
      });
      continue;
    }
    if (row.name && destination.name && !namesLikelyMatch(row.name, destination.name)) {
      nameWarnings.push({ line: row.line, sheetName: row.name, providerName: destination.name });
    }
    const previous = recentByKey.get(`${row.key}\u0000${row.amountCents}`);
    if (previous) duplicates.push({ line: row.line, key: row.key, amountCents: row.amountCents, previous });
    items.push({
      line: row.line,
      identifier: row.identifier ?? rowIdentifier(input.sheetHash, row.line),
      key: row.key,
      keyType: row.keyType,
      amountCents: row.amountCents,
      description: row.description,
      sheetName: row.name,
      sheetDocument: row.document?.value ?? null,
      destination,
    });
  }
  return { items, lookupProblems, nameWarnings, duplicates, totals: totalsOf(items) };
}

/** Count, sum, largest and the split by key type; integer centavos throughout. */
export function totalsOf(items: readonly { readonly keyType: PixKeyType; readonly amountCents: number }[]): Totals {
  const counter = new TotalsCounter();
  for (const it of items) counter.add(it);
  return counter.totals();
}

/** `totalsOf` one item at a time, for items that are never all held (a sheet read as a stream). */
export class TotalsCounter {
  private readonly byType = new Map<PixKeyType, { keyType: PixKeyType; count: number; sumCents: number }>();
  private count = 0;
  private sumCents = 0;
  private largestCents = 0;

  add(it: { readonly keyType: PixKeyType; readonly amountCents: number }): void {
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
