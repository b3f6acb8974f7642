import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { insertBillIntent, updateBill } from '../../src/ledger/bill-repository.js';
import { logIntent, logOutcome } from '../../src/ledger/call-log.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { updateBatch } from '../../src/ledger/batch-repository.js';
import { openLedger, sqliteOf } from '../../src/ledger/open-ledger.js';
import { workLeft } from '../../src/ledger/work-left.js';
import { ledgerWithStartedBatch, plannedItem } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const at = new Date('2026-11-20T12:00:00Z');
const bill = (n: number) => ({
  barcode: `8369000000${n}`, line: `8369000000${n}`, kind: 'collection' as const, description: null, beneficiary: null, beneficiaryDocument: null, assignor: null,
  dueDate: null, amountCents: 45_990, forced: false,
});

describe('what the daemon still has to do', () => {
  it('counts a batch held started whose items all settled, confirmed by the provider, as not settled yet', async () => {
    const { ledger } = await ledgerWithStartedBatch(tempDir(), 2, at);
    try {
      sqliteOf(ledger).prepare("UPDATE items SET status = 'paid', record_state = 'paid', receipt_path = '/r.pdf'").run();
      expect(await workLeft(ledger)).toMatchObject({ pending: 0, unsent: 0, missingReceipts: 0, unsettledBatches: 1 });
      sqliteOf(ledger).prepare("UPDATE batches SET status = 'settled'").run();
      expect((await workLeft(ledger)).unsettledBatches).toBe(0);
    } finally {
      await ledger.close();
    }
  });

  it('counts bills whose outcome is unknown (unknown, or an intent left by a run that died); a paid bill is paid', async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    try {
      const lost = await insertBillIntent(ledger, bill(1), at);
      await updateBill(ledger, lost, { status: 'unknown' }, at);
      await insertBillIntent(ledger, bill(2), at);
      const paid = await insertBillIntent(ledger, bill(3), at);
      // Paid yesterday, still inside any return watch: paid, not unknown.
      await updateBill(ledger, paid, { status: 'paid', transaction_id: 't-3', settle_date: '2026-11-19' }, at);
      const failed = await insertBillIntent(ledger, bill(4), at);
      await updateBill(ledger, failed, { status: 'failed' }, at);
      expect((await workLeft(ledger)).unknownBills).toBe(2);
    } finally {
      await ledger.close();
    }
  });

  it('counts a batch not started whose last call of a kind has no known answer, until the same call is answered', async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    try {
      const { batchIds: [first, second] } = await recordImport(ledger, {
        fileHash: 'h', fileName: 's.csv', rowCount: 2, batchName: 'Folha', itemCount: 2, items: [plannedItem(1), plannedItem(2)], rejectedCount: 0, now: at, partSize: 1,
      });
      await updateBatch(ledger, first!, { status: 'created', remote_id: 'r-1' }, at);
      // Batch 1: its items' answer was lost; batch 2: its creation's call died without an answer written.
      const lostAdd = await logIntent(ledger, 'add_items', `batch:${first}`, {}, at);
      await logOutcome(ledger, lostAdd, 'unknown', {}, at);
      await logIntent(ledger, 'create_batch', `batch:${second}`, {}, at);
      expect((await workLeft(ledger)).unknownPixCalls).toBe(2);

      // Sent again and answered: batch 1 is known now, though its first answer stays lost in the log.
      const again = await logIntent(ledger, 'add_items', `batch:${first}`, {}, at);
      await logOutcome(ledger, again, 'ok', {}, at);
      // Refused by the provider: a known outcome (nothing was applied).
      const refused = await logIntent(ledger, 'create_batch', `batch:${second}`, {}, at);
      await logOutcome(ledger, refused, 'error', {}, at);
      expect((await workLeft(ledger)).unknownPixCalls).toBe(0);

      // Its start's answer lost, then the batch found started: every call before a start is known.
      const lostStart = await logIntent(ledger, 'start_batch', `batch:${first}`, {}, at);
      await logOutcome(ledger, lostStart, 'unknown', {}, at);
      expect((await workLeft(ledger)).unknownPixCalls).toBe(1);
      await updateBatch(ledger, first!, { status: 'started' }, at);
      expect((await workLeft(ledger)).unknownPixCalls).toBe(0);
    } finally {
      await ledger.close();
    }
  });
});
