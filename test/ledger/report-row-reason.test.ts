import { afterEach, describe, expect, it } from 'vitest';
import { returnedBillsToReport } from '../../src/ledger/attention-store.js';
import { insertBillIntent, updateBill } from '../../src/ledger/bill-repository.js';
import { openLedger, type Ledger } from '../../src/ledger/open-ledger.js';

const ledgers: Ledger[] = [];
afterEach(async () => {
  for (const l of ledgers.splice(0)) await l.close();
});

const AT = new Date('2025-03-12T13:00:00.000Z');

async function returnedBill(ledger: Ledger, line: string, reason: string | null, meaning: string | null): Promise<number> {
  const id = await insertBillIntent(ledger, { barcode: `b${line}`, line, kind: 'bank', description: null, beneficiary: 'Silva', beneficiaryDocument: null, assignor: null, dueDate: null, amountCents: 15_990, forced: false }, AT);
  await updateBill(ledger, id, { status: 'returned', return_reason: reason, return_meaning: meaning, returned_at: AT.toISOString() }, AT);
  return id;
}

describe("a report row of a bill's return", () => {
  it('carries the status, the provider reason and the recorded meaning apart, nulls as the ledger has them', async () => {
    const ledger = await openLedger(':memory:');
    ledgers.push(ledger);
    await returnedBill(ledger, '111', '23 - bill cannot be received because it is settled', 'bill already paid');
    await returnedBill(ledger, '222', null, null);
    const rows = await returnedBillsToReport(ledger);
    expect(rows.map((r) => [r.key, r.status, r.reason, r.returnMeaning])).toEqual([
      ['111', 'returned', '23 - bill cannot be received because it is settled', 'bill already paid'],
      ['222', 'returned', null, null],
    ]);
  });
});
