import type { Database as Db } from 'better-sqlite3';
import { centsToReais } from '../domain/money.js';

/** Reports of the inspection routes, read straight from the state file. `account` null means every account. */

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const where = (account: string | null, alias = ''): string => (account === null ? '' : `WHERE ${alias}account = @account`);

export function accountsReport(db: Db): unknown {
  const rows = db
    .prepare<[], { account: string; key_hint: string; balance: number; batches: number; items: number; transfers: number; bills: number; events: number }>(
      `SELECT a.account, a.key_hint, a.balance,
        (SELECT COUNT(*) FROM batches b WHERE b.account = a.account) AS batches,
        (SELECT COUNT(*) FROM items i WHERE i.account = a.account) AS items,
        (SELECT COUNT(*) FROM transfers t WHERE t.account = a.account) AS transfers,
        (SELECT COUNT(*) FROM bills l WHERE l.account = a.account) AS bills,
        (SELECT COUNT(*) FROM events e WHERE e.account = a.account) AS events
       FROM accounts a ORDER BY a.created_at, a.account`,
    )
    .all();
  return {
    accounts: rows.map((r) => ({
      account: r.account, apiKeyHint: r.key_hint, balanceCents: r.balance, batches: r.batches, items: r.items,
      transfers: r.transfers, bills: r.bills, events: r.events,
    })),
  };
}

/** Paid transfers and refunds per identifier, with whom the item pays: the proof that nobody was paid twice. */
export function paymentsReport(db: Db, account: string | null): unknown {
  const rows = db
    .prepare<{ account?: string }, { account: string; identifier: string; paid: number; refunded: number; amount: number; pix_ids: string; to_json: string }>(
      `SELECT t.account, t.identifier, SUM(t.kind = 'payment') AS paid, SUM(t.kind = 'refund') AS refunded,
        MAX(t.amount) AS amount, GROUP_CONCAT(t.pix_id) AS pix_ids, MAX(i.to_json) AS to_json
       FROM transfers t JOIN items i ON i.id = t.item_id ${where(account, 't.')}
       GROUP BY t.account, t.identifier ORDER BY t.account, t.identifier`,
    )
    .all(account === null ? {} : { account });
  const payments = rows.map((r) => ({
    account: r.account, identifier: r.identifier, paid: r.paid, refunded: r.refunded, amountCents: r.amount, pixIds: r.pix_ids.split(','),
    to: JSON.parse(r.to_json) as unknown,
  }));
  // Items whose payment or refund is still to come: until none is, the transfers above may yet change.
  const pending = db
    .prepare<{ account?: string }, { n: number }>(
      `SELECT COUNT(*) AS n FROM items ${where(account)}${account === null ? ' WHERE' : ' AND'} (status = 'processing' OR (status = 'paid' AND due_at IS NOT NULL))`,
    )
    .get(account === null ? {} : { account })!.n;
  return {
    identifiers: payments.length,
    paidExactlyOnce: payments.filter((p) => p.paid === 1).length,
    paidMoreThanOnce: payments.filter((p) => p.paid > 1),
    pending,
    payments,
  };
}

export function batchesReport(db: Db, account: string | null): unknown {
  const counts = db.prepare<[], { batch_id: string; status: string; n: number }>('SELECT batch_id, status, COUNT(*) AS n FROM items GROUP BY batch_id, status').all();
  const byBatch = new Map<string, Record<string, number>>();
  for (const c of counts) byBatch.set(c.batch_id, { ...byBatch.get(c.batch_id), [c.status]: c.n });
  const batches = db
    .prepare<{ account?: string }, { id: string; account: string; name: string; status: string; quantity: number; created_at: number; started_at: number | null }>(
      `SELECT id, account, name, status, quantity, created_at, started_at FROM batches ${where(account)} ORDER BY seq`,
    )
    .all(account === null ? {} : { account });
  return {
    batches: batches.map((b) => ({
      id: b.id, account: b.account, name: b.name, status: b.status, quantityItems: b.quantity,
      createdAt: iso(b.created_at), startedAt: iso(b.started_at), items: byBatch.get(b.id) ?? {},
    })),
  };
}

export function webhooksReport(db: Db, account: string | null): unknown {
  const params = account === null ? {} : { account };
  const subscriptions = db
    .prepare<{ account?: string }, { account: string; id: string; url: string; created_at: number }>(`SELECT account, id, url, created_at FROM subscriptions ${where(account)}`)
    .all(params);
  const deliveries = db
    .prepare<{ account?: string }, { id: number; event_id: string; account: string; kind: string; copy: number; status: string; attempts: number; due_at: number | null; last_status: number | null; last_error: string | null; delivered_at: number | null }>(
      `SELECT d.id, d.event_id, d.account, e.kind, d.copy, d.status, d.attempts, d.due_at, d.last_status, d.last_error, d.delivered_at
       FROM deliveries d JOIN events e USING (event_id) ${where(account, 'd.')} ORDER BY d.id`,
    )
    .all(params);
  const events = db
    .prepare<{ account?: string }, { total: number; undelivered: number }>(
      `SELECT COUNT(*) AS total, SUM(NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.event_id)) AS undelivered FROM events e ${where(account, 'e.')}`,
    )
    .get(params);
  const summary = { pending: 0, delivered: 0, failed: 0 } as Record<string, number>;
  for (const d of deliveries) summary[d.status] = (summary[d.status] ?? 0) + 1;
  return {
    subscriptions: subscriptions.map((s) => ({ account: s.account, id: s.id, url: s.url, createdAt: iso(s.created_at) })),
    events: { total: events?.total ?? 0, withoutSubscription: events?.undelivered ?? 0 },
    summary,
    deliveries: deliveries.map((d) => ({
      id: d.id, eventId: d.event_id, account: d.account, kind: d.kind, duplicate: d.copy === 1, status: d.status,
      attempts: d.attempts, nextAttemptAt: iso(d.due_at), lastStatus: d.last_status, lastError: d.last_error, deliveredAt: iso(d.delivered_at),
    })),
  };
}

export function billsReport(db: Db, account: string | null): unknown {
  const bills = db
    .prepare<{ account?: string }, { transaction_id: string; account: string; line: string; amount_paid: number; status: string; settle_date: string; return_reason: string | null; due_at: number | null; returned_at: number | null; created_at: number }>(
      `SELECT transaction_id, account, line, amount_paid, status, settle_date, return_reason, due_at, returned_at, created_at FROM bills ${where(account)} ORDER BY seq`,
    )
    .all(account === null ? {} : { account });
  return {
    bills: bills.map((b) => ({
      transactionId: b.transaction_id, account: b.account, typefulLine: b.line, amountPaid: centsToReais(b.amount_paid),
      status: b.status, settleDate: b.settle_date, paidAt: iso(b.created_at),
      returnReason: b.status === 'returned' ? b.return_reason : null, returnedAt: iso(b.returned_at),
      nextEventAt: iso(b.due_at),
    })),
  };
}
