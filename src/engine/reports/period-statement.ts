import type { Destination } from '../../domain/destination.js';
import { saoPauloDate, saoPauloInstant } from '../../domain/bank-calendar.js';
import { parseWebhookEvent, type EventReading } from '../../domain/webhook-event.js';
import { allBills, type BillRow } from '../../ledger/bill-repository.js';
import { pixEventsReceived } from '../../ledger/event-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import { allRowPayments, type RowPaymentRow } from '../../ledger/row-payments.js';
import type { Movement, Outcome, PeriodStatement, StatementBill, StatementPayment } from '../../reports/period-statement.js';
import { fileNamePart, writeFreeFile } from '../../reports/output-file.js';
import type { StatementRenderer } from '../../reports/statement-renderer.js';
import { outcomeTotals, rowStories, type RowStory } from '../row-stories.js';

export interface StatementOptions {
  /** First and last São Paulo day of the period, inclusive (YYYY-MM-DD). */
  readonly from: string;
  readonly to: string;
  readonly profile: string;
  readonly payer: PeriodStatement['payer'];
  readonly account: PeriodStatement['account'];
  /** How the profile reads Pix events (their balance's unit). */
  readonly eventReading: Partial<EventReading>;
  readonly now: Date;
}

/**
 * A statement of a period across every batch and bill of the ledger. A sheet row is counted once, by how it ended:
 * paid rows in the period their payment settled, returned ones in the period of the return, failed ones in the
 * period they failed, open ones in the period they were sent. Movements follow the money: each payment that settled
 * in the period goes out (a later return too), each return that happened in it comes back.
 */
export async function periodStatement(ledger: Ledger, o: StatementOptions): Promise<PeriodStatement> {
  const inPeriod = (iso: string | null) => iso !== null && within(saoPauloDate(new Date(iso)), o);
  const stories = [...rowStories(await allRowPayments(ledger)).values()];
  const payments = stories.filter((s) => inPeriod(periodInstant(s))).map(statementPayment);
  const billRows = await allBills(ledger);
  const bills = billRows.filter((b) => within(billDay(b), o)).map(statementBill);
  const movements = [...stories.flatMap((s) => pixMovements(s, inPeriod)), ...billRows.flatMap((b) => billMovements(b, o))].sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
  return {
    period: { from: o.from, to: o.to },
    profile: o.profile,
    payer: o.payer,
    account: o.account,
    generatedAt: o.now.toISOString(),
    payments,
    bills,
    totals: { pix: outcomeTotals(payments), bills: outcomeTotals(bills) },
    movements,
    balance: await lastBalance(ledger, o),
  };
}

export interface StatementFileOptions extends StatementOptions {
  /** The file's format and language, chosen at the edge. */
  readonly renderer: StatementRenderer;
  readonly dir: string;
  /** How the period is named in the file: a month (`2026-11`), or its first and last days. */
  readonly name: string;
  /** Replace a file of the same name; otherwise the next free name is taken (`…-2.pdf`). */
  readonly force?: boolean;
}

/** `paybatch report --month`: the statement of a period written as `<profile>-statement-<period>.<format>`, never over another file. */
export async function writePeriodStatement(ledger: Ledger, o: StatementFileOptions): Promise<{ file: string; statement: PeriodStatement }> {
  const statement = await periodStatement(ledger, o);
  const data = await o.renderer.render(statement);
  const base = [fileNamePart(o.profile), 'statement', o.name].filter(Boolean).join('-');
  return { file: await writeFreeFile(o.dir, base, o.renderer.format, data, { force: o.force }), statement };
}

const within = (day: string, o: { from: string; to: string }) => day >= o.from && day <= o.to;

/** The instant that puts a row in a period: when it was paid, returned, failed for good, or first written to be sent. */
function periodInstant(s: RowStory): string {
  if (s.outcome === 'paid') return s.paying!.paid_at ?? s.paying!.status_changed_at;
  if (s.outcome === 'open') return s.first.created_at;
  return s.last.status_changed_at;
}

function statementPayment(s: RowStory): StatementPayment {
  const { first, last, paying } = s;
  const destination = first.destination_json ? (JSON.parse(first.destination_json) as Destination) : null;
  const unpaid = [...s.payments].reverse().find((p) => p.status !== 'paid' && p.reason !== null);
  return {
    rowId: first.id,
    batch: { id: first.batch_id, kind: first.batch_kind, name: first.batch_name },
    line: first.line,
    payee: { name: first.sheet_name ?? first.recipient_name, document: first.sheet_document ?? (destination?.document || null), key: first.key, keyType: first.key_type },
    amountCents: first.amount_cents,
    outcome: s.outcome,
    reason: s.outcome === 'paid' ? null : (unpaid?.reason ?? null),
    sentAt: first.created_at,
    paidAt: paying ? (paying.paid_at ?? paying.status_changed_at) : (s.outcome === 'returned' ? last.paid_at : null),
    // A row returned and then paid again keeps when it was returned.
    returnedAt: [...s.payments].reverse().find((p) => p.status === 'returned')?.status_changed_at ?? null,
    failedAt: s.outcome === 'failed' ? last.status_changed_at : null,
    endToEndId: (paying ?? last).end_to_end_id,
    lineage: s.lineage,
  };
}

