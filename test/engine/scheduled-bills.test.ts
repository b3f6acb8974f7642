import { afterEach, describe, expect, it } from 'vitest';
import type { Alert } from '../../src/alerts/alert.js';
import { bankBarcodeFromLine } from '../../src/domain/bank-slip.js';
import { decodeBoleto } from '../../src/domain/boleto.js';
import { billsByDay, payScheduledBills, recordBillSchedules } from '../../src/engine/bills/index.js';
import { remittanceBillsReturnFile } from '../../src/engine/reports/index.js';
import { claimBillSchedule } from '../../src/ledger/bill-schedule-store.js';
import { openLedger, type Ledger } from '../../src/ledger/open-ledger.js';
import { billDocumentWriter } from '../../src/receipts/bill-receipt.js';
import { readBillList, remittanceHash } from '../../src/sheet/bill-sheet.js';
import { saySheet } from '../../src/words/sheet.js';
import { bankLine, detailsFor, FakeProvider, httpError } from '../bills/fixtures.js';
import { remittanceText, type BillSpec } from '../helpers/cnab240-remittance.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const ledgers: Ledger[] = [];
afterEach(async () => {
  for (const l of ledgers.splice(0)) await l.close();
});

/** Monday 2025-03-10, 10:00 São Paulo; the bills are due Tuesday and Wednesday. */
const MONDAY = new Date('2025-03-10T10:00:00-03:00');
const TUESDAY = new Date('2025-03-11T10:00:00-03:00');
const WEDNESDAY = new Date('2025-03-12T10:00:00-03:00');
const lines = [12_345, 15_990].map((amountCents) => bankLine({ amountCents }));
const BILLS: BillSpec[] = [
  { yourNumber: 'BOL-1', name: 'CEDENTE 1', cents: 12_345, date: '2025-03-11', barcode: bankBarcodeFromLine(lines[0]!) },
  { yourNumber: 'BOL-2', name: 'CEDENTE 2', cents: 15_990, date: '2025-03-12', barcode: bankBarcodeFromLine(lines[1]!) },
];
const remittance = Buffer.from(remittanceText({
  company: '11222333000181', generatedOn: '2025-03-10', bills: BILLS,
  titles: [{ yourNumber: 'NF-1', name: 'MARIA', cents: 100, date: '2025-03-10', keyKind: '02', key: 'maria@exemplo.com.br' }],
}));
const amountOf = (code: string) => decodeBoleto(code, '2025-03-10').amountCents!;

async function setUp() {
  const ledger = await openLedger(':memory:');
  ledgers.push(ledger);
  let now = MONDAY;
  // The second bill is unknown to the provider on its day: the plan refuses it.
  const provider = new FakeProvider((code) => (code === lines[1] ? httpError(404, 'NOT_FOUND') : detailsFor(code, amountOf(code))));
  const alerts: Alert[] = [];
  const deps = {
    ledger, provider: async () => provider, now: () => now, documents: billDocumentWriter({ receiptsDir: tempDir(), locale: 'en', sandbox: false }),
    send: async (a: Alert) => (alerts.push(a), [{ channel: 'test', ok: true, error: null }]), profile: 'default', sandbox: false,
  };
  const rows = await readBillList(remittance, 'REM0002.rem', (r) => saySheet(r, 'en'), { today: '2025-03-10' });
  const schedule = async () => recordBillSchedules(deps, (await billsByDay(ledger, rows, '2025-03-10')).later);
  const pays = () => provider.calls.filter((c) => c.op === 'pay').map((c) => [c.code, c.amountCents]);
  const schedules = async () =>
    (await ledger.all(ledger.db.selectFrom('bill_schedules').select(['id', 'line', 'pay_on', 'status', 'bill_id', 'error']).orderBy('id'))).map((r) => [
      Number(r.id), Number(r.line), r.pay_on, r.status, r.bill_id === null ? null : Number(r.bill_id), r.error,
    ]);
  return { ledger, deps, alerts, schedule, pays, schedules, at: (d: Date) => (now = d) };
}

