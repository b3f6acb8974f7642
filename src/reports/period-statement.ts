/**
 * A statement of a period: every Pix payment and bill of a profile whose story ended (or, still open, began) in the
 * period, with the totals that reconcile them. Money in centavos; instants ISO UTC; days `YYYY-MM-DD` in São Paulo.
 */

/** How a sheet row (or a bill) ended: paid, failed for good, returned, or still open. */
export type Outcome = 'paid' | 'failed' | 'returned' | 'open';

/** One payment of a sheet row: the row's first, a `batch retry` of it, or a new attempt paybatch made (reprocess). */
export interface RowPayment {
  readonly itemId: number;
  readonly batchId: number;
  /** `sheet`: the row's first payment; `retry`: made by `batch retry`; `reprocess`: paid again after Pix instability. */
  readonly kind: 'sheet' | 'retry' | 'reprocess';
  /** The ledger state of this payment (`paid`, `failed`, `returned`, `processing`, …). */
  readonly status: string;
  /** Failure or return reason as received (`AC06 - …`); null when none. */
  readonly reason: string | null;
  /** When it reached its present state. */
  readonly at: string;
}

/** A sheet row's story: where it was imported, each payment of it in order, and which one paid it. */
export interface Lineage {
  readonly batchId: number;
  readonly line: number | null;
  readonly payments: readonly RowPayment[];
  /** The batch whose payment paid the row (the row's own batch, or a later one); null when none did. */
  readonly paidIn: number | null;
}

/** A Pix payment of the statement: one sheet row, counted once however many times it was sent. */
export interface StatementPayment {
  /** The row's first item: its identity across retries and reprocessing. */
  readonly rowId: number;
  readonly batch: { readonly id: number; readonly kind: string; readonly name: string };
  readonly line: number | null;
  readonly payee: { readonly name: string | null; readonly document: string | null; readonly key: string; readonly keyType: string };
  readonly amountCents: number;
  readonly outcome: Outcome;
  /** The reason of the last payment that did not pay, as received; null when paid or none was given. */
  readonly reason: string | null;
  /** When the row's first payment was written to the ledger to be sent. */
  readonly sentAt: string;
  /** When the paying payment settled; null unless it paid (a returned row keeps when it had paid, if it had). */
  readonly paidAt: string | null;
  readonly returnedAt: string | null;
  /** When the last attempt failed for good; null unless failed. */
  readonly failedAt: string | null;
  /** The paying payment's end-to-end id (or the last attempt's, when none paid). */
  readonly endToEndId: string | null;
  readonly lineage: Lineage;
}

/** A bill payment of the statement, with what the bill asked and what was paid. */
export interface StatementBill {
  readonly id: number;
  readonly description: string | null;
  readonly beneficiary: string | null;
  readonly beneficiaryDocument: string | null;
  /** The typeable line. */
  readonly line: string;
  readonly dueDate: string | null;
  /** The bill's face value, discount, interest and fine as the provider gave them; null when it did not. */
  readonly originalCents: number | null;
  readonly discountCents: number | null;
  readonly interestCents: number | null;
  readonly fineCents: number | null;
  /** What paybatch asked the provider to pay. */
  readonly amountCents: number;
  /** What the provider says it paid; null until it says. */
  readonly paidCents: number | null;
  readonly outcome: Outcome;
  /** The ledger state (`paid`, `scheduled`, `unknown`, `returned`, …). */
  readonly status: string;
  readonly reason: string | null;
  readonly sentAt: string;
  /** The settlement day the provider gave (YYYY-MM-DD); null until paid. */
  readonly paidOn: string | null;
  readonly returnedAt: string | null;
  readonly transactionId: string | null;
}

/** Count and centavos. */
export interface Tally {
  readonly count: number;
  readonly cents: number;
}

/** Totals that reconcile: `all` = paid + failed + returned + open, in count and centavos. */
export type OutcomeTotals = { readonly all: Tally } & { readonly [O in Outcome]: Tally };

/** A movement of the company's account, for statements in OFX: a payment going out, or a return coming back. */
export interface Movement {
  readonly kind: 'pix' | 'bill';
  /** Unique and stable: the same movement keeps its id in every statement (OFX FITID). */
  readonly id: string;
  readonly direction: 'debit' | 'credit';
  readonly cents: number;
  readonly at: string;
  /** The payee, or the bill's beneficiary. */
  readonly name: string | null;
  readonly memo: string;
}

export interface PeriodStatement {
  /** Inclusive São Paulo days. */
  readonly period: { readonly from: string; readonly to: string };
  readonly profile: string;
  /** The company paying: the profile's `companyName` and `companyDocument`; null fields when unset. */
  readonly payer: { readonly name: string | null; readonly document: string | null };
  /** The company's account (`companyBank`, `companyBranch`, `companyAccount`); null unless all three are set. */
  readonly account: { readonly bank: string; readonly branch: string; readonly account: string } | null;
  readonly generatedAt: string;
  readonly payments: readonly StatementPayment[];
  readonly bills: readonly StatementBill[];
  readonly totals: { readonly pix: OutcomeTotals; readonly bills: OutcomeTotals };
  /** Payments that settled in the period (returned ones too) and returns that happened in it, oldest first. */
  readonly movements: readonly Movement[];
  /** The balance the provider's last event of the period carried; null when no stored event carried one. */
  readonly balance: { readonly cents: number; readonly at: string } | null;
}