/** Each payment of the row that settled in the period goes out; each return in the period comes back. */
function pixMovements(s: RowStory, inPeriod: (iso: string | null) => boolean): Movement[] {
  const name = s.first.sheet_name ?? s.first.recipient_name;
  const out: Movement[] = [];
  for (const p of s.payments as readonly RowPaymentRow[]) {
    const memo = p.end_to_end_id ?? `${p.batch_id}/${p.line ?? '-'}`;
    if (p.paid_at !== null && inPeriod(p.paid_at)) out.push({ kind: 'pix', id: `pix-${p.id}-paid`, direction: 'debit', cents: p.amount_cents, at: p.paid_at, name, memo });
    if (p.status === 'returned' && inPeriod(p.status_changed_at)) out.push({ kind: 'pix', id: `pix-${p.id}-returned`, direction: 'credit', cents: p.amount_cents, at: p.status_changed_at, name, memo });
  }
  return out;
}

const BILL_OUTCOMES: Readonly<Record<BillRow['status'], Outcome>> = { paid: 'paid', returned: 'returned', failed: 'failed', intent: 'open', unknown: 'open', scheduled: 'open' };

/** The São Paulo day that puts a bill in a period: its settlement day once paid, its return, its failure, or when it was sent. */
function billDay(b: BillRow): string {
  const day = (iso: string) => saoPauloDate(new Date(iso));
  if (b.status === 'paid') return b.settle_date ?? day(b.updated_at);
  if (b.status === 'returned') return day(b.returned_at ?? b.updated_at);
  if (b.status === 'failed') return day(b.updated_at);
  return day(b.created_at);
}

function statementBill(b: BillRow): StatementBill {
  return {
    id: b.id,
    description: b.description,
    beneficiary: b.beneficiary,
    beneficiaryDocument: b.beneficiary_document,
    line: b.line,
    dueDate: b.due_date,
    // Bills paid before their charges were kept (0018) have only the face value the payment's answer gave.
    originalCents: b.original_cents ?? b.bill_amount_cents,
    discountCents: b.discount_cents,
    interestCents: b.interest_cents,
    fineCents: b.fine_cents,
    amountCents: b.amount_cents,
    paidCents: b.amount_paid_cents,
    outcome: BILL_OUTCOMES[b.status],
    status: b.status,
    reason: b.return_reason ?? b.error,
    sentAt: b.created_at,
    paidOn: b.status === 'paid' || b.status === 'returned' ? b.settle_date : null,
    returnedAt: b.returned_at,
    transactionId: b.transaction_id,
  };
}

function billMovements(b: BillRow, o: { from: string; to: string }): Movement[] {
  const out: Movement[] = [];
  const cents = b.amount_paid_cents ?? b.amount_cents;
  const memo = b.transaction_id ?? b.line;
  // The provider gives the day a bill settled; the movement is put at noon of it in São Paulo.
  if ((b.status === 'paid' || b.status === 'returned') && b.settle_date !== null && within(b.settle_date, o)) {
    out.push({ kind: 'bill', id: `bill-${b.id}-paid`, direction: 'debit', cents, at: saoPauloInstant(b.settle_date, 12).toISOString(), name: b.beneficiary, memo });
  }
  if (b.status === 'returned' && b.returned_at !== null && within(saoPauloDate(new Date(b.returned_at)), o)) {
    out.push({ kind: 'bill', id: `bill-${b.id}-returned`, direction: 'credit', cents, at: b.returned_at, name: b.beneficiary, memo });
  }
  return out;
}

/**
 * The balance the latest applied Pix event of the period carried, when one did (events are kept for 30 days). Latest
 * by the provider's own time: deliveries arrive out of order, so the last one received may carry an older balance.
 */
async function lastBalance(ledger: Ledger, o: StatementOptions): Promise<PeriodStatement['balance']> {
  const from = saoPauloInstant(o.from, 0).toISOString();
  const to = saoPauloInstant(nextDay(o.to), 0).toISOString();
  let balance: PeriodStatement['balance'] = null;
  for (const e of await pixEventsReceived(ledger, { from, to })) {
    const parsed = parseWebhookEvent(e.payload, o.eventReading);
    if (!parsed.ok || parsed.event.kind !== 'pix' || parsed.event.balanceAfterCents === undefined) continue;
    const at = parsed.event.timestamp === null ? e.receivedAt : new Date(parsed.event.timestamp * 1000).toISOString();
    if (balance === null || at >= balance.at) balance = { cents: parsed.event.balanceAfterCents, at };
  }
  return balance;
}

function nextDay(day: string): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
