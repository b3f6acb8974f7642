import { afterEach, describe, expect, it } from 'vitest';
import { BillsRefusedError, commitBillPayment, prepareBillPayment } from '../../src/engine/bills/pay-bill.js';
import { insertBillIntent, listBills, updateBill } from '../../src/ledger/bill-repository.js';
import { openLedger, type Ledger } from '../../src/ledger/open-ledger.js';
import { billDocumentWriter } from '../../src/receipts/bill-receipt.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { bankLine, detailsFor, FakeProvider } from './fixtures.js';

const tempDir = useTempDir();
const ledgers: Ledger[] = [];
afterEach(async () => {
  for (const l of ledgers.splice(0)) await l.close();
});

const MONDAY = new Date('2025-03-10T10:00:00-03:00');
const ALL = ['intent', 'paid', 'scheduled', 'unknown', 'failed', 'returned'] as const;
const line = bankLine({ amountCents: 15_990 });

async function setUp() {
  const ledger = await openLedger(':memory:');
  ledgers.push(ledger);
  const provider = new FakeProvider((code) => detailsFor(code, 15_990));
  const deps = { ledger, provider: async () => provider, now: () => MONDAY, documents: billDocumentWriter({ receiptsDir: tempDir(), locale: 'en', sandbox: false }) };
  return { ledger, provider, deps };
}

async function writtenRows(ledger: Ledger) {
  return {
    bills: (await listBills(ledger, ALL)).length,
    calls: (await ledger.all(ledger.db.selectFrom('provider_calls').selectAll())).length,
  };
}

describe('paying bills: the plan, then the payment', () => {
  it('prepare asks only for the details and writes nothing; commit pays what the plan shows', async () => {
    const { ledger, provider, deps } = await setUp();
    const prepared = await prepareBillPayment(deps, { requests: [{ code: line, description: 'aluguel' }], force: false });
    if (prepared.kind !== 'plan') throw new Error('expected a plan');
    expect(prepared.plan.bills.map((b) => ({ line: b.decoded.line, amountCents: b.amountCents, description: b.description, beneficiary: b.details.beneficiary }))).toEqual([
      { line, amountCents: 15_990, description: 'aluguel', beneficiary: 'Silva Comércio Ltda' },
    ]);
    expect(prepared.plan.skipped).toEqual([]);
    expect(provider.calls).toEqual([{ op: 'details', code: line }]);
    expect(await writtenRows(ledger)).toEqual({ bills: 0, calls: 0 });

    const result = await commitBillPayment(deps, prepared.plan);
    expect(provider.calls.map((c) => c.op)).toEqual(['details', 'pay']);
    expect(result.outcomes.map((o) => [o.status, o.row.amount_cents])).toEqual([['paid', 15_990]]);
    expect(await writtenRows(ledger)).toEqual({ bills: 1, calls: 2 });
  });

  it('a bill another run paid between the plan and the commit is refused, not paid twice', async () => {
    const { ledger, provider, deps } = await setUp();
    const prepared = await prepareBillPayment(deps, { requests: [{ code: line }], force: false });
    if (prepared.kind !== 'plan') throw new Error('expected a plan');
    // Another run's payment of the same bill, written while this one waited for its confirmation.
    const { barcode } = prepared.plan.bills[0]!.decoded;
    const id = await insertBillIntent(ledger, { barcode, line, kind: 'bank', description: null, beneficiary: null, beneficiaryDocument: null, assignor: null, dueDate: null, amountCents: 15_990, forced: false }, MONDAY);
    await updateBill(ledger, id, { status: 'paid', transaction_id: 'tx-other-run' }, MONDAY);

    const e = await commitBillPayment(deps, prepared.plan).then(() => null, (x: unknown) => x);
    expect(e).toBeInstanceOf(BillsRefusedError);
    expect(e).toMatchObject({ stage: 'paying', refused: [{ reasons: [{ code: 'already_paid_in_ledger', billId: id, status: 'paid', transactionId: 'tx-other-run' }] }] });
    expect(provider.calls.map((c) => c.op)).toEqual(['details']);
    expect((await listBills(ledger, ALL)).map((b) => [b.id, b.status])).toEqual([[id, 'paid']]);
  });

  it('nothing left to pay (every row of a list paid already) is done at once, nothing to confirm', async () => {
    const { ledger, provider, deps } = await setUp();
    const first = await prepareBillPayment(deps, { requests: [{ code: line, file: 'contas.csv', line: 2 }], force: false, skipPaid: true });
    if (first.kind !== 'plan') throw new Error('expected a plan');
    await commitBillPayment(deps, first.plan);
    const again = await prepareBillPayment(deps, { requests: [{ code: line, file: 'contas.csv', line: 2 }], force: false, skipPaid: true });
    expect(again.kind).toBe('done');
    if (again.kind !== 'done') return;
    expect(again.result.outcomes).toEqual([]);
    expect(again.result.skipped.map((k) => [k.request.line, k.paidBy.status])).toEqual([[2, 'paid']]);
    expect(provider.calls.map((c) => c.op)).toEqual(['details', 'pay']);
    expect(await writtenRows(ledger)).toEqual({ bills: 1, calls: 2 });
  });
});
