import { saoPauloDate } from '../../domain/bank-calendar.js';
import { titleIdentifier } from '../../domain/identifier.js';
import { itemByIdentifier, knownIdentifiers } from '../../ledger/item-repository.js';
import type { Ledger } from '../../ledger/open-ledger.js';
import type { RemittanceRecord } from '../../ledger/remittance-repository.js';
import { cut } from '../../sheet/cnab240/layout.js';
import type { Remittance, RemittanceTitle } from '../../sheet/cnab240/read-remittance.js';
import { pastTitles, readRemittanceFile, remittanceTable } from '../../sheet/cnab240/remittance-table.js';
import type { TableStreamer } from '../../sheet/table.js';
import { itemStories, payOnStart, scheduleImportBatches, type BatchSchedule } from '../batches/index.js';
import { remittanceDatesOf } from '../../ledger/remittance-repository.js';
import { schedulesOf } from '../../ledger/schedule-store.js';
import { ImportRefusedError, type ImportProblem } from './import-refusal.js';

/** A remittance as an import pays it: its Pix titles, each under the identifier of its attempt, and their dates. */
export interface RemittancePlan {
  readonly remittance: Remittance;
  /** The table the import streams (remittance-table.ts), with the identifiers decided here. */
  readonly table: TableStreamer;
  /** The payment date of each Pix title, by its line: the import's batches are cut by date. */
  readonly dates: ReadonlyMap<number, string>;
  /** Lines of the bills (segment J), paid by `boleto pay --file`, not by the import. */
  readonly billLines: readonly number[];
  /** What the ledger keeps of the remittance for its return file. */
  readonly record: RemittanceRecord;
}

/**
 * Reads a remittance and decides how each Pix title is paid, before anything is looked up: a damaged file, a title
 * that cannot be paid as written (each named by line and positions), a payment date already past, a remittance of
 * another company than the profile's, and a title the ledger paid or is paying are refused as a whole. A title
 * whose last attempt the provider's record shows failed or returned is sent again as its next attempt.
 */
export async function planRemittance(
  ledger: Ledger,
  file: string,
  o: { readonly now: Date; readonly cnabLayout?: string; readonly companyDocument?: string; readonly accountsAccepted?: boolean },
): Promise<RemittancePlan> {
  const reading = await readRemittanceFile(file, o.cnabLayout);
  if (reading.remittance === null) throw new ImportRefusedError({ code: 'sheet_unreadable', file, imported: true }, reading.problems);
  const r = reading.remittance;
  const pix = r.titles.filter((t) => t.kind !== 'bill');
  const billLines = r.titles.filter((t) => t.kind === 'bill').map((t) => t.line);
  if (pix.length === 0 && billLines.length > 0) throw new ImportRefusedError({ code: 'remittance_bills_only', file, bills: billLines.length });

  const problems: ImportProblem[] = [];
  const company = r.layout.fileHeader.companyDoc;
  // The setting holds the document as normalised (a CNPJ's letters upper case, no mask), as the remittance's is read.
  const configured = o.companyDocument ?? '';
  if (configured !== '' && configured !== r.company.value) {
    problems.push({ file, line: 1, field: `${company.at[0]}-${company.at[1]}`, reason: { code: 'company_differs', document: r.company.value, configured } });
  }
  for (const p of pastTitles(r, saoPauloDate(o.now))) problems.push({ ...p, file, line: p.line! });
  const identifiers = new Map<number, string>();
  const yourNumberField = r.layout.segmentA.yourNumber;
  // Most titles are new: the ledger is asked about all their first attempts at once, and about the others one by one.
  const firsts = pix.map((t) => titleIdentifier(r.company.value, t.yourNumber));
  const seen = await knownIdentifiers(ledger, firsts);
  for (const [i, t] of pix.entries()) {
    const attempt = seen.has(firsts[i]!) ? await nextAttempt(ledger, r.company.value, t) : { n: 1, problem: null };
    if (attempt.problem) problems.push({ file, line: t.line, field: `${yourNumberField.at[0]}-${yourNumberField.at[1]}`, reason: attempt.problem });
    else identifiers.set(t.line, titleIdentifier(r.company.value, t.yourNumber, attempt.n));
  }
  if (problems.length) throw new ImportRefusedError({ code: 'remittance_refused', file, titles: new Set(problems.map((p) => p.line)).size }, problems);

  const lotHeaders = new Map(r.lots.map((l) => [l.number, l.header]));
  return {
    remittance: r,
    table: remittanceTable({ remittance: r, identifierOf: (t) => identifiers.get(t.line)!, accountsAccepted: o.accountsAccepted === true }),
    dates: new Map(pix.map((t) => [t.line, t.paymentDate])),
    billLines,
    record: {
      layout: r.layout.id,
      fileHeader: r.fileHeader,
      companyDocument: r.company.value,
      encoding: r.encoding,
      titles: pix.map((t) => ({
        identifier: identifiers.get(t.line)!, line: t.line, lot: t.lot, lotHeader: lotHeaders.get(t.lot)!,
        records: t.records, yourNumber: t.yourNumber, paymentDate: t.paymentDate,
      })),
    },
  };
}

type Attempt = { readonly n: number; readonly problem: null } | { readonly n: null; readonly problem: NonNullable<ImportProblem['reason']> };

