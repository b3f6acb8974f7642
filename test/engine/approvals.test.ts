import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { explainApprovalRefusal } from '../../src/cli/messages/approval-words.js';
import { approverKeyFiles, createApproverKey, openApproverKey, type ApproverSigner } from '../../src/config/approver-key.js';
import { approvalMessage } from '../../src/domain/approval-digest.js';
import {
  awaitsApprovals,
  missingApprovals,
  pendingApprovals,
  prepareBatchApproval,
  prepareBillApproval,
  claimBatch,
  requireApprovals,
  signApproval,
  signAsMaker,
  signBatchesAsMaker,
  type ApprovalGate,
  type ApprovalRefusal,
  type ApproveDeps,
} from '../../src/engine/approvals/index.js';
import { ApprovalRequiredError, ConfigError, PaybatchError } from '../../src/errors.js';
import { recordApproval } from '../../src/ledger/approval-store.js';
import { insertBillIntent } from '../../src/ledger/bill-repository.js';
import { getBatch } from '../../src/ledger/batch-repository.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { openLedger, type Ledger } from '../../src/ledger/open-ledger.js';
import { plannedItem } from '../helpers/ledger-fixture.js';
import { usePostgresDatabases } from '../helpers/postgres.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const freshDatabase = usePostgresDatabases();
const now = new Date('2026-11-23T15:00:00Z');

interface World {
  ledger: Ledger;
  batchId: number;
  keys: Record<'maker' | 'ana' | 'bruno' | 'mallory', ApproverSigner>;
  gate: ApprovalGate;
  deps: ApproveDeps;
}

/** A ledger with one batch of 3 payments (R$ 10,01 + 10,02 + 10,03) made by `maker`; ana, bruno and maker registered. */
async function world(dialect: 'sqlite' | 'postgres', required: 1 | 2 = 2): Promise<World> {
  const dir = tempDir();
  const ledger = await openLedger(dialect === 'sqlite' ? join(dir, 'ledger.db') : await freshDatabase());
  const items = [1, 2, 3].map(plannedItem);
  const { batchIds: [batchId] } = await recordImport(ledger, { fileHash: 'h', fileName: 's.csv', rowCount: 3, batchName: 'Folha', itemCount: 3, items, rejectedCount: 0, now });
  const keys = {} as World['keys'];
  for (const name of ['maker', 'ana', 'bruno', 'mallory'] as const) {
    const files = approverKeyFiles({}, join(dir, `${name}.pem`));
    await createApproverKey(files, null);
    keys[name] = await openApproverKey(files, async () => '');
  }
  const gate: ApprovalGate = {
    policy: { totalAbove: 0, required },
    approvers: { ana: keys.ana.publicKey, bruno: keys.bruno.publicKey, maker: keys.maker.publicKey },
    profile: 'default',
    explain: explainApprovalRefusal('en'),
  };
  // As an import under a policy does: the importer signs as the batch's maker.
  await signBatchesAsMaker(ledger, gate, () => now, { signer: keys.maker, signedFrom: 'maker@desk' }, [batchId]);
  return { ledger, batchId, keys, gate, deps: { ledger, gate, now: () => now, signedFrom: 'checker@desk' } };
}

async function approve(w: World, who: ApproverSigner): Promise<void> {
  await signApproval(w.deps, await prepareBatchApproval(w.deps, w.batchId, who), who);
}

const target = async (w: World) => ({ kind: 'batch' as const, batch: await getBatch(w.ledger, w.batchId) });

