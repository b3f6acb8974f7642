import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Alert } from '../../src/alerts/alert.js';
import { explainApprovalRefusal } from '../../src/cli/messages/approval-words.js';
import { approverKeyFiles, createApproverKey, openApproverKey } from '../../src/config/approver-key.js';
import { DEFAULT_SETTINGS } from '../../src/config/settings.js';
import { prepareBatchApproval, signApproval, signBatchesAsMaker, type ApprovalGate } from '../../src/engine/approvals/index.js';
import { followUpPass } from '../../src/engine/follow-up/follow-up.js';
import { payOnStart, scheduleImportBatches } from '../../src/engine/batches/schedule-batch.js';
import { submitBatch } from '../../src/engine/batches/submit-batch.js';
import { ApprovalRequiredError } from '../../src/errors.js';
import { getBatch, updateBatch } from '../../src/ledger/batch-repository.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { schedulesOf } from '../../src/ledger/schedule-store.js';
import type { ProviderClient } from '../../src/provider/client.js';
import { plannedItem } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { receiptsIn } from '../helpers/receipts-dir.js';

const tempDir = useTempDir();
const importedAt = new Date('2026-11-23T15:00:00Z');

/** A batch at the provider, not started, signed by its maker "maker"; ana and maker registered; one approval needed for any batch. */
async function world() {
  const dir = tempDir();
  const ledger = await openLedger(join(dir, 'ledger.db'));
  const { batchIds: [batchId] } = await recordImport(ledger, {
    fileHash: 'h', fileName: 'folha.csv', rowCount: 2, batchName: 'Folha', itemCount: 2, items: [plannedItem(1), plannedItem(2)], rejectedCount: 0, now: importedAt,
  });
  await updateBatch(ledger, batchId!, { status: 'submitted', remote_id: 'remote-1' }, importedAt);
  const files = approverKeyFiles({}, join(dir, 'ana.pem'));
  await createApproverKey(files, null);
  const ana = await openApproverKey(files, async () => '');
  const makerFiles = approverKeyFiles({}, join(dir, 'maker.pem'));
  await createApproverKey(makerFiles, null);
  const maker = await openApproverKey(makerFiles, async () => '');
  const gate: ApprovalGate = { policy: { totalAbove: 0, required: 1 }, approvers: { ana: ana.publicKey, maker: maker.publicKey }, profile: 'default', explain: explainApprovalRefusal('en') };
  await signBatchesAsMaker(ledger, gate, () => importedAt, { signer: maker, signedFrom: 'maker@desk' }, [batchId!]);
  const starts: string[] = [];
  const provider = {
    dialect: { instabilityWords: [] as string[] },
    async startBatch(id: string) {
      starts.push(id);
      return { id, name: 'Folha', status: 'processing', timestamp: 0 };
    },
    async *items(): AsyncGenerator<never[]> {
      yield [];
    },
  } as unknown as ProviderClient;
  const approve = async () => {
    const deps = { ledger, gate, now: () => importedAt, signedFrom: 'ana@desk' };
    await signApproval(deps, await prepareBatchApproval(deps, batchId!, ana), ana);
  };
  return { ledger, batchId: batchId!, gate, provider, starts, approve };
}

describe('the approval gate where batches start', () => {
  it('submitBatch refuses to start without the approvals, before asking for the start; with them it starts', async () => {
    const w = await world();
    const deps = { ledger: w.ledger, provider: w.provider as never, now: () => importedAt, approvals: w.gate };
    await expect(submitBatch(deps, w.batchId, { start: true })).rejects.toThrow(ApprovalRequiredError);
    expect(w.starts).toEqual([]);
    expect((await getBatch(w.ledger, w.batchId)).start_requested).toBe(0);
    await w.approve();
    expect((await submitBatch(deps, w.batchId, { start: true })).status).toBe('started');
    expect(w.starts).toEqual(['remote-1']);
    await w.ledger.close();
  });

  it("the daemon's scheduled start waits for the approvals, alerts once, and starts at the first pass after them", async () => {
    const w = await world();
    await scheduleImportBatches(w.ledger, [w.batchId], payOnStart('2026-12-07', importedAt), importedAt);
    const sent: Alert[] = [];
    const pass = (at: string) =>
      followUpPass({
        ledger: w.ledger, provider: w.provider, now: () => new Date(at), ...receiptsIn(tempDir()), settings: { ...DEFAULT_SETTINGS, returnWatch: 0 },
        send: async (a) => (sent.push(a), []), profile: 'default', sandbox: true, approvals: w.gate,
      });
    const first = await pass('2026-12-07T11:01:00Z');
    expect(first.errors).toEqual([expect.objectContaining({ step: 'scheduled_start', batchId: 1, error: expect.stringMatching(/^Batch #1 "Folha" needs 1 approval before it can start/) })]);
    await pass('2026-12-07T11:02:00Z');
    expect(w.starts).toEqual([]);
    expect(sent.map((a) => [a.kind, a.title])).toEqual([['scheduled-start-failed', 'Scheduled batch #1 "Folha" lacks the approvals it needs']]);
    expect(sent[0]!.summary).toContain("'paybatch batch approve 1'");
    expect((await schedulesOf(w.ledger, [w.batchId]))[0]).toMatchObject({ state: 'scheduled' });

    await w.approve();
    const after = await pass('2026-12-07T11:03:00Z');
    expect(after.scheduledStarts).toEqual([1]);
    expect(w.starts).toEqual(['remote-1']);
    expect((await schedulesOf(w.ledger, [w.batchId]))[0]).toMatchObject({ state: 'started' });
    await w.ledger.close();
  });
});
