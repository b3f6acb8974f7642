import { addBusinessDays, saoPauloInstant } from '../domain/bank-calendar.js';
import { BILL_RETURN_REASONS } from '../domain/reasons.js';
import { billEvent, type BillEventKind } from './bill-events.js';
import { scriptedReturn, scriptedReturnAt, type RegisteredBill } from './bill-registry.js';
import type { BillRow } from './bill-store.js';
import { recordEvent } from './event-recorder.js';
import { payerOf } from './payer.js';
import type { Runtime } from './runtime.js';

const CHUNK = 100;
/** Kinds of bill events as the inspection routes show them, whatever the dialect. */
const EVENT_KINDS: Readonly<Record<BillEventKind, string>> = { scheduled: 'bill_scheduled', paid: 'bill_paid', returned: 'bill_return' };

/**
 * Bill payments: paid at once inside the bank window, otherwise scheduled and paid when the next window opens;
 * a paid bill may be returned later (the registry's scripted returns, the `billReturn` fault, or the admin route).
 */
export class BillPayments {
  constructor(private readonly rt: Runtime) {}

  /** Pays (or schedules) a registered bill for an account; returns the payment result of SPEC.md, in the dialect's format. */
  pay(account: string, bill: RegisteredBill, amountCents: number): Record<string, unknown> {
    const now = this.rt.clock.now();
    const transactionId = this.rt.nextId('bill');
    const payer = payerOf(account);
    const d = this.rt.dialect;
    const result = {
      status: d.billStatus(bill.windowOpen),
      settleDate: d.billDate(bill.settleDate),
      timestamp: d.billTimestamp(now),
      amountPaid: d.billAmount(amountCents),
      dueDate: d.billDate(bill.dueDate),
      assignor: bill.assignor,
      payer: payer.name,
      payerDocument: payer.document,
      beneficiary: bill.beneficiary,
      amount: d.billAmount(bill.amountCents),
      details: { BlocoCompleto: bill.barcode, convenant: convenantOf(bill.barcode) },
      typefulLine: bill.line,
      transactionId,
      beneficiaryDocument: bill.beneficiaryDocument,
    };
    this.rt.db.transaction(() => {
      const row = {
        transaction_id: transactionId, account, barcode: bill.barcode, line: bill.line, amount_paid: amountCents,
        status: 'scheduled', settle_date: bill.settleDate, result_json: JSON.stringify(result), return_reason: null,
        due_at: bill.settleAt, created_at: now,
      };
      this.rt.bills.insert(row);
      if (bill.windowOpen) this.settle({ ...row, seq: 0, returned_at: null }, now);
      else this.emit({ ...row, seq: 0, returned_at: null }, 'scheduled', now);
    })();
    this.rt.wake();
    return result;
  }

  /** Schedules the return of a paid bill with a reason of SPEC.md's table at simulated instant `at`. */
  scheduleReturn(transactionId: string, reason: string, at: number): void {
    this.rt.bills.update({ transaction_id: transactionId, status: 'paid', return_reason: reason, due_at: at, returned_at: null });
    this.rt.wake();
  }

  /** Settles scheduled payments and carries out returns that are due; returns the next due time or null. */
  runDue(now: number): number | null {
    const due = this.rt.bills.due(now, CHUNK);
    this.rt.db.transaction(() => {
      // Each change happens at its due time, even when the sandbox catches up after a restart or a clock jump.
      for (const bill of due) {
        if (bill.status === 'scheduled') this.settle(bill, bill.due_at ?? now);
        else if (bill.status === 'paid') this.returnBill(bill, bill.due_at ?? now);
      }
    })();
    return due.length === CHUNK ? now : this.rt.bills.nextDue();
  }

  private settle(bill: BillRow, now: number): void {
    const planned = this.plannedReturn(bill);
    this.rt.bills.update({ transaction_id: bill.transaction_id, status: 'paid', return_reason: planned?.reason ?? null, due_at: planned?.at ?? null, returned_at: null });
    this.rt.pix.addToBalance(bill.account, -bill.amount_paid);
    this.emit({ ...bill, status: 'paid' }, 'paid', now);
  }

  private returnBill(bill: BillRow, now: number): void {
    this.rt.bills.update({ transaction_id: bill.transaction_id, status: 'returned', return_reason: bill.return_reason, due_at: null, returned_at: now });
    this.rt.pix.addToBalance(bill.account, bill.amount_paid);
    this.emit(bill, 'returned', now);
  }

  /** A return the registry scripts for the code, or one the `billReturn` fault draws (1–5 business days later). */
  private plannedReturn(bill: BillRow): { reason: string; at: number } | null {
    const scripted = scriptedReturn(bill.barcode);
    if (scripted) return { reason: scripted.received, at: scriptedReturnAt(bill.settle_date) };
    const id = bill.transaction_id;
    if (!this.rt.random.chance(this.rt.faults.billReturn, 'billReturn', id)) return null;
    const day = addBusinessDays(bill.settle_date, this.rt.random.int(1, 5, 'billReturnDays', id));
    return {
      reason: this.rt.random.pick(BILL_RETURN_REASONS, 'billReturnReason', id).received,
      at: saoPauloInstant(day, this.rt.random.int(8, 19, 'billReturnHour', id), this.rt.random.int(0, 59, 'billReturnMinute', id)).getTime(),
    };
  }

  /** Records the event of `kind`, unless the dialect does not tell that kind (no id is spent then). */
  private emit(bill: BillRow, kind: BillEventKind, now: number): void {
    if (this.rt.dialect.billEvents.category[kind] === null) return;
    const eventId = this.rt.nextId('event');
    recordEvent(this.rt, bill.account, EVENT_KINDS[kind], eventId, billEvent(bill, kind, eventId, now, this.rt.dialect.billEvents));
  }
}

/** The agreement code of a bill: a bank slip's bank code, or a collection slip's company code. */
function convenantOf(barcode: string): string {
  return barcode.startsWith('8') ? barcode.slice(15, barcode.charAt(1) === '6' ? 23 : 19) : barcode.slice(0, 3);
}
