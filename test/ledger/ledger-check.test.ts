import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { logIntent, logOutcome } from '../../src/ledger/call-log.js';
import { claimImport } from '../../src/ledger/import-claim.js';
import { recordImport } from '../../src/ledger/import-repository.js';
import { recordStrayBatch, settleStrayBatch } from '../../src/ledger/stray-batch-store.js';
import { checkLedger } from '../../src/ledger/ledger-check.js';
import { openLedger, sqliteOf } from '../../src/ledger/open-ledger.js';
import { ledgerWithStartedBatch, plannedItem } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { runCli } from '../helpers/test-io.js';

const tempDir = useTempDir();
const now = new Date('2026-11-20T12:00:00Z');

describe('ledger check', () => {
  it('finds nothing in a sound ledger', async () => {
    const { ledger } = await ledgerWithStartedBatch(tempDir(), 20, now);
    const intent = await logIntent(ledger, 'create_batch', 'batch:1', {}, now);
    await logOutcome(ledger, intent, 'ok', {}, now);
    expect(await checkLedger(ledger)).toEqual({
      integrity: [], calls: 1, openCalls: [], strayCalls: [], paidTwice: [], batches: 1, batchMismatches: [], strayBatches: [], refusedBatches: [], clean: true,
    });
    await ledger.close();
  });

  it('reports open calls, unpaired outcomes, payments marked paid twice and batch totals that differ', async () => {
    const { ledger } = await ledgerWithStartedBatch(tempDir(), 3, now);
    const raw = sqliteOf(ledger);
    // A create_batch interrupted and then retried successfully; an add_items never answered.
    const first = await logIntent(ledger, 'create_batch', 'batch:1', {}, now);
    await logOutcome(ledger, await logIntent(ledger, 'create_batch', 'batch:1', {}, now), 'ok', {}, now);
    const lost = await logIntent(ledger, 'add_items', 'batch:1', {}, now);
    const twice = await logIntent(ledger, 'start_batch', 'batch:1', {}, now);
    await logOutcome(ledger, twice, 'ok', {}, now);
    await logOutcome(ledger, twice, 'error', {}, now);
    raw.prepare("INSERT INTO provider_calls (phase, intent_id, operation, subject, outcome, created_at) VALUES ('outcome', NULL, 'pay_bill', 'bill:9', 'ok', ?)").run(now.toISOString());
    // Item 1 paid, and its reprocess attempt (in a second batch) paid too.
    raw.prepare("UPDATE items SET status = 'paid' WHERE id = 1").run();
    raw.prepare("INSERT INTO batches (id, kind, name, remote_name, status, item_count, total_cents, created_at, updated_at) VALUES (2, 'reprocess', 'R', 'R [pb:2]', 'started', 1, 1001, 'x', 'x')").run();
    raw.prepare(
      `INSERT INTO items (batch_id, identifier, key, key_type, amount_cents, description, status, attempt, original_item_id, created_at, updated_at, status_changed_at)
       VALUES (2, 'retry-1', 'p1@example.com', 'email', 1001, 'row 1', 'paid', 2, 1, 'x', 'x', 'x')`,
    ).run();
    raw.prepare('UPDATE batches SET total_cents = total_cents + 1 WHERE id = 1').run();

    const c = await checkLedger(ledger);
    expect(c.clean).toBe(false);
    expect(c.openCalls).toEqual([
      { id: first, operation: 'create_batch', subject: 'batch:1', createdAt: now.toISOString(), settledByRetry: true },
      { id: lost, operation: 'add_items', subject: 'batch:1', createdAt: now.toISOString(), settledByRetry: false },
    ]);
    expect(c.strayCalls).toEqual([
      { id: twice, operation: 'start_batch', subject: 'batch:1', problem: '2 outcomes for one intent' },
      { id: expect.any(Number), operation: 'pay_bill', subject: 'bill:9', problem: 'an outcome without its intent' },
    ]);
    expect(c.paidTwice).toEqual([{ originalItemId: 1, identifiers: [plannedItem(1).identifier, 'retry-1'], batchIds: [1, 2] }]);
    expect(c.batchMismatches).toEqual([{ batchId: 1, name: 'Folha', itemCount: 3, items: 3, totalCents: 1001 + 1002 + 1003 + 1, itemsTotalCents: 1001 + 1002 + 1003 }]);
    await ledger.close();
  });

  it('reports a remote batch left stray at the provider, and a batch the provider refused three times in a row', async () => {
    const { ledger } = await ledgerWithStartedBatch(tempDir(), 1, now);
    const raw = sqliteOf(ledger);
    raw.prepare(`INSERT INTO batches (id, kind, name, remote_name, remote_id, status, item_count, total_cents, created_at, updated_at, start_requested)
       VALUES (2, 'sheet', 'Folha 2', '[pb:2] Folha 2', 'remote-2', 'submitted', 0, 0, 'x', 'x', 1)`).run();
    await recordStrayBatch(ledger, 2, 'remote-9', now);
    await settleStrayBatch(ledger, 1, { keptBecause: 'it holds 1 item(s)' });
    const refuse = async () => logOutcome(ledger, await logIntent(ledger, 'start_batch', 'batch:2', {}, now), 'error', { status: 422, message: 'batch_empty' }, now);
    await refuse();
    await logOutcome(ledger, await logIntent(ledger, 'start_batch', 'batch:2', {}, now), 'unknown', { message: 'timed out' }, now);
    await refuse();
    // Two refusals: still tried by the daemon; an unknown outcome between them does not reset the count.
    expect(await checkLedger(ledger)).toMatchObject({ refusedBatches: [] });
    await refuse();
    const c = await checkLedger(ledger);
    expect(c).toMatchObject({ clean: false, strayBatches: [{ batchId: 2, remoteId: 'remote-9', reason: 'it holds 1 item(s)', foundAt: now.toISOString() }], refusedBatches: [2] });
    // A start that went through (a person ran `batch start`) ends the refusals.
    await logOutcome(ledger, await logIntent(ledger, 'start_batch', 'batch:2', {}, now), 'ok', {}, now);
    expect((await checkLedger(ledger)).refusedBatches).toEqual([]);
    await ledger.close();
  });

  it('counts an open call settled by a later successful retry as nothing to do', async () => {
    const { ledger } = await ledgerWithStartedBatch(tempDir(), 1, now);
    await logIntent(ledger, 'start_batch', 'batch:1', {}, now);
    await logOutcome(ledger, await logIntent(ledger, 'start_batch', 'batch:1', {}, now), 'ok', {}, now);
    expect(await checkLedger(ledger)).toMatchObject({ clean: true, openCalls: [{ settledByRetry: true }] });
    await ledger.close();
  });

  it('paybatch ledger check: exit 0 and a table when clean, 4 and the findings (human and --json) when not', async () => {
    const dir = tempDir();
    const file = join(dir, 'ledger.db');
    const { ledger } = await ledgerWithStartedBatch(dir, 2, now);
    await ledger.close();
    const clean = await runCli(['ledger', 'check', '--ledger', file]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toBe(
      [
        `Ledger ${file}`,
        'check\tresult',
        'integrity (SQLite)\tok',
        'provider calls\t0 calls; 0 without outcome; 0 unpaired',
        'paid twice\tnone',
        'batch totals\t1 batch; all match their items',
        'remote batches\tno stray batch; none refused',
        '✓ Nothing needs attention.',
        '',
      ].join('\n'),
    );
    const again = await openLedger(file);
    await logIntent(again, 'add_items', 'batch:1', {}, now);
    await again.close();
    const human = await runCli(['ledger', 'check', '--ledger', file]);
    expect(human.code).toBe(4);
    expect(human.stdout).toContain('provider calls\t1 call; 1 without outcome; 0 unpaired');
    expect(human.stdout).toContain('Calls without outcome (the provider may or may not have acted on them):\ncall\toperation\tsubject\tsent at\tsettled by a retry\n1\tadd_items\tbatch:1');
    const json = await runCli(['ledger', 'check', '--ledger', file, '--json']);
    expect(json.code).toBe(4);
    expect(JSON.parse(json.stdout)).toMatchObject({ file, clean: false, integrity: [], openCalls: [{ id: 1, operation: 'add_items', settledByRetry: false }] });
  });

  it('paybatch ledger check and backup refuse a ledger that does not exist, creating nothing', async () => {
    const file = join(tempDir(), 'none.db');
    for (const cmd of ['check', 'backup']) {
      const r = await runCli(['ledger', cmd, '--ledger', file]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`error: There is no ledger at ${file}.`);
    }
  });
});

describe('an import in progress', () => {
  it('is claimed by one run; another run is told who holds it and since when, and a dead holder is replaced', async () => {
    const ledger = await openLedger(join(tempDir(), 'ledger.db'));
    const claim = await claimImport(ledger, { fileHash: 'h1', fileName: 'folha.csv', now });
    // The parent of this test process stands in for another live paybatch.
    await expect(claimImport(ledger, { fileHash: 'h1', fileName: 'folha.csv', now }, process.ppid)).rejects.toThrow(
      `folha.csv is being imported right now by another paybatch run (pid ${process.pid} on `,
    );
    await recordImport(ledger, { fileHash: 'h1', fileName: 'folha.csv', rowCount: 1, batchName: 'A', itemCount: 1, items: [plannedItem(1)], rejectedCount: 0, now });
    await expect(claimImport(ledger, { fileHash: 'h1', fileName: 'folha.csv', now }, process.ppid)).rejects.toThrow(/since 2026-11-20T12:00:00.000Z; import #1, batch #1\); this run changed nothing\.$/);
    // Another sheet is not held up.
    await (await claimImport(ledger, { fileHash: 'h2', fileName: 'outra.csv', now }, process.ppid)).release();
    await claim.release();
    await (await claimImport(ledger, { fileHash: 'h1', fileName: 'folha.csv', now }, process.ppid)).release();
    // A holder whose process is gone (killed mid-import) does not block the next run.
    sqliteOf(ledger).prepare("INSERT INTO import_claims VALUES ('h3', 'x.csv', 2147483646, ?, ?)").run((await import('node:os')).hostname(), now.toISOString());
    await (await claimImport(ledger, { fileHash: 'h3', fileName: 'x.csv', now })).release();
    expect(sqliteOf(ledger).prepare('SELECT file_hash FROM import_claims ORDER BY file_hash').pluck().all()).toEqual([]);
    await ledger.close();
  });
});
