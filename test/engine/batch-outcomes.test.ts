import { describe, expect, it } from 'vitest';
import { batchOutcomes } from '../../src/engine/batches/index.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { itemsOfBatch } from '../../src/ledger/item-repository.js';
import { openLedger, sqliteOf } from '../../src/ledger/open-ledger.js';
import { recordReprocessBatch } from '../../src/ledger/reprocess-store.js';
import { join } from 'node:path';
import { plannedItem } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const at = new Date('2026-11-20T12:00:00Z');

describe('how the payments of a batch ended, with their receipts', () => {
  it('counts the receipts of the paid payments apart from those of payments returned afterwards', async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    try {
      // Four rows of R$ 10,01 … R$ 10,04: row 1 paid with its receipt; row 2 paid, its receipt not in yet; row 3 paid,
      // returned for instability (its receipt saved) and paid again by a second attempt (receipt saved); row 4 paid
      // (receipt saved) and returned for good.
      const items = [1, 2, 3, 4].map(plannedItem);
      const { batchIds: [batchId] } = await recordImport(ledger, { fileHash: 'h', fileName: 's.csv', rowCount: 4, batchName: 'Folha', itemCount: 4, items, rejectedCount: 0, now: at });
      const db = sqliteOf(ledger);
      const set = db.prepare('UPDATE items SET status = ?, receipt_path = ? WHERE identifier = ?');
      set.run('paid', '/r/1.pdf', items[0]!.identifier);
      set.run('paid', null, items[1]!.identifier);
      set.run('returned', '/r/3.pdf', items[2]!.identifier);
      set.run('returned', '/r/4.pdf', items[3]!.identifier);
      const third = (await itemsOfBatch(ledger, batchId!))[2]!;
      await ledger.transaction((tx) => recordReprocessBatch(tx, { name: 'Reprocess', attempts: [{ from: third, rootId: third.id, identifier: '00000000-0000-4000-8000-999999999999', attempt: 2 }], at }));
      db.prepare("UPDATE items SET status = 'paid', receipt_path = '/r/3b.pdf' WHERE attempt = 2").run();

      expect(await batchOutcomes(ledger, batchId!)).toEqual({
        rows: 4,
        paid: 3,
        paidCents: 1001 + 1002 + 1003,
        paidAfterReprocess: 1,
        failed: 0,
        returnedFinal: 1,
        open: 0,
        receipts: 4,
        paidReceipts: 2,
        otherReceipts: 2,
      });
    } finally {
      await ledger.close();
    }
  });
});
