import type { Lineage } from './period-statement.js';

/** One payment of a report: a sheet row as the ledger has it now. Amount in centavos; instants ISO UTC. */
export interface ReportLine {
  readonly line: number | null;
  readonly name: string | null;
  readonly document: string | null;
  readonly key: string;
  readonly amountCents: number;
  /** The ledger state (`paid`, `failed`, `returned`, …). */
  readonly status: string;
  /** Rejection, failure or return reason as received. */
  readonly reason: string | null;
  readonly createdAt: string;
  /** When it reached its present state, once settled (paid, failed, returned); null while under way. */
  readonly settledAt: string | null;
  readonly endToEndId: string | null;
  /** The receipt's file as the report names it (a path, or its place in a bundle); null when none was saved. */
  readonly receipt: string | null;
  /** The row's story across batches (failed here, paid later in #4…); absent when the report was gathered without it. */
  readonly lineage?: Lineage;
}

/** Count and sum of a batch's payments in one state. */
export interface StatusTotal {
  readonly status: string;
  readonly count: number;
  readonly sumCents: number;
}

/** What a batch report holds, whatever its format. */
export interface BatchReport {
  readonly batch: { readonly id: number; readonly kind: string; readonly name: string; readonly remoteId: string | null };
  /** The company paying (the profile's `companyName`, `companyDocument`); absent or null fields when unset. */
  readonly payer?: { readonly name: string | null; readonly document: string | null };
  readonly generatedAt: string;
  readonly lines: readonly ReportLine[];
  readonly totals: readonly StatusTotal[];
  readonly count: number;
  readonly sumCents: number;
}
