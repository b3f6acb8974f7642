import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../src/domain/webhook-event.js';
import { recordWebhookEvent } from '../../src/engine/webhooks/apply-event.js';
import { reconcileBatch } from '../../src/engine/follow-up/reconcile.js';
import { sqliteOf, type Ledger } from '../../src/ledger/open-ledger.js';
import type { Item } from '../../src/provider/types.js';
import { destination, ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const t0 = new Date('2026-11-20T12:00:00Z');
const after = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

/** The fixture's first item as the provider's item page shows it. */
function remote(identifier: string, status: 'paid' | 'returned'): Item {
  return { itemId: 'it-1', status, state: status, description: 'row 1', amountCents: 1001, identifier, to: destination, pixId: 'pix-paid', endToEndId: 'E2Epaid', ...(status === 'returned' ? { reason: 'AB03 - timeout' } : {}) };
}

function refund(identifier: string): WebhookEvent {
  return { kind: 'pix', eventId: 'refund-1', pixId: 'pix-refund', amountCents: 1001, endToEndId: 'E2Erefund', isRefund: true, accepted: true, transactionStatus: 'approved', reason: 'AB03 - timeout', timestamp: null, raw: {}, identifier };
}

const stateOf = (ledger: Ledger, identifier: string) =>
  sqliteOf(ledger).prepare('SELECT status, return_action, return_confirmed_at IS NOT NULL AS confirmed FROM items WHERE identifier = ?').get(identifier);
const quarantined = (ledger: Ledger) => sqliteOf(ledger).prepare('SELECT event_id FROM webhook_events WHERE quarantine IS NOT NULL').pluck().all();

describe('reconciling from item pages while events arrive (the receiver of this or another daemon)', () => {
  it('a refund event stored after the page was asked for is newer than the page: kept, then confirmed by a later page', async () => {
    const { ledger, batchId, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, t0);
    const id = identifiers[0]!;
    sqliteOf(ledger).prepare("UPDATE items SET status = 'paid', pix_id = 'pix-paid'").run();
    // The page is asked for at t0+10 and shows the payment paid; the refund reaches the ledger at t0+11, before the
    // page is applied.
    const provider = {
      async *items() {
        await recordWebhookEvent(ledger, refund(id), { deliveryId: null, receivedAt: after(11) });
        yield [remote(id, 'paid')];
      },
    };
    await reconcileBatch({ ledger, provider, now: () => after(10) }, batchId);
    expect(stateOf(ledger, id)).toEqual({ status: 'returned', return_action: 'reprocess', confirmed: 0 });
    expect(quarantined(ledger)).toEqual([]);

    // The next pass's page shows the return: confirmed, so it may be paid again.
    const later = { async *items() { yield [remote(id, 'returned')]; } };
    await reconcileBatch({ ledger, provider: later, now: () => after(20) }, batchId);
    expect(stateOf(ledger, id)).toEqual({ status: 'returned', return_action: 'reprocess', confirmed: 1 });
    await ledger.close();
  });

  it('a refund event older than the page that shows the payment paid is set aside: the page wins', async () => {
    const { ledger, batchId, identifiers } = await ledgerWithStartedBatch(tempDir(), 1, t0);
    const id = identifiers[0]!;
    sqliteOf(ledger).prepare("UPDATE items SET status = 'paid', pix_id = 'pix-paid'").run();
    await recordWebhookEvent(ledger, refund(id), { deliveryId: null, receivedAt: after(5) });
    const provider = { async *items() { yield [remote(id, 'paid')]; } };
    await reconcileBatch({ ledger, provider, now: () => after(10) }, batchId);
    expect(stateOf(ledger, id)).toEqual({ status: 'paid', return_action: null, confirmed: 0 });
    expect(quarantined(ledger)).toEqual(['refund-1']);
    await ledger.close();
  });
});
