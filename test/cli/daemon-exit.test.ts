import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { insertBillIntent, updateBill } from '../../src/ledger/bill-repository.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { useCliOnSandbox } from '../helpers/cli-on-sandbox.js';

const setUp = useCliOnSandbox();
const NOW = '2026-11-20T10:00:00-03:00';

describe('paybatch daemon --until-settled exits 4 while a payment outcome is unknown', () => {
  it('a bill whose answer was lost: exit 4 at once (no waiting), exit 0 once it is known to be paid', async () => {
    const { run, dir } = await setUp(NOW);
    expect((await run(['batch', 'list'])).code).toBe(0);
    const ledger = await openLedger(join(dir, 'ledger.db'));
    const at = new Date(NOW);
    const id = await insertBillIntent(ledger, {
      barcode: '83690000000459900', line: '83690000000459900', kind: 'collection', description: 'luz', beneficiary: null, beneficiaryDocument: null, assignor: null,
      dueDate: null, amountCents: 45_990, forced: false,
    }, at);
    await updateBill(ledger, id, { status: 'unknown' }, at);

    const daemon = ['daemon', '--until-settled', '--interval', '0.1', '--timeout', '60s', '--json'];
    const unknown = await run(daemon);
    expect(unknown.code, unknown.stderr).toBe(4);
    const doc = JSON.parse(unknown.stdout) as { passes: number; timedOut: boolean; last: { unknownBills: number; openAlerts: number; errors: unknown[] } };
    expect(doc).toMatchObject({ passes: 1, timedOut: false, last: { unknownBills: 1, openAlerts: 0, errors: [] } });

    // Paid, and inside its return window: paid, not unknown.
    await updateBill(ledger, id, { status: 'paid', transaction_id: 'tx-1', settle_date: '2026-11-20' }, at);
    await ledger.close();
    const paid = await run(daemon);
    expect(paid.code, paid.stderr).toBe(0);
    expect(JSON.parse(paid.stdout)).toMatchObject({ passes: 1, last: { unknownBills: 0 } });
  });
});
