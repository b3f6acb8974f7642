import { describe, expect, it } from 'vitest';
import { failuresToReport, recordAlert } from '../../src/ledger/attention-store.js';
import { batchProgress, getBatch } from '../../src/ledger/batch-repository.js';
import { isEventStored, storeEvent } from '../../src/ledger/event-repository.js';
import { findImportByHash, recordImport } from '../../src/ledger/import-repository.js';
import { ImportStaging } from '../../src/ledger/import-staging.js';
import { itemOutcomes } from '../../src/ledger/item-outcomes.js';
import { itemForEvent, itemsOfBatch, markItemsCallFailed, markItemsSent, updateItem } from '../../src/ledger/item-repository.js';
import { checkLedger } from '../../src/ledger/ledger-check.js';
import { logIntent, logOutcome } from '../../src/ledger/call-log.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { recentPaymentsBesides, retryableItems } from '../../src/ledger/retry-store.js';
import { workLeft } from '../../src/ledger/work-left.js';
import { plannedItem } from '../helpers/ledger-fixture.js';
import { usePostgresDatabases } from '../helpers/postgres.js';

const freshDatabase = usePostgresDatabases();
const now = new Date('2026-11-20T12:00:00Z');

// The stores' hand-written SQL (aliases, GROUP BY, bulk inserts, IN lists) run on a real PostgreSQL ledger.
describe('the ledger stores on PostgreSQL', () => {
  it('record an import in bulk, report on it, and find what may be paid again', async () => {
    const ledger = await openLedger(await freshDatabase());
    try {
      const items = Array.from({ length: 1100 }, (_, i) => plannedItem(i + 1));
      const { importId, batchIds } = await recordImport(ledger, { fileHash: 'h', fileName: 's.csv', rowCount: 1100, batchName: 'Folha', itemCount: 1100, items, rejectedCount: 0, now, partSize: 600 });
      expect(await findImportByHash(ledger, 'h')).toMatchObject({ id: importId, batchIds, itemCount: 1100 });
      expect(batchIds).toEqual([1, 2]);
      expect(await getBatch(ledger, 2)).toMatchObject({ name: 'Folha (2/2)', remote_name: 'Folha (2/2) [pb:2]', item_count: 500 });
      // plannedItem(n) pays 1000 + n centavos: items 601–1100 are batch 2.
      expect(await batchProgress(ledger, 2)).toEqual([{ status: 'resolved', count: 500, sumCents: 500 * 1000 + (601 + 1100) * 250 }]);

      await markItemsSent(ledger, [{ identifier: items[0]!.identifier, remoteItemId: 'r1', remoteStatus: 'waiting', state: 'submitted' }], now);
      await markItemsCallFailed(ledger, [items[1]!.identifier, items[2]!.identifier], 'timeout', now);
      await updateItem(ledger, 3, { status: 'failed', record_state: 'failed', reason: 'closed account', return_action: 'final' });
      expect((await itemsOfBatch(ledger, 1)).slice(0, 3).map((i) => [i.status, i.remote_item_id, i.call_attempts, i.last_error])).toEqual([
        ['submitted', 'r1', 1, null],
        ['resolved', null, 1, 'timeout'],
        ['failed', null, 1, 'timeout'],
      ]);
      expect(await itemForEvent(ledger, items[0]!.identifier)).toMatchObject({ id: 1, status: 'submitted', amount_cents: 1001, batchStatus: 'draft' });

      const retryable = await retryableItems(ledger, 1, ['failed']);
      expect(retryable.map((r) => [r.item.id, r.rootId, r.retries])).toEqual([[3, 3, 0]]);
      expect(await recentPaymentsBesides(ledger, { since: new Date(now.getTime() - 1000), keys: ['p1@example.com', 'p3@example.com'], exceptRoots: [] })).toEqual([
        { key: 'p1@example.com', amountCents: 1001, batchName: 'Folha (1/2)', createdAt: now.toISOString() },
      ]);
      expect((await itemOutcomes(ledger, 1)).slice(0, 3)).toEqual([
        { line: 2, outcome: 'submitted', attempts: 1, cents: 1001, receiptSaved: false, receipts: 0 },
        { line: 3, outcome: 'resolved', attempts: 1, cents: 1002, receiptSaved: false, receipts: 0 },
        { line: 4, outcome: 'failed', attempts: 1, cents: 1003, receiptSaved: false, receipts: 0 },
      ]);
      expect(await workLeft(ledger)).toEqual({ pending: 0, unsent: 2, missingReceipts: 0, openAlerts: 0, unsettledBatches: 0, unknownBills: 0, unknownPixCalls: 0 });

      const failures = await failuresToReport(ledger, { maxReprocess: 3, undecidedBefore: now });
      expect(failures.map((f) => [f.ref, f.batch, f.status, f.reason])).toEqual([[3, 'Folha (1/2)', 'failed', 'closed account']]);
      expect(await recordAlert(ledger, { kind: 'failures', title: 't', summary: 's', rows: failures, itemsJson: '[]', mark: { table: 'items', column: 'alerted_at' }, at: now })).toEqual({ alertId: 1, token: 1 });
      expect(await failuresToReport(ledger, { maxReprocess: 3, undecidedBefore: now })).toEqual([]);

      const staging = new ImportStaging(ledger);
      staging.addRows([{ line: 2, identifier: 'x', key: 'p2@example.com', keyType: 'email', amountCents: 1002, description: 'd', name: null, document: null }]);
      expect([...(await staging.recentPaymentsOn(2, 2, new Date(now.getTime() - 1000), 'another sheet'))]).toEqual([
        [2, { key: 'p2@example.com', amountCents: 1002, batchName: 'Folha (1/2)', createdAt: now.toISOString() }],
      ]);
      expect((await staging.recentPaymentsOn(2, 2, new Date(now.getTime() - 1000), 'h')).size).toBe(0);
      staging.close();

      await storeEvent(ledger, { event_id: 'e1', kind: 'pix', received_at: now.toISOString(), payload_json: '{}', effect: 'applied' });
      expect([await isEventStored(ledger, 'e1'), await isEventStored(ledger, 'e2')]).toEqual([true, false]);
    } finally {
      await ledger.close();
    }
  });

  it('check the ledger: open and unpaired calls, payments marked paid twice, batch totals', async () => {
    const ledger = await openLedger(await freshDatabase());
    try {
      await recordImport(ledger, { fileHash: 'h', fileName: 's.csv', rowCount: 2, batchName: 'Folha', itemCount: 2, items: [plannedItem(1), plannedItem(2)], rejectedCount: 0, now });
      const lost = await logIntent(ledger, 'add_items', 'batch:1', {}, now);
      const twice = await logIntent(ledger, 'start_batch', 'batch:1', {}, now);
      await logOutcome(ledger, twice, 'ok', {}, now);
      await logOutcome(ledger, twice, 'error', {}, now);
      // The draft batch's items call has no answer: an outcome unknown (subjects matched to batches on PostgreSQL too).
      expect((await workLeft(ledger)).unknownPixCalls).toBe(1);
      await ledger.run(ledger.db.updateTable('items').set({ status: 'paid' }).where('id', '=', 1));
      await ledger.run(
        ledger.db.insertInto('items').values({
          batch_id: 1, identifier: 'retry-1', key: 'p1@example.com', key_type: 'email', amount_cents: 1001, description: 'row 1', status: 'paid', attempt: 2,
          original_item_id: 1, created_at: 'x', updated_at: 'x', status_changed_at: 'x',
        }),
      );
      const c = await checkLedger(ledger);
      expect(c).toEqual({
        integrity: [],
        calls: 2,
        openCalls: [{ id: lost, operation: 'add_items', subject: 'batch:1', createdAt: now.toISOString(), settledByRetry: false }],
        strayCalls: [{ id: twice, operation: 'start_batch', subject: 'batch:1', problem: '2 outcomes for one intent' }],
        paidTwice: [{ originalItemId: 1, identifiers: [plannedItem(1).identifier, 'retry-1'], batchIds: [1, 1] }],
        batches: 1,
        batchMismatches: [{ batchId: 1, name: 'Folha', itemCount: 2, items: 3, totalCents: 2003, itemsTotalCents: 3004 }],
        strayBatches: [],
        refusedBatches: [],
        clean: false,
      });
    } finally {
      await ledger.close();
    }
  });
});
