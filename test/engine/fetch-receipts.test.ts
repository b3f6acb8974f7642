import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fetchReceipts } from '../../src/engine/follow-up/fetch-receipts.js';
import { News } from '../../src/engine/follow-up/news.js';
import { recordWebhookEvent } from '../../src/engine/webhooks/apply-event.js';
import type { WebhookEvent } from '../../src/domain/webhook-event.js';
import { ProviderError } from '../../src/errors.js';
import type { ItemRow } from '../../src/ledger/item-repository.js';
import { sqliteOf, type Ledger } from '../../src/ledger/open-ledger.js';
import { recordReprocessBatch } from '../../src/ledger/reprocess-store.js';
import { countingTransactions } from '../helpers/counting-ledger.js';
import { ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const at = new Date('2026-11-20T12:00:00Z');

const pdfOf = (pixId: string) => Buffer.from(`%PDF-1.4\n% receipt of ${pixId}\n%%EOF\n`, 'latin1');

/** A provider whose receipts are PDFs naming their pix id; the ones listed in `broken` are not PDFs. */
function provider(broken: readonly string[] = []) {
  const asked: string[] = [];
  return {
    asked,
    receipt: async (pixId: string) => {
      asked.push(pixId);
      await new Promise((r) => setImmediate(r));
      return { pdf: broken.includes(pixId) ? Buffer.from('not a pdf') : pdfOf(pixId), name: 'r.pdf', description: '' };
    },
  };
}

async function paidLedger(dir: string, n: number): Promise<Ledger> {
  const { ledger } = await ledgerWithStartedBatch(dir, n, at);
  sqliteOf(ledger).prepare("UPDATE items SET status = 'paid', pix_id = 'pix-' || id, end_to_end_id = 'E2E' || id").run();
  return ledger;
}

const pathsOf = (ledger: Ledger) => sqliteOf(ledger).prepare('SELECT id, receipt_path AS path FROM items ORDER BY id').all() as { id: number; path: string | null }[];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

describe('fetching receipts', () => {
  it('takes items paid while it runs (events applied meanwhile), each receipt asked once, a failing one too', async () => {
    const dir = tempDir();
    const { ledger } = await ledgerWithStartedBatch(dir, 6, at);
    const pay = sqliteOf(ledger).prepare("UPDATE items SET status = 'paid', pix_id = 'pix-' || id WHERE id = ?");
    pay.run(1);
    pay.run(2);
    const base = provider(['pix-5']);
    // While the first receipts are fetched, events pay items 4 and 5; item 3 and 6 stay unpaid.
    const during = {
      receipt: async (pixId: string) => {
        if (pixId === 'pix-1') for (const id of [4, 5]) pay.run(id);
        return base.receipt(pixId);
      },
    };
    const result = await fetchReceipts({ ledger, provider: during, receiptsDir: join(dir, 'receipts'), now: () => at });
    expect(base.asked.sort()).toEqual(['pix-1', 'pix-2', 'pix-4', 'pix-5']);
    expect(result.saved).toHaveLength(3);
    expect(result.failed).toHaveLength(1);
    expect(pathsOf(ledger).filter((r) => r.path !== null).map((r) => r.id)).toEqual([1, 2, 4]);
  });

  it('with news of payments to come, waits for them instead of stopping, and stops once they end with nothing due', async () => {
    const dir = tempDir();
    const { ledger } = await ledgerWithStartedBatch(dir, 4, at);
    const pay = sqliteOf(ledger).prepare("UPDATE items SET status = 'paid', pix_id = 'pix-' || id WHERE id = ?");
    pay.run(1);
    const base = provider();
    // Counts the waits: each of the four workers waits once it finds nothing due.
    const news = new (class extends News {
      waits = 0;
      override since(count: number, until: Promise<unknown>) {
        this.waits += 1;
        return super.since(count, until);
      }
    })();
    const turn = () => new Promise((r) => setImmediate(r));
    let end!: () => void;
    const until = new Promise<void>((resolve) => (end = resolve));
    let finished = false;
    const run = fetchReceipts({ ledger, provider: base, receiptsDir: join(dir, 'receipts'), now: () => at }, { more: { news, until } }).finally(() => (finished = true));
    // Item 1 is fetched, then the workers wait: nothing else is due and the payments are not done.
    while (news.waits < 4) await turn();
    expect(base.asked).toEqual(['pix-1']);
    expect(finished).toBe(false);
    // A page pays items 2 and 3 and says so: both are fetched before the payments' side ends.
    pay.run(2);
    pay.run(3);
    news.tell();
    while (news.waits < 8) await turn();
    expect(finished).toBe(false);
    expect(base.asked.sort()).toEqual(['pix-1', 'pix-2', 'pix-3']);
    // The last page pays item 4 and the payments' side ends at once: one more asking takes it.
    pay.run(4);
    news.tell();
    end();
    const result = await run;
    expect(base.asked.sort()).toEqual(['pix-1', 'pix-2', 'pix-3', 'pix-4']);
    expect(result.saved).toHaveLength(4);
    expect(pathsOf(ledger).filter((r) => r.path !== null).map((r) => r.id)).toEqual([1, 2, 3, 4]);
  });

  it('claiming a page at a time (a shared ledger), gets past the items it failed on: they do not hold the head of the queue', async () => {
    const dir = tempDir();
    const ledger = await paidLedger(dir, 130);
    // The first 100 by id (two claims' worth) are not PDFs: each is tried once, and the 30 after them are saved.
    const broken = Array.from({ length: 100 }, (_, i) => `pix-${i + 1}`);
    const base = provider(broken);
    const result = await fetchReceipts({ ledger, provider: base, receiptsDir: join(dir, 'receipts'), now: () => at }, { claimAs: 'daemon-a' });
    expect(base.asked.length).toBe(130);
    expect(new Set(base.asked).size).toBe(130);
    expect(result.failed).toHaveLength(100);
    expect(pathsOf(ledger).filter((r) => r.path !== null).map((r) => r.id)).toEqual(Array.from({ length: 30 }, (_, i) => i + 101));
  });

  it('saves every receipt and records its path, in chunks of many per commit', async () => {
    const dir = tempDir();
    const ledger = await paidLedger(dir, 250);
    const receiptsDir = join(dir, 'receipts');
    let commits = 0;
    const counted = countingTransactions(ledger, (nested) => {
      if (!nested) commits++;
    });
    const result = await fetchReceipts({ ledger: counted, provider: provider(['pix-7']), receiptsDir, now: () => at });
    expect(result.saved).toHaveLength(249);
    expect(result.failed).toEqual([{ identifier: expect.any(String), error: 'the receipt is not a complete PDF' }]);
    expect(commits).toBe(3); // 100 + 100 + 49
    const rows = pathsOf(ledger);
    expect(rows.filter((r) => r.path === null).map((r) => r.id)).toEqual([7]);
    for (const r of rows.filter((x) => x.path !== null)) expect(readFileSync(r.path!)).toEqual(pdfOf(`pix-${r.id}`));
    expect(filesUnder(receiptsDir)).toEqual(rows.filter((r) => r.path !== null).map((r) => r.path).sort());
    await ledger.close();
  });

  it('fetches again a receipt written but never recorded (a crash in between), writing over the same file', async () => {
    const dir = tempDir();
    const ledger = await paidLedger(dir, 3);
    const receiptsDir = join(dir, 'receipts');
    await fetchReceipts({ ledger, provider: provider(), receiptsDir, now: () => at });
    const before = pathsOf(ledger);
    const files = filesUnder(receiptsDir);
    // The files are on disk, their paths lost: as after a kill between the write and the commit.
    sqliteOf(ledger).prepare('UPDATE items SET receipt_path = NULL WHERE id > 1').run();
    const again = provider();
    const result = await fetchReceipts({ ledger, provider: again, receiptsDir, now: () => at });
    expect(again.asked.sort()).toEqual(['pix-2', 'pix-3']);
    expect([...result.saved].sort()).toEqual(before.slice(1).map((r) => r.path).sort());
    expect(pathsOf(ledger)).toEqual(before);
    expect(filesUnder(receiptsDir)).toEqual(files); // the same files, nothing left over
    for (const r of before) expect(readFileSync(r.path!)).toEqual(pdfOf(`pix-${r.id}`));
    await ledger.close();
  });

  it("writes a new attempt's receipt into the sheet's batch folder, not the reprocess batch's", async () => {
    const dir = tempDir();
    const ledger = await paidLedger(dir, 2);
    const raw = sqliteOf(ledger);
    // Item 2 was returned for instability and paid again as attempt 2 in batch "Reprocess 2026-11-20".
    raw.prepare("UPDATE items SET status = 'returned', return_action = 'reprocess' WHERE id = 2").run();
    const item2 = raw.prepare('SELECT * FROM items WHERE id = 2').get() as ItemRow;
    const reprocessBatch = await ledger.transaction(async (tx) =>
      recordReprocessBatch(tx, { name: 'Reprocess 2026-11-20', attempts: [{ from: item2, rootId: 2, identifier: 'attempt-2', attempt: 2 }], at }),
    );
    raw.prepare("UPDATE items SET status = 'paid', pix_id = 'pix-again', end_to_end_id = 'E2Eagain' WHERE identifier = 'attempt-2'").run();
    const receiptsDir = join(dir, 'receipts');
    await fetchReceipts({ ledger, provider: provider(), receiptsDir, now: () => at });
    // The sheet's batch is "Folha", #1.
    const folder = join(receiptsDir, 'Folha-1');
    const attempt = raw.prepare("SELECT receipt_path FROM items WHERE identifier = 'attempt-2'").pluck().get() as string;
    expect(attempt.startsWith(`${folder}/`)).toBe(true);
    expect(attempt).toMatch(/-E2Eagain\.pdf$/);
    expect(filesUnder(receiptsDir).every((f) => f.startsWith(`${folder}/`))).toBe(true);
    expect(filesUnder(receiptsDir)).toHaveLength(3);
    // `--batch` of the reprocess batch still fetches its items' receipts (into the sheet's folder).
    const again = await fetchReceipts({ ledger, provider: provider(), receiptsDir, now: () => at }, { batchId: reprocessBatch, again: true });
    expect(again.saved).toEqual([attempt]);
    await ledger.close();
  });

  it('records what was written before an unexpected error stops the run', async () => {
    const dir = tempDir();
    const ledger = await paidLedger(dir, 10);
    const receiptsDir = join(dir, 'receipts');
    // The last receipt fails once the nine others have been handed over (an event, not a moment of the clock).
    let served = 0;
    let allServed!: () => void;
    const othersServed = new Promise<void>((r) => (allServed = r));
    const failing = {
      receipt: async (pixId: string) => {
        if (pixId === 'pix-10') {
          await othersServed;
          throw new Error('socket hang up');
        }
        if (++served === 9) allServed();
        return { pdf: pdfOf(pixId), name: 'r.pdf', description: '' };
      },
    };
    await expect(fetchReceipts({ ledger, provider: failing, receiptsDir, now: () => at })).rejects.toThrow('socket hang up');
    const recorded = pathsOf(ledger).filter((r) => r.path !== null);
    expect(recorded.map((r) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await ledger.close();
  });
});

describe('a Pix id is a claim until the receipt endpoint has a receipt for it', () => {
  const event = (identifier: string, eventId: string, pixId: string, endToEndId: string): WebhookEvent => ({
    kind: 'pix', eventId, pixId, identifier, amountCents: 1001, endToEndId, isRefund: false, accepted: true, transactionStatus: 'approved', reason: null, timestamp: null, raw: {},
  });
  const real = {
    receipt: async (pixId: string) => {
      if (pixId !== 'REAL') throw new ProviderError('GET /pix/x/receipt failed with HTTP 404', { status: 404, method: 'GET', path: `/pix/${pixId}/receipt`, code: null, body: null });
      return { pdf: pdfOf(pixId), name: 'r.pdf', description: '' };
    },
  };
  const quarantined = (ledger: Ledger) => sqliteOf(ledger).prepare('SELECT event_id FROM webhook_events WHERE quarantine IS NOT NULL ORDER BY event_id').pluck().all();

  it('a false event came first: its id has no receipt, the other event\'s has; the item takes it and the false event is quarantined', async () => {
    const dir = tempDir();
    const { ledger, identifiers } = await ledgerWithStartedBatch(dir, 1, at);
    const id = identifiers[0]!;
    await recordWebhookEvent(ledger, event(id, 'lie', 'FORGED', 'E-FORGED'), { deliveryId: null, receivedAt: at });
    const first = await fetchReceipts({ ledger, provider: real, receiptsDir: join(dir, 'receipts'), now: () => at });
    expect(first.failed.map((f) => f.error)).toEqual(['GET /pix/x/receipt failed with HTTP 404']);

    await recordWebhookEvent(ledger, event(id, 'truth', 'REAL', 'E-REAL'), { deliveryId: null, receivedAt: at });
    const second = await fetchReceipts({ ledger, provider: real, receiptsDir: join(dir, 'receipts'), now: () => at });
    expect(second.saved).toHaveLength(1);
    expect(sqliteOf(ledger).prepare('SELECT pix_id, end_to_end_id FROM items').get()).toEqual({ pix_id: 'REAL', end_to_end_id: 'E-REAL' });
    expect(readFileSync(second.saved[0]!, 'latin1')).toContain('receipt of REAL');
    expect(quarantined(ledger)).toEqual(['lie']);
    expect(sqliteOf(ledger).prepare('SELECT count(*) FROM pix_id_claims').pluck().get()).toBe(0);
    await ledger.close();
  });

  it('the only id an event gave, still without a receipt receiptWait later, is set aside and its event quarantined', async () => {
    const dir = tempDir();
    const { ledger, identifiers } = await ledgerWithStartedBatch(dir, 1, at);
    await recordWebhookEvent(ledger, event(identifiers[0]!, 'lie', 'FORGED', 'E-FORGED'), { deliveryId: null, receivedAt: at });
    const fetch = (seconds: number) => fetchReceipts({ ledger, provider: real, receiptsDir: join(dir, 'receipts'), now: () => new Date(at.getTime() + seconds * 1000), receiptWait: 60 });
    expect((await fetch(30)).failed.map((f) => f.error)).toEqual(['GET /pix/x/receipt failed with HTTP 404']);
    expect(sqliteOf(ledger).prepare('SELECT pix_id FROM items').pluck().get()).toBe('FORGED');
    expect((await fetch(90)).failed.map((f) => f.error)).toEqual(['the provider has no receipt under the Pix id FORGED, which only an event gave this payment: that id is set aside']);
    expect(sqliteOf(ledger).prepare('SELECT pix_id, end_to_end_id FROM items').get()).toEqual({ pix_id: null, end_to_end_id: null });
    expect(quarantined(ledger)).toEqual(['lie']);
    // Nothing left to ask for under a false id; the receipts-unavailable alert names the payment instead.
    expect((await fetch(120)).failed).toEqual([]);
    await ledger.close();
  });

  it('a false event came after the true one: the receipt is fetched under the true id and the false event is quarantined', async () => {
    const dir = tempDir();
    const { ledger, identifiers } = await ledgerWithStartedBatch(dir, 1, at);
    const id = identifiers[0]!;
    await recordWebhookEvent(ledger, event(id, 'truth', 'REAL', 'E-REAL'), { deliveryId: null, receivedAt: at });
    await recordWebhookEvent(ledger, event(id, 'lie', 'FORGED', 'E-FORGED'), { deliveryId: null, receivedAt: at });
    const result = await fetchReceipts({ ledger, provider: real, receiptsDir: join(dir, 'receipts'), now: () => at });
    expect(result.saved).toHaveLength(1);
    expect(sqliteOf(ledger).prepare('SELECT pix_id, end_to_end_id FROM items').get()).toEqual({ pix_id: 'REAL', end_to_end_id: 'E-REAL' });
    expect(quarantined(ledger)).toEqual(['lie']);
    await ledger.close();
  });
});
