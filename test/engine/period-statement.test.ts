import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { periodStatement, rowStories } from '../../src/engine/reports/index.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { rowPaymentsOfBatch } from '../../src/ledger/row-payments.js';
import { month } from '../helpers/month-ledger.js';
import { usePostgresDatabases } from '../helpers/postgres.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const freshDatabase = usePostgresDatabases();
const NOVEMBER = { from: '2026-11-01', to: '2026-11-30' };

describe.each(['sqlite', 'postgres'] as const)('the statement of a period on the %s ledger', (dialect) => {
  const open = async () => openLedger(dialect === 'sqlite' ? join(tempDir(), 'ledger.db') : await freshDatabase());

  it('counts each row once, in the period its story ended, with totals that reconcile', async () => {
    const ledger = await open();
    try {
      await month(ledger);
      const s = await periodStatement(ledger, { ...NOVEMBER, profile: 'default', payer: { name: 'Acme', document: '12345678000195' }, account: null, eventReading: {}, now: new Date('2026-12-02T12:00:00Z') });
      // Row 3 was paid in October (São Paulo) and row 4's return happened in December: neither is November's.
      expect(s.payments.map((p) => [p.line, p.outcome, p.lineage.paidIn])).toEqual([
        [2, 'paid', 1],
        [3, 'paid', 2],
        [6, 'open', null],
        [7, 'paid', 3],
      ]);
      expect(s.totals.pix).toEqual({
        all: { count: 4, cents: 1001 + 1002 + 1005 + 1006 },
        paid: { count: 3, cents: 1001 + 1002 + 1006 },
        failed: { count: 0, cents: 0 },
        returned: { count: 0, cents: 0 },
        open: { count: 1, cents: 1005 },
      });
      const retried = s.payments.find((p) => p.line === 3)!;
      expect(retried.lineage.payments.map((p) => [p.batchId, p.kind, p.status])).toEqual([[1, 'sheet', 'failed'], [2, 'retry', 'paid']]);
      expect(retried).toMatchObject({ paidAt: '2026-11-05T15:00:00.000Z', reason: null });
      const reprocessed = s.payments.find((p) => p.line === 7)!;
      expect(reprocessed.lineage.payments.map((p) => [p.batchId, p.kind, p.status])).toEqual([[1, 'sheet', 'returned'], [3, 'reprocess', 'paid']]);
      expect(s.bills).toMatchObject([{ outcome: 'paid', amountCents: 45_070, paidCents: 45_070, originalCents: 45_990, discountCents: 920, interestCents: null, paidOn: '2026-11-10' }]);
      expect(s.totals.bills.paid).toEqual({ count: 1, cents: 45_070 });
      // The money: every payment that settled in November went out (row 4's too, returned later), row 6's return came back.
      expect(s.movements.map((m) => [m.id, m.direction, m.cents, m.at])).toEqual([
        ['pix-1-paid', 'debit', 1001, '2026-11-03T15:00:00.000Z'],
        ['pix-4-paid', 'debit', 1004, '2026-11-04T15:00:00.000Z'],
        ['pix-7-paid', 'debit', 1002, '2026-11-05T15:00:00.000Z'],
        ['pix-6-paid', 'debit', 1006, '2026-11-06T15:00:00.000Z'],
        ['pix-6-returned', 'credit', 1006, '2026-11-07T15:00:00.000Z'],
        ['pix-8-paid', 'debit', 1006, '2026-11-08T15:00:00.000Z'],
        ['bill-1-paid', 'debit', 45_070, '2026-11-10T15:00:00.000Z'],
      ]);
      // The latest by the provider's time (8 Nov 15:00), not the last received (the 5 Nov event, delivered after it).
      expect(s.balance).toEqual({ cents: 9_876_543, at: '2026-11-08T15:00:00.000Z' });
      expect(reprocessed.returnedAt).toBe('2026-11-07T15:00:00.000Z');
    } finally {
      await ledger.close();
    }
  });

  it("puts a return in the month it happened, and a payment in the month it settled in São Paulo", async () => {
    const ledger = await open();
    try {
      await month(ledger);
      const base = { profile: 'default', payer: { name: null, document: null }, account: null, eventReading: {}, now: new Date('2026-12-02T12:00:00Z') };
      const december = await periodStatement(ledger, { ...base, from: '2026-12-01', to: '2026-12-31' });
      expect(december.payments.map((p) => [p.line, p.outcome, p.paidAt, p.returnedAt, p.reason])).toEqual([
        [5, 'returned', '2026-11-04T15:00:00.000Z', '2026-12-01T15:00:00.000Z', 'MD06 - devolução a pedido do recebedor'],
      ]);
      expect(december.movements.map((m) => m.id)).toEqual(['pix-4-returned']);
      expect(december.balance).toBeNull();
      const october = await periodStatement(ledger, { ...base, from: '2026-10-01', to: '2026-10-31' });
      expect(october.payments.map((p) => [p.line, p.outcome])).toEqual([[4, 'paid']]);
    } finally {
      await ledger.close();
    }
  });

  it("reads a batch's rows with their stories wherever they were paid", async () => {
    const ledger = await open();
    try {
      await month(ledger);
      const stories = rowStories(await rowPaymentsOfBatch(ledger, 1));
      expect([...stories.values()].map((s) => [s.first.line, s.outcome, s.lineage.paidIn])).toEqual([
        [2, 'paid', 1], [3, 'paid', 2], [4, 'paid', 1], [5, 'returned', null], [6, 'open', null], [7, 'paid', 3],
      ]);
      // From the retry batch, the same row's story: its first payment in batch #1 is part of it.
      const fromRetry = rowStories(await rowPaymentsOfBatch(ledger, 2));
      expect([...fromRetry.values()].map((s) => s.lineage.payments.map((p) => p.batchId))).toEqual([[1, 2]]);
    } finally {
      await ledger.close();
    }
  });
});
