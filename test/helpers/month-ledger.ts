import { insertBillIntent, updateBill } from '../../src/ledger/bill-repository.js';
import { storeEvent } from '../../src/ledger/event-repository.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { updateItem, type ItemRow } from '../../src/ledger/item-repository.js';
import type { Ledger } from '../../src/ledger/open-ledger.js';
import { recordReprocessBatch } from '../../src/ledger/reprocess-store.js';
import { recordRetryBatch } from '../../src/ledger/retry-store.js';
import { destination, plannedItem } from './ledger-fixture.js';

async function getItem(ledger: Ledger, id: number): Promise<ItemRow> {
  return (await ledger.first(ledger.db.selectFrom('items').selectAll().where('id', '=', id)))!;
}

async function settle(ledger: Ledger, id: number, status: 'paid' | 'failed' | 'returned', at: string, reason: string | null = null): Promise<void> {
  await updateItem(ledger, id, { status, status_changed_at: at, updated_at: at, ...(reason === null ? {} : { reason }) });
}

/**
 * Six sheet rows imported on 2 November (R$ 10,01 … 10,06), and how each ended:
 * 1 paid on 3 Nov; 2 failed, paid on 5 Nov by `batch retry` (batch #2); 3 paid at `thirdPaidAt`; 4 paid on 4 Nov,
 * returned on 1 Dec; 5 still under way; 6 paid on 6 Nov, returned for instability on 7 Nov, paid again by
 * reprocessing (batch #3) on 8 Nov.
 */
export async function monthRows(ledger: Ledger, o: { readonly thirdPaidAt: string }): Promise<void> {
  const importedAt = new Date('2026-11-02T12:00:00Z');
  const planned = [1, 2, 3, 4, 5, 6].map(plannedItem);
  await recordImport(ledger, { fileHash: 'h', fileName: 'folha.csv', rowCount: 6, batchName: 'Folha nov', itemCount: 6, items: planned, rejectedCount: 0, now: importedAt });
  await settle(ledger, 1, 'paid', '2026-11-03T15:00:00.000Z');
  await settle(ledger, 2, 'failed', '2026-11-03T15:00:00.000Z', 'AC03 - conta inexistente');
  await settle(ledger, 3, 'paid', o.thirdPaidAt);
  await settle(ledger, 4, 'paid', '2026-11-04T15:00:00.000Z');
  await settle(ledger, 4, 'returned', '2026-12-01T15:00:00.000Z', 'MD06 - devolução a pedido do recebedor');
  await settle(ledger, 6, 'paid', '2026-11-06T15:00:00.000Z');
  await settle(ledger, 6, 'returned', '2026-11-07T15:00:00.000Z', 'AB03 - timeout');
  await ledger.transaction(async (tx) => {
    const failed = await getItem(tx, 2);
    await recordRetryBatch(tx, { sourceBatchId: 1, statuses: ['failed'], name: 'Folha nov retry 2026-11-04', items: [{ from: { item: failed, rootId: 2, retries: 0 }, identifier: 'retry-2', destination }], start: true, at: new Date('2026-11-04T12:00:00Z') });
  });
  await settle(ledger, 7, 'paid', '2026-11-05T15:00:00.000Z');
  await ledger.transaction(async (tx) => {
    const returned = await getItem(tx, 6);
    await recordReprocessBatch(tx, { name: 'Reprocess 2026-11-07', attempts: [{ from: returned, rootId: 6, identifier: 'attempt-6', attempt: 2 }], at: new Date('2026-11-07T16:00:00Z') });
  });
  await settle(ledger, 8, 'paid', '2026-11-08T15:00:00.000Z');
}

/**
 * The month of `monthRows`, row 3 paid at 23:30 of 31 Oct in São Paulo (02:30 UTC of 1 Nov); one bill of R$ 459,90
 * paid R$ 450,70 on 10 Nov.
 */
export async function month(ledger: Ledger): Promise<void> {
  await monthRows(ledger, { thirdPaidAt: '2026-11-01T02:30:00.000Z' });
  const bill = await ledger.transaction((tx) =>
    insertBillIntent(tx, { barcode: '1'.repeat(44), line: '1'.repeat(47), kind: 'bank', description: 'Aluguel', beneficiary: 'Imobiliária Sol', beneficiaryDocument: '12345678000195', assignor: null, dueDate: '2026-11-10', amountCents: 45_070, forced: false, charges: { originalCents: 45_990, discountCents: 920, interestCents: null, fineCents: null } }, new Date('2026-11-09T12:00:00Z')),
  );
  await updateBill(ledger, bill, { status: 'paid', settle_date: '2026-11-10', amount_paid_cents: 45_070, bill_amount_cents: 45_070, transaction_id: 'tx-1' }, new Date('2026-11-10T13:00:00Z'));
  // Two events with balances, delivered out of order: the one received last is the older by the provider's time.
  await storeEvent(ledger, {
    event_id: 'e-7', kind: 'pix', received_at: '2026-11-08T15:00:02.000Z', effect: 'item paid', topic: 'pix',
    payload_json: JSON.stringify({ serviceId: 1, payload: { id: 'pix-7', eventId: 'e-7', identifier: 'retry-2', amount: 1002, balanceAfter: 9_877_549, timestamp: 1_793_890_800, isRefund: false, transactionAccepted: true, transactionStatus: 'approved' } }),
  });
  await storeEvent(ledger, {
    event_id: 'e-8', kind: 'pix', received_at: '2026-11-08T15:00:01.000Z', effect: 'item paid', topic: 'pix',
    payload_json: JSON.stringify({ serviceId: 1, payload: { id: 'pix-8', eventId: 'e-8', identifier: 'attempt-6', amount: 1006, balanceAfter: 9_876_543, timestamp: 1_794_150_000, isRefund: false, transactionAccepted: true, transactionStatus: 'approved' } }),
  });
}