describe.each(['sqlite', 'postgres'] as const)('approvals on the %s ledger', (dialect) => {
  it('two approvers required: one is not enough, two distinct ones are', async () => {
    const w = await world(dialect);
    try {
      await expect(requireApprovals(w.ledger, w.gate, await target(w))).rejects.toThrow(
        'Batch #1 "Folha" needs 2 approvals before it can start (its total is above R$ 0,00); it has 0 valid. Nothing was sent.',
      );
      await approve(w, w.keys.ana);
      const one = await requireApprovals(w.ledger, w.gate, await target(w)).catch((e: unknown) => e);
      expect(one).toBeInstanceOf(ApprovalRequiredError);
      expect((one as ApprovalRequiredError).message).toContain('it has 1 valid');
      expect((one as ApprovalRequiredError).hint).toBe("An approver other than its maker signs it with 'paybatch batch approve 1' (registered: bruno), then run this again.");
      await expect(prepareBatchApproval(w.deps, w.batchId, w.keys.ana)).rejects.toThrow('"ana" has already approved batch:1 as it is now');
      await approve(w, w.keys.bruno);
      const check = await requireApprovals(w.ledger, w.gate, await target(w));
      expect({ valid: check.valid, missing: check.missing, waitingFor: check.waitingFor }).toEqual({ valid: 2, missing: 0, waitingFor: [] });
      expect(check.approvals.map((a) => [a.approverName, a.counted, a.signedFrom])).toEqual([
        ['ana', true, 'checker@desk'],
        ['bruno', true, 'checker@desk'],
      ]);
    } finally {
      await w.ledger.close();
    }
  });

  it("a bill's approval is good for its next payment only, and is pending until that payment", async () => {
    const w = await world(dialect, 1);
    try {
      const line = '836800000009874500480015234567890129345678901231';
      const bill = { kind: 'bill' as const, line, amountCents: 8_745, dueDate: null };
      await expect(requireApprovals(w.ledger, w.gate, bill)).rejects.toThrow(
        `The bill ${line} needs 1 approval before it is paid (its total is above R$ 0,00); it has 0 valid. Nothing was paid.`,
      );
      await signApproval(w.deps, await prepareBillApproval(w.deps, bill, w.keys.ana), w.keys.ana);
      expect((await missingApprovals(w.ledger, w.gate, bill)).valid).toBe(1);
      // Nobody has signed as paying it yet: the payer is not proven, so the approval alone does not let it be paid.
      await expect(requireApprovals(w.ledger, w.gate, bill)).rejects.toThrow('The payer of this bill is not proven');
      // Four eyes on bills too: ana's approval does not count once ana signs as the one paying.
      const byAna = await signAsMaker({ ...w.deps, signedFrom: 'other@host' }, bill, w.keys.ana);
      expect(byAna.makers.map((m) => m.name)).toEqual(['ana']);
      expect(byAna.approvals.map((a) => a.problem)).toEqual(['maker']);
      await expect(requireApprovals(w.ledger, w.gate, bill)).rejects.toThrow(ApprovalRequiredError);
      const second = await world(dialect, 1);
      await signApproval(second.deps, await prepareBillApproval(second.deps, bill, second.keys.ana), second.keys.ana);
      await signAsMaker(second.deps, bill, second.keys.bruno);
      expect((await requireApprovals(second.ledger, second.gate, bill)).valid).toBe(1);
      await second.ledger.close();
      expect((await requireApprovals(w.ledger, w.gate, { ...bill, amountCents: 8_746 }).catch((e: Error) => e.message))).toContain('it has 0 valid');
      const pending = await pendingApprovals(w.ledger, w.gate);
      expect(pending.bills.map((p) => ({ command: p.command, valid: p.check.valid, missing: p.check.missing }))).toEqual([{ command: `paybatch boleto pay ${line}`, valid: 1, missing: 0 }]);

      const later = new Date(now.getTime() + 1000);
      await insertBillIntent(w.ledger, { barcode: 'b', line, kind: 'collection', description: null, beneficiary: null, beneficiaryDocument: null, assignor: null, dueDate: null, amountCents: 8_745, forced: false }, later);
      await expect(requireApprovals(w.ledger, w.gate, bill)).rejects.toThrow(ApprovalRequiredError);
      expect((await pendingApprovals(w.ledger, w.gate)).bills).toEqual([]);
    } finally {
      await w.ledger.close();
    }
  });

  it('keeps approvals append-only in the database: UPDATE and DELETE are refused', async () => {
    const w = await world(dialect, 1);
    try {
      await approve(w, w.keys.ana);
      await expect(w.ledger.run(w.ledger.db.updateTable('approvals').set({ digest: '00' }))).rejects.toThrow(/approvals is append-only/);
      await expect(w.ledger.run(w.ledger.db.deleteFrom('approvals'))).rejects.toThrow(/approvals is append-only/);
      expect((await missingApprovals(w.ledger, w.gate, await target(w))).valid).toBe(1);
    } finally {
      await w.ledger.close();
    }
  });
});

