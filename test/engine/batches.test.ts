import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anyNotYetStarted, batchDetails, planBatchStart } from '../../src/engine/batches/batches.js';
import type { ApprovalGate } from '../../src/engine/approvals/index.js';
import { explainApprovalRefusal } from '../../src/cli/messages/approval-words.js';
import { getBatch, updateBatch } from '../../src/ledger/batch-repository.js';
import { logIntent, logOutcome } from '../../src/ledger/call-log.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { openLedger, sqliteOf, type Ledger } from '../../src/ledger/open-ledger.js';
import { scheduleBatches } from '../../src/ledger/schedule-store.js';
import { plannedItem } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const t0 = new Date('2026-11-20T12:00:00.000Z');
const t1 = new Date('2026-11-20T12:00:05.000Z');
/** No approval rule: nothing waits for approvals. */
const noPolicy: ApprovalGate = { policy: { required: 1 }, approvers: {}, profile: 'default', explain: explainApprovalRefusal('en') };

/**
 * A sheet of five rows (R$ 10,01 … 10,05) sent as two parts of at most three: batch 1 holds items 1–3 (R$ 30,06),
 * batch 2 items 4–5 (R$ 20,09).
 */
async function twoParts(): Promise<Ledger> {
  const ledger = await openLedger(join(tempDir(), 'ledger.db'));
  const items = [1, 2, 3, 4, 5].map(plannedItem);
  await recordImport(ledger, { fileHash: 'h', fileName: 's.csv', rowCount: 5, batchName: 'Folha', itemCount: 5, items, rejectedCount: 0, now: t0, partSize: 3 });
  return ledger;
}

describe('batchDetails', () => {
  it("gathers a batch's schedule, the parts of its sheet, its progress by status and its own calls to the provider", async () => {
    const ledger = await twoParts();
    const set = (sql: string, ...ids: number[]) => sqliteOf(ledger).prepare(`UPDATE items SET ${sql} WHERE id IN (${ids.join(',')})`).run();
    set("status = 'paid'", 1);
    set("status = 'failed'", 2, 3);
    await scheduleBatches(ledger, [1], { payOn: '2026-11-23', startAt: '2026-11-23T11:00:00.000Z', now: t0 });
    const intent = await logIntent(ledger, 'create_batch', 'batch:1', { name: 'Folha (1/2)' }, t0);
    await logOutcome(ledger, intent, 'ok', { remoteId: 'r-1' }, t1);
    await logIntent(ledger, 'create_batch', 'batch:2', { name: 'Folha (2/2)' }, t1);

    const d = await batchDetails(ledger, 1);
    expect(d.batch).toMatchObject({ id: 1, name: 'Folha (1/2)', item_count: 3, total_cents: 3006 });
    expect(d.schedule).toEqual({ batchId: 1, payOn: '2026-11-23', startAt: '2026-11-23T11:00:00.000Z', state: 'scheduled', lastError: null });
    expect(d.parts).toEqual([
      { id: 1, name: 'Folha (1/2)', status: 'draft', items: 3, totalCents: 3006 },
      { id: 2, name: 'Folha (2/2)', status: 'draft', items: 2, totalCents: 2009 },
    ]);
    // Item 1 paid (R$ 10,01); items 2 and 3 failed (R$ 10,02 + 10,03).
    expect(d.progress).toEqual([
      { status: 'failed', count: 2, sumCents: 2005 },
      { status: 'paid', count: 1, sumCents: 1001 },
    ]);
    expect(d.calls).toEqual([
      { at: '2026-11-20T12:00:00.000Z', phase: 'intent', operation: 'create_batch', outcome: null, detail: { name: 'Folha (1/2)' } },
      { at: '2026-11-20T12:00:05.000Z', phase: 'outcome', operation: 'create_batch', outcome: 'ok', detail: { remoteId: 'r-1' } },
    ]);
    const second = await batchDetails(ledger, 2);
    expect(second.schedule).toBeUndefined();
    expect(second.progress).toEqual([{ status: 'resolved', count: 2, sumCents: 2009 }]);
    await ledger.close();
  });

  it('names no parts for a sheet sent as one batch', async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    await recordImport(ledger, { fileHash: 'h', fileName: 's.csv', rowCount: 2, batchName: 'Folha', itemCount: 2, items: [plannedItem(1), plannedItem(2)], rejectedCount: 0, now: t0 });
    expect((await batchDetails(ledger, 1)).parts).toEqual([]);
    await ledger.close();
  });
});

describe('planBatchStart', () => {
  it('a batch scheduled for a later day starts early only as the plan says; on its day it is no longer early', async () => {
    const ledger = await twoParts();
    await scheduleBatches(ledger, [1], { payOn: '2026-11-23', startAt: '2026-11-23T11:00:00.000Z', now: t0 });
    const batch = await getBatch(ledger, 1);
    expect(await planBatchStart(ledger, batch, t0, async () => noPolicy)).toEqual({ kind: 'start', batch, approvals: noPolicy, earlyStartAt: '2026-11-23T11:00:00.000Z' });
    expect(await planBatchStart(ledger, batch, new Date('2026-11-23T11:00:00.000Z'), async () => noPolicy)).toMatchObject({ kind: 'start', earlyStartAt: null });
    // Batch 2 has no schedule.
    expect(await planBatchStart(ledger, await getBatch(ledger, 2), t0, async () => noPolicy)).toMatchObject({ kind: 'start', earlyStartAt: null });
    await ledger.close();
  });

  it('has nothing to do for a batch already started, without reading the approval gate', async () => {
    const ledger = await twoParts();
    await updateBatch(ledger, 1, { status: 'started', remote_id: 'r-1', start_requested: 1 }, t0);
    const batch = await getBatch(ledger, 1);
    const plan = await planBatchStart(ledger, batch, t0, async () => {
      throw new Error('the gate was read');
    });
    expect(plan).toEqual({ kind: 'already-started', batch });
    await ledger.close();
  });
});

describe('anyNotYetStarted', () => {
  it('is true while one of the batches is a draft, created or submitted, false once all are started or settled', async () => {
    const ledger = await twoParts();
    await updateBatch(ledger, 1, { status: 'started' }, t0);
    expect(await anyNotYetStarted(ledger, [1, 2])).toBe(true);
    await updateBatch(ledger, 2, { status: 'submitted' }, t0);
    expect(await anyNotYetStarted(ledger, [1, 2])).toBe(true);
    await updateBatch(ledger, 2, { status: 'settled' }, t0);
    expect(await anyNotYetStarted(ledger, [1, 2])).toBe(false);
    await ledger.close();
  });
});
