import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchLineage, itemStories } from '../../src/engine/batches/index.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { updateItem } from '../../src/ledger/item-repository.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { anyRowResent } from '../../src/ledger/row-payments.js';
import { plannedItem } from '../helpers/ledger-fixture.js';
import { monthRows } from '../helpers/month-ledger.js';
import { usePostgresDatabases } from '../helpers/postgres.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const freshDatabase = usePostgresDatabases();

describe.each(['sqlite', 'postgres'] as const)("a batch's lineage on the %s ledger", (dialect) => {
  const open = async () => openLedger(dialect === 'sqlite' ? join(tempDir(), 'ledger.db') : await freshDatabase());

  it('of rows each sent once: each row ended as its item did (read from the status totals)', async () => {
    const ledger = await open();
    try {
      await recordImport(ledger, { fileHash: 'h', fileName: 'f.csv', rowCount: 4, batchName: 'Folha', itemCount: 4, items: [1, 2, 3, 4].map(plannedItem), rejectedCount: 0, now: new Date('2026-11-02T12:00:00Z') });
      const at = '2026-11-03T15:00:00.000Z';
      await updateItem(ledger, 1, { status: 'paid', status_changed_at: at, updated_at: at });
      await updateItem(ledger, 2, { status: 'failed', status_changed_at: at, updated_at: at, reason: 'AC03' });
      await updateItem(ledger, 3, { status: 'returned', status_changed_at: at, updated_at: at, reason: 'MD06' });
      expect(await anyRowResent(ledger, 1)).toBe(false);
      const l = await batchLineage(ledger, 1);
      // Items 1–4 are R$ 10,01 … 10,04; item 4 is still waiting.
      expect({ rows: l.rows, resent: l.resent, paidHere: l.paidHere, paidElsewhere: l.paidElsewhere, failed: l.failed, returned: l.returned, open: l.open }).toEqual({
        rows: 4, resent: 0, paidHere: { count: 1, cents: 1001 }, paidElsewhere: [], failed: { count: 1, cents: 1002 }, returned: { count: 1, cents: 1003 }, open: { count: 1, cents: 1004 },
      });
      expect([1, 2, 3, 4].map(l.storyOf)).toEqual([null, null, null, null]);
    } finally {
      await ledger.close();
    }
  });

  it('of rows sent again (a retry, a reprocessing): paid here, paid elsewhere, and the story of a page of items', async () => {
    const ledger = await open();
    try {
      await monthRows(ledger, { thirdPaidAt: '2026-11-03T16:00:00.000Z' });
      expect(await anyRowResent(ledger, 1)).toBe(true);
      // Rows 1 and 3 paid here; row 2 paid by the retry (batch #2), row 6 by reprocessing (batch #3); row 4 returned; row 5 open.
      const l = await batchLineage(ledger, 1);
      expect({ rows: l.rows, resent: l.resent, paidHere: l.paidHere, failed: l.failed, returned: l.returned, open: l.open }).toEqual({
        rows: 6, resent: 2, paidHere: { count: 2, cents: 2004 }, failed: { count: 0, cents: 0 }, returned: { count: 1, cents: 1004 }, open: { count: 1, cents: 1005 },
      });
      expect(l.paidElsewhere.map((e) => [e.batchId, e.count, e.cents])).toEqual([[2, 1, 1002], [3, 1, 1006]]);
      // A page of items 2 and 5: only row 2 was sent more than once, and it ended paid (by item 7, in batch #2).
      const storyOf = await itemStories(ledger, [2, 5]);
      expect(storyOf(2)).toMatchObject({ outcome: 'paid', lineage: { batchId: 1, paidIn: 2 } });
      expect(storyOf(2)!.lineage.payments.map((p) => p.itemId)).toEqual([2, 7]);
      expect(storyOf(5)).toBeNull();
      // The same as the whole batch's story says of those items.
      expect(storyOf(2)).toEqual(l.storyOf(2));
    } finally {
      await ledger.close();
    }
  });
});