describe('the approval gate', () => {
  it('never lets the maker approve: refused when signing, not counted when a signed row is slipped in, whatever host or row says otherwise', async () => {
    const w = await world('sqlite', 1);
    await expect(prepareBatchApproval(w.deps, w.batchId, w.keys.maker)).rejects.toThrow('You made batch #1; the maker of a batch can never approve it. Another approver must.');
    // Hosts and OS users are no identities: signing from another host name changes nothing, nor does erasing imported_by.
    await w.ledger.run(w.ledger.db.updateTable('batches').set({ imported_by: null }).where('id', '=', w.batchId));
    await expect(prepareBatchApproval({ ...w.deps, signedFrom: 'maker@laptop-ana' }, w.batchId, w.keys.maker)).rejects.toThrow('You made batch #1');
    const { digest, subject } = await missingApprovals(w.ledger, w.gate, await target(w));
    await recordApproval(w.ledger, { subject, digest, approverName: 'maker', publicKey: w.keys.maker.publicKey, signature: w.keys.maker.sign(approvalMessage(subject, digest)), signedFrom: 'other@host' }, now);
    const check = await missingApprovals(w.ledger, w.gate, await target(w));
    expect(check.makers.map((m) => m.name)).toEqual(['maker']);
    expect(check.approvals.map((a) => a.problem)).toEqual(['maker']);
    expect(check.waitingFor).toEqual(['ana', 'bruno']);
    await expect(requireApprovals(w.ledger, w.gate, await target(w))).rejects.toThrow('The approval by "maker" does not count: "maker" made this batch, and the maker cannot approve it.');
    await w.ledger.close();
  });

  it('a batch whose maker signature is missing, erased or edited cannot start until a person with a registered key claims it', async () => {
    const w = await world('sqlite', 1);
    await approve(w, w.keys.ana);
    expect((await requireApprovals(w.ledger, w.gate, await target(w))).valid).toBe(1);
    // Whoever can write to the ledger erases the maker's signature (dropping the trigger that keeps it append-only):
    // the maker's own approval would then count, so nothing counts until someone signs as maker.
    await w.ledger.run(sql`DROP TRIGGER maker_signatures_no_delete`);
    await w.ledger.run(sql`DELETE FROM maker_signatures`);
    const refused = await requireApprovals(w.ledger, w.gate, await target(w)).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(ApprovalRequiredError);
    expect((refused as ApprovalRequiredError).message.split('\n')).toEqual([
      'Batch #1 "Folha" needs 1 approval before it can start (its total is above R$ 0,00); it has 1 valid. Nothing was sent.',
      '  Nobody is proven to have made batch #1 (no maker signature that verifies: made before makers signed, or its signature erased or edited), so nobody can be kept from approving their own batch.',
    ]);
    expect((refused as ApprovalRequiredError).hint).toBe("A person with a registered key signs as its maker with 'paybatch batch claim 1' (and can then never approve it).");
    expect((await pendingApprovals(w.ledger, w.gate)).batches.map((p) => p.command)).toEqual(['paybatch batch claim 1']);
    // A signature edited to name another approver does not verify: still unproven.
    const { digest, subject } = await missingApprovals(w.ledger, w.gate, await target(w));
    await w.ledger.run(w.ledger.db.insertInto('maker_signatures').values({ subject, digest, maker_name: 'bruno', public_key: w.keys.bruno.publicKey, signature: w.keys.maker.sign(Buffer.from(`paybatch-maker-v1\n${subject}\n${digest}`)), signed_at: now.toISOString(), signed_from: 'x@y' }));
    // An approval's signature is no maker's: a maker row carrying ana's approval signature does not verify either.
    const anaApproval = (await w.ledger.first(w.ledger.db.selectFrom('approvals').select('signature')))!.signature;
    await w.ledger.run(w.ledger.db.insertInto('maker_signatures').values({ subject, digest, maker_name: 'ana', public_key: w.keys.ana.publicKey, signature: anaApproval, signed_at: now.toISOString(), signed_from: 'x@y' }));
    expect((await missingApprovals(w.ledger, w.gate, await target(w))).makers).toEqual([]);
    // The maker claims it back: their approval would not count; ana's does, and it may start.
    await claimBatch(w.deps, w.batchId, w.keys.maker);
    const claimed = await requireApprovals(w.ledger, w.gate, await target(w));
    expect(claimed.makers.map((m) => m.name)).toEqual(['maker']);
    expect(claimed.valid).toBe(1);
    // Had ana claimed it instead, her own approval would stop counting.
    await claimBatch(w.deps, w.batchId, w.keys.ana);
    await expect(requireApprovals(w.ledger, w.gate, await target(w))).rejects.toThrow('The approval by "ana" does not count: "ana" made this batch');
    await w.ledger.close();
  });

  it('a batch changed after its approvals is refused: an amount edited in the ledger voids them', async () => {
    const w = await world('sqlite');
    await approve(w, w.keys.ana);
    await approve(w, w.keys.bruno);
    await requireApprovals(w.ledger, w.gate, await target(w));
    await w.ledger.run(w.ledger.db.updateTable('items').set({ amount_cents: 900_000 }).where('line', '=', 2));
    const refused = (await requireApprovals(w.ledger, w.gate, await target(w)).catch((e: unknown) => e)) as ApprovalRequiredError;
    expect(refused.message.split('\n')).toEqual([
      'Batch #1 "Folha" needs 2 approvals before it can start (its total is above R$ 0,00); it has 0 valid. Nothing was sent.',
      '  The approval by "ana" does not count: the content changed after it was signed.',
      '  The approval by "bruno" does not count: the content changed after it was signed.',
      // The maker signed the content as it was: what the ledger holds now was made by nobody known.
      '  Nobody is proven to have made batch #1 (no maker signature that verifies: made before makers signed, or its signature erased or edited), so nobody can be kept from approving their own batch.',
    ]);
    expect(refused.exitCode).toBe(3);
    expect(refused.approvals).toMatchObject({ subjects: [{ subject: 'batch:1', required: 2, valid: 0, missing: 2, approvals: [{ approver: 'ana', counted: false, problem: 'content-changed' }, { approver: 'bruno', problem: 'content-changed' }] }] });
    await w.ledger.close();
  });

  it('forged rows do not count: an unregistered key, a registered name with another key, a signature that does not verify', async () => {
    const w = await world('sqlite', 1);
    const { digest, subject } = await missingApprovals(w.ledger, w.gate, await target(w));
    const forged = w.keys.mallory.sign(approvalMessage(subject, digest));
    await recordApproval(w.ledger, { subject, digest, approverName: 'mallory', publicKey: w.keys.mallory.publicKey, signature: forged, signedFrom: 'm@x' }, now);
    await recordApproval(w.ledger, { subject, digest, approverName: 'ana', publicKey: w.keys.mallory.publicKey, signature: forged, signedFrom: 'm@x' }, now);
    await recordApproval(w.ledger, { subject, digest, approverName: 'ana', publicKey: w.keys.ana.publicKey, signature: forged, signedFrom: 'm@x' }, now);
    // Ana's real signature of other content, with this batch's digest written over it.
    const other = w.keys.ana.sign(approvalMessage(subject, '0'.repeat(64)));
    await recordApproval(w.ledger, { subject, digest, approverName: 'ana', publicKey: w.keys.ana.publicKey, signature: other, signedFrom: 'm@x' }, now);
    const check = await missingApprovals(w.ledger, w.gate, await target(w));
    expect(check.approvals.map((a) => a.problem)).toEqual(['not-registered', 'key-mismatch', 'bad-signature', 'bad-signature']);
    expect(check.valid).toBe(0);
    await expect(requireApprovals(w.ledger, w.gate, await target(w))).rejects.toThrow(ApprovalRequiredError);
    await w.ledger.close();
  });

  it("a key swapped in the profile voids the approvals signed with the old one", async () => {
    const w = await world('sqlite', 1);
    await approve(w, w.keys.ana);
    await requireApprovals(w.ledger, w.gate, await target(w));
    const swapped = { ...w.gate, approvers: { ...w.gate.approvers, ana: w.keys.mallory.publicKey } };
    const check = await missingApprovals(w.ledger, swapped, await target(w));
    expect(check.approvals.map((a) => a.problem)).toEqual(['key-mismatch']);
    await expect(requireApprovals(w.ledger, swapped, await target(w))).rejects.toThrow(
      'The approval by "ana" does not count: the key stored with it is not the key this profile registers for "ana".',
    );
    await w.ledger.close();
  });

  it('says why it refuses as a code and its data, worded by the gate the edge gave it (no language of its own)', async () => {
    const w = await world('sqlite', 1);
    const said: ApprovalRefusal[] = [];
    const gate: ApprovalGate = { ...w.gate, explain: (r) => (said.push(r), { message: `refused: ${r.code}` }) };
    const deps = { ...w.deps, gate };
    const makerTries = await prepareBatchApproval(deps, w.batchId, w.keys.maker).catch((e: unknown) => e);
    expect(makerTries).toBeInstanceOf(PaybatchError);
    expect((makerTries as Error).message).toBe('refused: maker_cannot_approve');
    // Refused by the approval rules, like money refused for lack of approvals: exit 3.
    expect((makerTries as PaybatchError).exitCode).toBe(3);
    await expect(prepareBatchApproval(deps, w.batchId, w.keys.mallory)).rejects.toThrow(ConfigError);
    const gateSays = await requireApprovals(w.ledger, gate, await target(w)).catch((e: unknown) => e);
    expect(gateSays).toBeInstanceOf(ApprovalRequiredError);
    expect((gateSays as Error).message).toBe('refused: approvals_missing');
    expect(said).toEqual([
      { code: 'maker_cannot_approve', batchId: w.batchId },
      { code: 'key_not_registered', fingerprint: w.keys.mallory.fingerprint, publicKey: w.keys.mallory.publicKey, profile: 'default' },
      {
        code: 'approvals_missing',
        profile: 'default',
        approversRegistered: true,
        lacking: [
          {
            target: { kind: 'batch', id: w.batchId, name: 'Folha' },
            required: 1, valid: 0, missing: 1,
            reasons: [{ rule: 'total', aboveCents: 0 }],
            notCounted: [],
            makerProven: true,
            waitingFor: ['ana', 'bruno'],
          },
        ],
      },
    ]);
    // Plain data: what JSON keeps of it is all of it.
    expect(JSON.parse(JSON.stringify(said))).toEqual(said);
    await w.ledger.close();
  });

  it('an approver whose key the profile does not register cannot sign', async () => {
    const w = await world('sqlite', 1);
    await expect(prepareBatchApproval(w.deps, w.batchId, w.keys.mallory)).rejects.toThrow(
      `Your approver key (${w.keys.mallory.fingerprint}) is not registered in the profile "default".`,
    );
    await w.ledger.close();
  });

  it('pendingApprovals says what waits for whom, and nothing under a policy that asks for none', async () => {
    const w = await world('sqlite');
    await approve(w, w.keys.bruno);
    const pending = await pendingApprovals(w.ledger, w.gate);
    expect(pending.bills).toEqual([]);
    expect(pending.batches.map((p) => ({ command: p.command, valid: p.check.valid, missing: p.check.missing, waitingFor: p.check.waitingFor, total: p.check.figures.totalCents }))).toEqual([
      { command: 'paybatch batch approve 1', valid: 1, missing: 1, waitingFor: ['ana'], total: 1001 + 1002 + 1003 },
    ]);
    expect(await pendingApprovals(w.ledger, { ...w.gate, policy: { required: 2 } })).toEqual({ batches: [], bills: [] });
    await w.ledger.close();
  });
});

