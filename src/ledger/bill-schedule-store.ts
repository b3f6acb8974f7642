import type { RemittanceBill } from '../domain/remittance-bill.js';
import type { Ledger } from './ledger.js';
import type { BillScheduleStatus } from './schema.js';

/** A remittance's bill to pay on a later day. Amount in centavos; `payOn` YYYY-MM-DD. */
export interface NewBillSchedule {
  readonly code: string;
  readonly amountCents: number;
  readonly description: string | null;
  readonly file: string;
  readonly line: number;
  readonly remittance: RemittanceBill;
  readonly payOn: string;
}

export interface BillSchedule extends NewBillSchedule {
  readonly id: number;
  readonly status: BillScheduleStatus;
  readonly billId: number | null;
  readonly error: string | null;
}

/** The lines of the remittance of `fileHash` that have a schedule already, whatever became of it. */
export async function scheduledLinesOf(ledger: Ledger, fileHash: string): Promise<Set<number>> {
  const rows = await ledger.all(ledger.db.selectFrom('bill_schedules').select('line').where('file_hash', '=', fileHash));
  return new Set(rows.map((r) => Number(r.line)));
}

/**
 * Records each bill as waiting for its day, unless its title (remittance hash and line) has a schedule already.
 * Returns, in order, whether each one had.
 */
export async function scheduleBills(ledger: Ledger, bills: readonly NewBillSchedule[], now: Date): Promise<boolean[]> {
  const at = now.toISOString();
  return ledger.transaction(async (tx) => {
    const already: boolean[] = [];
    for (const b of bills) {
      const { changes } = await tx.run(
        tx.db
          .insertInto('bill_schedules')
          .values({
            code: b.code, amount_cents: b.amountCents, description: b.description, file: b.file, line: b.line,
            file_hash: b.remittance.fileHash, remittance: JSON.stringify(b.remittance), pay_on: b.payOn, status: 'waiting',
            bill_id: null, error: null, created_at: at, updated_at: at,
          })
          .onConflict((oc) => oc.columns(['file_hash', 'line']).doNothing()),
      );
      already.push(changes === 0);
    }
    return already;
  });
}

/** Waiting schedules whose day (YYYY-MM-DD) is `today` or earlier, oldest day first. */
export async function dueBillSchedules(ledger: Ledger, today: string): Promise<BillSchedule[]> {
  const rows = await ledger.all(
    ledger.db.selectFrom('bill_schedules').selectAll().where('status', '=', 'waiting').where('pay_on', '<=', today).orderBy('pay_on').orderBy('id'),
  );
  return rows.map((r) => ({
    id: Number(r.id), code: r.code, amountCents: Number(r.amount_cents), description: r.description, file: r.file, line: Number(r.line),
    remittance: JSON.parse(r.remittance) as RemittanceBill, payOn: r.pay_on, status: r.status,
    billId: r.bill_id === null ? null : Number(r.bill_id), error: r.error,
  }));
}

/**
 * Takes a waiting schedule for this run (waiting → sent). True only for the one run whose update moved it: daemons
 * sharing a ledger never pay a schedule twice.
 */
export async function claimBillSchedule(ledger: Ledger, id: number, now: Date): Promise<boolean> {
  const { changes } = await ledger.run(
    ledger.db.updateTable('bill_schedules').set({ status: 'sent', updated_at: now.toISOString() }).where('id', '=', id).where('status', '=', 'waiting'),
  );
  return changes === 1;
}

/** What became of a claimed schedule: the bill that paid it, or why it was refused. */
export async function settleBillSchedule(ledger: Ledger, id: number, o: { readonly status: BillScheduleStatus; readonly billId: number | null; readonly error: string | null }, now: Date): Promise<void> {
  await ledger.run(
    ledger.db.updateTable('bill_schedules').set({ status: o.status, bill_id: o.billId, error: o.error, updated_at: now.toISOString() }).where('id', '=', id),
  );
}