/**
 * The attempt a title is sent as: 1 when the ledger never saw it; the next one when its last attempt's row ended
 * failed or returned (wherever a retry took it) and the provider's record confirms it; refused while it is paid, still
 * open, or failed by a claim alone.
 */
async function nextAttempt(ledger: Ledger, company: string, t: RemittanceTitle): Promise<Attempt> {
  let n = 1;
  for (;;) {
    const item = await itemByIdentifier(ledger, titleIdentifier(company, t.yourNumber, n));
    if (!item) return { n, problem: null };
    // A deleted batch paid nobody, but its items keep their identifiers: the title goes on as the next attempt.
    if (item.batchStatus === 'deleted') {
      n += 1;
      continue;
    }
    const story = (await itemStories(ledger, [item.id]))(item.id);
    const outcome = story?.outcome ?? (item.status === 'paid' || item.status === 'failed' || item.status === 'returned' ? item.status : 'open');
    if (outcome === 'paid') return { n: null, problem: { code: 'title_paid', yourNumber: t.yourNumber, batchId: item.batch_id } };
    if (outcome === 'open') return { n: null, problem: { code: 'title_open', yourNumber: t.yourNumber, batchId: item.batch_id } };
    if (item.record_state !== item.status) {
      return { n: null, problem: { code: 'title_unconfirmed', yourNumber: t.yourNumber, batchId: item.batch_id, status: item.status } };
    }
    n += 1;
  }
}

/** The Pix titles of one payment date: how many, how much, and whether that day is after today (scheduled). */
export interface RemittanceDate {
  readonly date: string;
  readonly count: number;
  readonly sumCents: number;
  readonly scheduled: boolean;
}

/** A remittance's Pix titles the import pays (in line order), by payment date; and how many batches they make. */
export function remittanceByDate(
  remittance: RemittancePlan,
  accepted: Iterable<{ readonly line: number; readonly amountCents: number }>,
  now: Date,
  maxBatchItems: number,
): { readonly dates: RemittanceDate[]; readonly parts: number } {
  const today = saoPauloDate(now);
  const byDate = new Map<string, { date: string; count: number; sumCents: number; scheduled: boolean }>();
  // The parts as recordImport cuts them: a new one where the date changes or a part is full.
  let parts = 0;
  let inPart = 0;
  let last: string | null = null;
  for (const it of accepted) {
    const date = remittance.dates.get(it.line)!;
    const d = byDate.get(date) ?? byDate.set(date, { date, count: 0, sumCents: 0, scheduled: date > today }).get(date)!;
    d.count += 1;
    d.sumCents += it.amountCents;
    if (date !== last || inPart === maxBatchItems) [parts, inPart] = [parts + 1, 0];
    [last, inPart] = [date, inPart + 1];
  }
  return { dates: [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date)), parts };
}

/**
 * The parts of a remittance whose payment date is after today, scheduled to start on it as `--pay-on` does (again,
 * for a run that resumes one killed before it scheduled them: the schedule is the same).
 */
export async function scheduleLaterParts(ledger: Ledger, now: () => Date, batchIds: readonly number[]): Promise<BatchSchedule[]> {
  const today = saoPauloDate(now());
  const scheduled: BatchSchedule[] = [];
  for (const [id, date] of await remittanceDatesOf(ledger, batchIds)) {
    if (date > today) scheduled.push(...(await scheduleImportBatches(ledger, [id], payOnStart(date, now()), now())));
  }
  return scheduled;
}

/** The batches among these that wait for the day they are scheduled for: an import never starts them itself. */
export async function waitingForTheirDay(ledger: Ledger, batchIds: readonly number[]): Promise<Set<number>> {
  return new Set((await schedulesOf(ledger, batchIds)).filter((s) => s.state === 'scheduled').map((s) => s.batchId));
}

/**
 * Where a problem of a remittance's row is in the remittance: the table's column (remittance-table.ts) becomes the
 * positions of its field, on the line of the record that holds it (the key and the document are in segment B).
 */
export function placeInRemittance(plan: RemittancePlan): <P extends { readonly line: number; readonly field?: string }>(p: P) => P {
  const { layout } = plan.remittance;
  const a = layout.segmentA;
  const b = layout.segmentB;
  const fields: Readonly<Record<string, { readonly segment: 'A' | 'B'; readonly at: readonly [number, number] }>> = {
    key: { segment: 'B', at: b.pixKey?.at ?? b.payeeDoc.at },
    key_type: { segment: 'B', at: b.keyKind?.at ?? b.payeeDocType.at },
    document: { segment: a.payeeDoc ? 'A' : 'B', at: a.payeeDoc?.at ?? b.payeeDoc.at },
    amount: { segment: 'A', at: a.amount.at },
    name: { segment: 'A', at: a.payeeName.at },
    description: { segment: 'A', at: a.yourNumber.at },
    identifier: { segment: 'A', at: a.yourNumber.at },
  };
  const titles = new Map(plan.remittance.titles.map((t) => [t.line, t]));
  return (p) => {
    const place = p.field === undefined ? undefined : fields[p.field];
    const title = titles.get(p.line);
    if (!place || !title) return p;
    const offset = place.segment === 'A' ? 0 : title.records.findIndex((r) => cut(r, b.segment) === 'B');
    return { ...p, line: p.line + Math.max(offset, 0), field: `${place.at[0]}-${place.at[1]}` };
  };
}
