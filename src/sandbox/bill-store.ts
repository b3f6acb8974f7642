import type { Database as Db } from 'better-sqlite3';

export interface BillRow {
  seq: number;
  transaction_id: string;
  account: string;
  barcode: string;
  line: string;
  amount_paid: number;
  /** scheduled → paid → returned. */
  status: string;
  settle_date: string;
  /** The payment result as answered (SPEC.md "Bill payment result"). */
  result_json: string;
  /** The reason a return will carry (or carried); null when none is planned. */
  return_reason: string | null;
  /** When the processor next acts: settles a scheduled payment, or returns a paid one. */
  due_at: number | null;
  returned_at: number | null;
  created_at: number;
}

function statements(db: Db) {
  return {
    insert: db.prepare(
      `INSERT INTO bills (transaction_id, account, barcode, line, amount_paid, status, settle_date, result_json, return_reason, due_at, created_at)
       VALUES (@transaction_id, @account, @barcode, @line, @amount_paid, @status, @settle_date, @result_json, @return_reason, @due_at, @created_at)`,
    ),
    outstanding: db.prepare<[string, string], BillRow>("SELECT * FROM bills WHERE account = ? AND barcode = ? AND status IN ('paid', 'scheduled')"),
    byTransaction: db.prepare<[string], BillRow>('SELECT * FROM bills WHERE transaction_id = ?'),
    due: db.prepare<[number, number], BillRow>('SELECT * FROM bills WHERE due_at <= ? ORDER BY due_at LIMIT ?'),
    nextDue: db.prepare<[], { at: number | null }>('SELECT MIN(due_at) AS at FROM bills WHERE due_at IS NOT NULL'),
    update: db.prepare('UPDATE bills SET status = @status, return_reason = @return_reason, due_at = @due_at, returned_at = @returned_at WHERE transaction_id = @transaction_id'),
  };
}

/** Bill payments and their returns. */
export class BillStore {
  private readonly q: ReturnType<typeof statements>;

  constructor(db: Db) {
    this.q = statements(db);
  }

  insert(row: Omit<BillRow, 'seq' | 'returned_at'>): void {
    this.q.insert.run(row);
  }

  /** A payment of this bill by the account that is paid or scheduled (not returned). */
  outstanding(account: string, barcode: string): BillRow | undefined {
    return this.q.outstanding.get(account, barcode);
  }

  byTransaction(transactionId: string): BillRow | undefined {
    return this.q.byTransaction.get(transactionId);
  }

  due(now: number, limit: number): BillRow[] {
    return this.q.due.all(now, limit);
  }

  nextDue(): number | null {
    return this.q.nextDue.get()?.at ?? null;
  }

  update(u: Pick<BillRow, 'transaction_id' | 'status' | 'return_reason' | 'due_at' | 'returned_at'>): void {
    this.q.update.run(u);
  }
}
