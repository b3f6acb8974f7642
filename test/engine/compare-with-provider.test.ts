import { describe, expect, it } from 'vitest';
import { compareWithProvider } from '../../src/engine/follow-up/compare-with-provider.js';
import { getBatch } from '../../src/ledger/batch-repository.js';
import { sqliteOf } from '../../src/ledger/open-ledger.js';
import type { Item } from '../../src/provider/types.js';
import { destination, ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const t0 = new Date('2026-11-20T12:00:00Z');

/** The fixture's items are of 1000 + n centavos, n the end of their identifier. */
const page = (identifier: string, status: string, state: Item['state'], extra: Partial<Item> = {}): Item => ({
  itemId: `it-${identifier}`, status, state, description: '', amountCents: 1000 + Number(identifier.slice(-12)), identifier, to: destination, ...extra,
});

describe('paybatch reconcile: the ledger against the provider\'s record, item by item', () => {
  it('finds every kind of difference, tallies both sides by state, then follows the record; a second run finds only what cannot be followed', async () => {
    const { ledger, batchId, identifiers } = await ledgerWithStartedBatch(tempDir(), 4, t0);
    const [a, b, c, d] = identifiers as [string, string, string, string];
    const set = (sql: string, id: string) => sqliteOf(ledger).prepare(`UPDATE items SET ${sql}, status_changed_at = '2026-11-20T11:00:00.000Z' WHERE identifier = ?`).run(id);
    set("status = 'paid', pix_id = 'PA', end_to_end_id = 'EA'", a);
    set("status = 'failed', reason = 'AB09'", b); // a false claim: the record shows it paid
    set("status = 'paid', pix_id = 'PC'", c);
    const pages = [
      [page(a, 'paid', 'paid', { pixId: 'PA', endToEndId: 'EA' }), page(b, 'LIQUIDATED', 'paid', { pixId: 'PB' })],
      [page(c, 'paid', 'paid', { pixId: 'PC-other', amountCents: 99_999 }), page('stranger-1', 'paid', 'paid', { amountCents: 500 })],
      // d: not in the pages at all
    ];
    const provider = { dialect: { instabilityWords: [] as string[] }, async *items() { for (const p of pages) yield p; } };
    const deps = { ledger, provider: provider as never, now: () => t0 };

    const [first] = await compareWithProvider(deps, [await getBatch(ledger, batchId)]);
    expect(first!.differences.map((x) => [x.identifier, x.field, x.ledger, x.provider])).toEqual([
      [b, 'status', 'failed', 'paid'],
      [c, 'amount', 1003, 99_999],
      [c, 'pixId', 'PC', 'PC-other'],
      [d, 'presence', 'submitted', null],
      ['stranger-1', 'presence', null, 'paid'],
    ]);
    expect(first!.ledger).toEqual({ paid: { count: 2, cents: 1001 + 1003 }, failed: { count: 1, cents: 1002 }, submitted: { count: 1, cents: 1004 } });
    expect(first!.provider).toEqual({ paid: { count: 4, cents: 1001 + 1002 + 99_999 + 500 } });
    expect(first!.followed).toBeGreaterThan(0);
    expect(sqliteOf(ledger).prepare('SELECT status FROM items WHERE identifier = ?').get(b)).toEqual({ status: 'paid' });

    const [second] = await compareWithProvider(deps, [await getBatch(ledger, batchId)]);
    // The state and the Pix id were followed; an amount and the items only one side holds cannot be.
    expect(second!.differences.map((x) => [x.identifier, x.field])).toEqual([
      [c, 'amount'],
      [d, 'presence'],
      ['stranger-1', 'presence'],
    ]);
    await ledger.close();
  });
});
