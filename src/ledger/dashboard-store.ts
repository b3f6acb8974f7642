import { sql } from 'kysely';
import type { Destination } from '../domain/destination.js';
import type { ItemState } from '../domain/item-state.js';
import type { Ledger } from './ledger.js';
import type { BatchStatus, BillDocumentKind, BillStatus } from './schema.js';

/** What the dashboard reads of the ledger. Read only, except what alert-repository writes. Amounts in centavos. */

export interface DashboardBatch {
  readonly id: number;
  readonly name: string;
  readonly kind: 'sheet' | 'reprocess';
  readonly status: BatchStatus;
  readonly remoteId: string | null;
  readonly itemCount: number;
  readonly totalCents: number;
  /** ISO instants. */
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly settledAt: string | null;
}

export interface BatchStatusTotal {
  readonly batchId: number;
  readonly status: ItemState;
  readonly count: number;
  readonly sumCents: number;
}

const batchColumns = [
  'id', 'name', 'kind', 'status', 'remote_id as remoteId', 'item_count as itemCount', 'total_cents as totalCents',
  'created_at as createdAt', 'started_at as startedAt', 'settled_at as settledAt',
] as const;

/** The newest batches first, at most `limit`. */
export async function dashboardBatches(ledger: Ledger, limit: number): Promise<DashboardBatch[]> {
  const rows = await ledger.all(ledger.db.selectFrom('batches').select(batchColumns).orderBy('id', 'desc').limit(limit));
  return rows.map(batchOf);
}

export async function dashboardBatch(ledger: Ledger, id: number): Promise<DashboardBatch | undefined> {
  const row = await ledger.first(ledger.db.selectFrom('batches').select(batchColumns).where('id', '=', id));
  return row && batchOf(row);
}

// PostgreSQL reads BIGINT and SUM as strings: centavos and counts come back as numbers either way.
const batchOf = (r: DashboardBatch): DashboardBatch => ({ ...r, itemCount: Number(r.itemCount), totalCents: Number(r.totalCents) });

/** Count and sum of items by state, for each of `batchIds`. */
export async function statusTotals(ledger: Ledger, batchIds: readonly number[]): Promise<BatchStatusTotal[]> {
  if (!batchIds.length) return [];
  const rows = await ledger.all(
    ledger.db
      .selectFrom('items')
      .select((eb) => ['batch_id as batchId', 'status', eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('amount_cents').as('sumCents')])
      .where('batch_id', 'in', [...batchIds])
      .groupBy(['batch_id', 'status']),
  );
  return rows.map((r) => ({ batchId: Number(r.batchId), status: r.status, count: Number(r.count), sumCents: Number(r.sumCents) }));
}

/** The amount of a batch's items now paid, by the second they were paid (their last change of state), oldest first. */
export async function paidTimes(ledger: Ledger, batchId: number): Promise<{ at: string; amountCents: number }[]> {
  // Summed per second (the ISO text up to the seconds): a 100,000-item batch is a few hundred points, not 100,000.
  const rows = await ledger.all(
    sql<{ at: string; amountCents: number }>`SELECT substr(status_changed_at, 1, 19) AS at, sum(amount_cents) AS "amountCents"
      FROM items WHERE batch_id = ${batchId} AND status = 'paid'
      GROUP BY substr(status_changed_at, 1, 19) ORDER BY 1`,
  );
  return rows.map((r) => ({ at: `${r.at}.000Z`, amountCents: Number(r.amountCents) }));
}

export interface DashboardItem {
  readonly id: number;
  readonly line: number | null;
  readonly identifier: string;
  readonly key: string;
  readonly keyType: string;
  readonly amountCents: number;
  readonly description: string;
  readonly name: string | null;
  /** The sheet's document, else the one the key lookup answered (as the provider showed it, often hidden). */
  readonly document: string | null;
  readonly status: ItemState;
  readonly reason: string | null;
  readonly attempt: number;
  readonly hasReceipt: boolean;
  readonly updatedAt: string;
}