describe('who imported a batch, and whether it waits for approvals', () => {
  it("a batch whose maker signature no longer verifies still keeps its importer off those who can sign, named as the profile registers their key", async () => {
    const w = await world('sqlite', 1);
    await w.ledger.run(w.ledger.db.updateTable('batches').set({ imported_by: w.keys.maker.fingerprint }).where('id', '=', w.batchId));
    await w.ledger.run(sql`DROP TRIGGER maker_signatures_no_delete`);
    await w.ledger.run(sql`DELETE FROM maker_signatures`);
    const check = await missingApprovals(w.ledger, w.gate, await target(w));
    expect(check.makers).toEqual([]);
    expect(check.importedBy).toEqual({ fingerprint: w.keys.maker.fingerprint, name: 'maker' });
    expect(check.waitingFor).toEqual(['ana', 'bruno']);
    // A key the profile no longer registers: only its fingerprint is known.
    const unregistered = await missingApprovals(w.ledger, { ...w.gate, approvers: { ana: w.keys.ana.publicKey, bruno: w.keys.bruno.publicKey } }, await target(w));
    expect(unregistered.importedBy).toEqual({ fingerprint: w.keys.maker.fingerprint, name: null });
    await w.ledger.close();
  });

  it('awaitsApprovals: a batch not started that the gate refuses, not once approved, started, or without a policy', async () => {
    const w = await world('sqlite', 1);
    expect(await awaitsApprovals(w.ledger, w.gate, await getBatch(w.ledger, w.batchId))).toBe(true);
    expect(await awaitsApprovals(w.ledger, { ...w.gate, policy: { required: 1 } }, await getBatch(w.ledger, w.batchId))).toBe(false);
    await w.ledger.run(w.ledger.db.updateTable('batches').set({ status: 'settled' }).where('id', '=', w.batchId));
    expect(await awaitsApprovals(w.ledger, w.gate, await getBatch(w.ledger, w.batchId))).toBe(false);
    await w.ledger.run(w.ledger.db.updateTable('batches').set({ status: 'submitted' }).where('id', '=', w.batchId));
    await approve(w, w.keys.ana);
    expect(await awaitsApprovals(w.ledger, w.gate, await getBatch(w.ledger, w.batchId))).toBe(false);
    await w.ledger.close();
  });
});