describe("a remittance's bills due on a later day", () => {
  it('are scheduled once, whatever the runs of the file', async () => {
    const { schedule, schedules } = await setUp();
    expect((await schedule()).map((b) => [b.line, b.payOn, b.amountCents, b.already])).toEqual([
      [7, '2025-03-11', 12_345, false],
      [9, '2025-03-12', 15_990, false],
    ]);
    expect((await schedule()).map((b) => b.already)).toEqual([true, true]);
    expect(await schedules()).toEqual([
      [1, 7, '2025-03-11', 'waiting', null, null],
      [2, 9, '2025-03-12', 'waiting', null, null],
    ]);
  });

  it('are paid by the daemon on their day, once, linked to their title; a refused one is marked and alerted', async () => {
    const { ledger, deps, alerts, schedule, pays, schedules, at } = await setUp();
    await schedule();

    // Monday: neither is due.
    expect(await payScheduledBills(deps)).toEqual({ sent: [], refused: [], errors: [] });
    expect(pays()).toEqual([]);

    // Tuesday: the first is paid, with its title.
    at(TUESDAY);
    expect(await payScheduledBills(deps)).toEqual({ sent: [1], refused: [], errors: [] });
    expect(pays()).toEqual([[lines[0], 12_345]]);
    expect((await schedules())[0]).toEqual([1, 7, '2025-03-11', 'sent', 1, null]);
    const linked = await ledger.all(ledger.db.selectFrom('remittance_bills').select(['bill_id', 'line', 'your_number']));
    expect(linked.map((r) => [Number(r.bill_id), Number(r.line), r.your_number])).toEqual([[1, 7, 'BOL-1']]);
    const file = (await remittanceBillsReturnFile(ledger, remittanceHash(remittance), TUESDAY))!;
    expect(file).toMatchObject({ fileName: 'REM0002.rem', titles: 1, said: '00' });

    // A second pass that day does nothing.
    expect(await payScheduledBills(deps)).toEqual({ sent: [], refused: [], errors: [] });
    expect(pays()).toEqual([[lines[0], 12_345]]);

    // Wednesday: the provider does not know the second; nothing is paid, the schedule is refused and alerted.
    at(WEDNESDAY);
    expect(await payScheduledBills(deps)).toEqual({ sent: [], refused: [2], errors: [] });
    expect(pays()).toEqual([[lines[0], 12_345]]);
    expect((await schedules())[1]).toEqual([2, 9, '2025-03-12', 'refused', null, 'unknown_to_provider']);
    expect(alerts.map((a) => [a.kind, a.summary, a.items.map((i) => [i.batch, i.line, i.key, i.amountCents])])).toEqual([
      [
        'scheduled-bill-refused',
        'The bill of REM0002.rem:9, scheduled for 2025-03-12, was refused when the daemon went to pay it (unknown_to_provider). Nothing was paid; the daemon does not try it again.',
        [['REM0002.rem', 9, BILLS[1]!.barcode, 15_990]],
      ],
    ]);
    expect(await payScheduledBills(deps)).toEqual({ sent: [], refused: [], errors: [] });
    expect(alerts).toHaveLength(1);
  });

  it('go back to waiting when the provider cannot be reached, and are claimed by one run only', async () => {
    const { ledger, deps, schedule, schedules, at } = await setUp();
    await schedule();
    at(TUESDAY);
    const unreachable = { ...deps, provider: async () => new FakeProvider(() => httpError(503, 'UNAVAILABLE')) };
    const r = await payScheduledBills(unreachable);
    expect(r).toMatchObject({ sent: [], refused: [], errors: [{ step: 'scheduled_bill', subject: 'REM0002.rem:7' }] });
    expect((await schedules())[0]!.slice(0, 5)).toEqual([1, 7, '2025-03-11', 'waiting', null]);
    // Two daemons on one ledger: only the first update moves it.
    expect(await claimBillSchedule(ledger, 1, TUESDAY)).toBe(true);
    expect(await claimBillSchedule(ledger, 1, TUESDAY)).toBe(false);
  });

  it('are not paid late: a day that passed with no daemon pass is refused and alerted, nothing sent', async () => {
    const { deps, alerts, schedule, pays, schedules, at } = await setUp();
    await schedule();
    // The first daemon pass after scheduling comes on Wednesday: Tuesday's bill missed its day.
    at(WEDNESDAY);
    expect(await payScheduledBills(deps)).toEqual({ sent: [], refused: [1, 2], errors: [] });
    expect(pays()).toEqual([]);
    expect((await schedules())[0]).toEqual([1, 7, '2025-03-11', 'refused', null, 'missed: no daemon pass on 2025-03-11']);
    expect(alerts.map((a) => [a.kind, a.items[0]!.line])).toEqual([['scheduled-bill-refused', 7], ['scheduled-bill-refused', 9]]);
  });
});