export interface ItemFilter {
  readonly status?: ItemState | undefined;
  /** Part of the name (sheet's or key holder's), key or document, any case; digits also match the sheet line. */
  readonly search?: string | undefined;
  readonly offset: number;
  readonly limit: number;
}

/** One page of a batch's items in sheet order, and how many match the filter in all. */
export async function filteredItems(ledger: Ledger, batchId: number, f: ItemFilter): Promise<{ total: number; items: DashboardItem[] }> {
  let q = ledger.db.selectFrom('items').where('batch_id', '=', batchId);
  if (f.status) q = q.where('status', '=', f.status);
  const search = f.search?.trim().toLowerCase();
  if (search) {
    // LIKE is case-sensitive on PostgreSQL and ASCII-only case-blind on SQLite: both sides are lower-cased instead.
    const pattern = `%${search.replace(/[!%_]/g, (c) => `!${c}`)}%`;
    const like = (column: 'items.sheet_name' | 'items.recipient_name' | 'items.key' | 'items.sheet_document') =>
      sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '!'`;
    const line = /^\d{1,9}$/.test(search) ? Number(search) : null;
    q = q.where((eb) =>
      eb.or([
        like('items.sheet_name'), like('items.recipient_name'), like('items.key'), like('items.sheet_document'),
        ...(line === null ? [] : [eb('items.line', '=', line)]),
      ]),
    );
  }
  // A search reads every item of the batch: the page and the count of its matches come from that one pass (a page
  // past the end has no row to carry the count, so only then is it asked alone). Without one, the count is an index
  // walk and the page a few rows of another: carrying the count would read every row.
  const counted = search ? null : await ledger.first(q.select((eb) => eb.fn.countAll<number>().as('n')));
  const rows = await ledger.all(
    q
      .select([
        'id', 'line', 'identifier', 'key', 'key_type as keyType', 'amount_cents as amountCents', 'description', 'sheet_name as sheetName',
        'recipient_name as recipientName', 'sheet_document as sheetDocument', 'destination_json as destinationJson', 'status', 'reason', 'attempt',
        'receipt_path as receiptPath', 'updated_at as updatedAt', (search ? sql<number>`count(*) over ()` : sql<number>`0`).as('matching'),
      ])
      .orderBy('line')
      .orderBy('id')
      .limit(f.limit)
      .offset(f.offset),
  );
  const total = counted
    ? Number(counted.n)
    : rows.length ? Number(rows[0]!.matching) : Number((await ledger.first(q.select((eb) => eb.fn.countAll<number>().as('n'))))?.n ?? 0);
  return {
    total,
    items: rows.map(({ sheetName, recipientName, sheetDocument, destinationJson, receiptPath, matching: _matching, ...r }) => ({
      ...r,
      amountCents: Number(r.amountCents),
      attempt: Number(r.attempt),
      name: recipientName ?? sheetName,
      document: sheetDocument ?? destinationDocument(destinationJson),
      hasReceipt: receiptPath !== null,
    })),
  };
}

/** The document a key lookup answered (batch-report.ts reads it the same way); null when it gave none. */
function destinationDocument(json: string | null): string | null {
  return json === null ? null : (JSON.parse(json) as Destination).document || null;
}

export interface DashboardCall {
  readonly id: number;
  readonly phase: 'intent' | 'outcome';
  readonly intentId: number | null;
  readonly operation: string;
  readonly outcome: 'ok' | 'error' | 'unknown' | null;
  readonly detailJson: string | null;
  readonly createdAt: string;
}

/** The provider calls recorded about one subject (`batch:12`), newest first, at most `limit`. */
export async function callsAbout(ledger: Ledger, subject: string, limit: number): Promise<DashboardCall[]> {
  return ledger.all(
    ledger.db
      .selectFrom('provider_calls')
      .select(['id', 'phase', 'intent_id as intentId', 'operation', 'outcome', 'detail_json as detailJson', 'created_at as createdAt'])
      .where('subject', '=', subject)
      .orderBy('id', 'desc')
      .limit(limit),
  );
}

export interface DashboardBill {
  readonly id: number;
  readonly kind: 'bank' | 'collection';
  readonly beneficiary: string | null;
  readonly description: string | null;
  readonly line: string;
  readonly dueDate: string | null;
  readonly amountCents: number;
  readonly status: BillStatus;
  readonly settleDate: string | null;
  readonly returnReason: string | null;
  /** The meaning of the return the ledger recorded (English), beside the provider's reason. */
  readonly returnMeaning: string | null;
  readonly document: BillDocumentKind | null;
  readonly hasDocument: boolean;
  readonly createdAt: string;
}

/** The newest bills first, at most `limit`. */
export async function dashboardBills(ledger: Ledger, limit: number): Promise<DashboardBill[]> {
  const rows = await ledger.all(
    ledger.db
      .selectFrom('bills')
      .select([
        'id', 'kind', 'beneficiary', 'description', 'line', 'due_date as dueDate', 'amount_cents as amountCents', 'status', 'settle_date as settleDate',
        'return_reason as returnReason', 'return_meaning as returnMeaning', 'document_kind as document', 'receipt_path as receiptPath', 'created_at as createdAt',
      ])
      .orderBy('id', 'desc')
      .limit(limit),
  );
  return rows.map(({ receiptPath, ...r }) => ({ ...r, amountCents: Number(r.amountCents), hasDocument: receiptPath !== null }));
}

export interface DashboardReceipt {
  readonly itemId: number;
  readonly batchId: number;
  readonly batchName: string;
  readonly line: number | null;
  readonly name: string | null;
  readonly amountCents: number;
  readonly status: ItemState;
  readonly paidAt: string;
}

/** Items with a saved receipt, newest first, at most `limit`; of one batch when `batchId` is given. */
export async function dashboardReceipts(ledger: Ledger, o: { batchId?: number | undefined; limit: number }): Promise<DashboardReceipt[]> {
  let q = ledger.db
    .selectFrom('items')
    .innerJoin('batches', 'batches.id', 'items.batch_id')
    .select([
      'items.id as itemId', 'batches.id as batchId', 'batches.name as batchName', 'items.line as line', 'items.recipient_name as recipientName',
      'items.sheet_name as sheetName', 'items.amount_cents as amountCents', 'items.status as status', 'items.status_changed_at as paidAt',
    ])
    .where('items.receipt_path', 'is not', null);
  if (o.batchId !== undefined) q = q.where('batches.id', '=', o.batchId);
  const rows = await ledger.all(q.orderBy('items.id', 'desc').limit(o.limit));
  return rows.map(({ recipientName, sheetName, ...r }) => ({ ...r, amountCents: Number(r.amountCents), name: recipientName ?? sheetName }));
}

/** The receipt file the ledger recorded for an item; undefined when it has none. */
export async function itemReceiptPath(ledger: Ledger, itemId: number): Promise<string | undefined> {
  const row = await ledger.first(ledger.db.selectFrom('items').select('receipt_path').where('id', '=', itemId));
  return row?.receipt_path ?? undefined;
}

/** The current document file the ledger recorded for a bill; undefined when it has none. */
export async function billDocumentPath(ledger: Ledger, billId: number): Promise<string | undefined> {
  const row = await ledger.first(ledger.db.selectFrom('bills').select('receipt_path').where('id', '=', billId));
  return row?.receipt_path ?? undefined;
}

/** How many batches are started and not yet settled. */
export async function startedBatchCount(ledger: Ledger): Promise<number> {
  const row = await ledger.first(ledger.db.selectFrom('batches').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'started'));
  return Number(row?.n ?? 0);
}
