import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bankBarcodeFromLine } from '../../src/domain/bank-slip.js';
import { decodeBoleto } from '../../src/domain/boleto.js';
import type { BillRequest } from '../../src/engine/bills/plan-bills.js';
import { remittanceBillsReturnFile, writeOwedReturnFiles } from '../../src/engine/reports/index.js';
import { updateBill } from '../../src/ledger/bill-repository.js';
import { openLedger, type Ledger } from '../../src/ledger/open-ledger.js';
import { billDocumentWriter } from '../../src/receipts/bill-receipt.js';
import { readBillList, remittanceHash } from '../../src/sheet/bill-sheet.js';
import { saySheet } from '../../src/words/sheet.js';
import { bankLine, detailsFor, FakeProvider, httpError, paymentFor } from '../bills/fixtures.js';
import { payBills } from '../bills/pay-through.js';
import { remittanceText, type BillSpec } from '../helpers/cnab240-remittance.js';
import { checkCnab240Totals, readCnab240Return, type SegmentJ } from '../helpers/cnab240-return-reader.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const ledgers: Ledger[] = [];
afterEach(async () => {
  for (const l of ledgers.splice(0)) await l.close();
});

/** Monday 2025-03-10, 10:00 São Paulo: the bills are due today. */
const MONDAY = new Date('2025-03-10T10:00:00-03:00');
const lines = [12_345, 15_990, 20_000, 7_501].map((amountCents) => bankLine({ amountCents }));
const BILLS: BillSpec[] = lines.map((line, i) => ({
  yourNumber: `BOL-${i + 1}`, name: `CEDENTE ${i + 1}`, cents: [12_345, 15_990, 20_000, 7_501][i]!, date: '2025-03-10', barcode: bankBarcodeFromLine(line),
}));
const remittance = Buffer.from(remittanceText({
  company: '11222333000181', generatedOn: '2025-03-10', bills: BILLS,
  titles: [{ yourNumber: 'NF-1', name: 'MARIA', cents: 100, date: '2025-03-10', keyKind: '02', key: 'maria@exemplo.com.br' }],
}));
const amountOf = (code: string) => decodeBoleto(code, '2025-03-10').amountCents!;
const jOf = (text: string) => readCnab240Return(text).lots.flatMap((l) => l.details).filter((d): d is SegmentJ => d.segment === 'J');

async function setUp() {
  const ledger = await openLedger(':memory:');
  ledgers.push(ledger);
  let now = MONDAY;
  // The second bill is refused by the provider (a definite 400), the fourth scheduled; the others paid.
  let refuse = lines[1]!;
  const provider = new FakeProvider(
    (code) => detailsFor(code, amountOf(code)),
    (code, cents) => (code === refuse ? httpError(400, 'BOLETO_INVALIDO') : paymentFor(code, cents, code === lines[3] ? { status: 'scheduled', settleDate: '2025-03-11' } : {})),
  );
  const deps = { ledger, provider: async () => provider, now: () => now, documents: billDocumentWriter({ receiptsDir: tempDir(), locale: 'en', sandbox: false }) };
  const requests = await readBillList(remittance, 'REM0001.rem', (r) => saySheet(r, 'en'), { today: '2025-03-10' });
  const pay = (rs: readonly BillRequest[] = requests) => payBills(deps, rs, { force: false, skipPaid: true, confirm: async () => true });
  return { ledger, pay, at: (d: Date) => (now = d), accept: () => (refuse = '') };
}

describe("the return file of a remittance's bills", () => {
  it('says each bill as its payment stands, in remittance order: 00 paid, Z4 refused, ZA returned, BD scheduled', async () => {
    const { ledger, pay } = await setUp();
    const paid = await pay();
    expect(paid.outcomes.map((o) => o.status)).toEqual(['paid', 'failed', 'paid', 'scheduled']);
    // The third is returned by the beneficiary's bank a day later.
    await updateBill(ledger, 3, { status: 'returned', return_reason: '12 - validity or due date expired' }, new Date('2025-03-11T13:00:00Z'));

    const file = (await remittanceBillsReturnFile(ledger, remittanceHash(remittance), new Date('2025-03-11T13:30:00Z')))!;
    expect(file).toMatchObject({ fileName: 'REM0001.rem', layout: 'febraban-240', titles: 4, open: 1, said: '00 Z4 ZA BD' });
    expect(file.text.split('\r\n').slice(0, -1).every((l) => l.length === 240)).toBe(true);
    const read = readCnab240Return(file.text);
    expect(checkCnab240Totals(read)).toEqual([]);
    // Written 2025-03-11 10:30 São Paulo; NSA 500000 + the first bill's id.
    expect(read.header).toMatchObject({ remessaRetorno: '2', generatedOn: '2025-03-11', fileSequence: 500_001 });
    // Only the bills' lot, renumbered 1: each J with its J-52, the payment fields as the remittance wrote them.
    expect(read.lots.map((l) => [l.lotNumber, l.form, l.details.map((d) => d.segment).join('')])).toEqual([[1, '31', 'JJ52JJ52JJ52JJ52']]);
    expect(jOf(file.text).map((j) => [j.seuNumero, j.barcode, j.paymentCentavos, j.occurrences])).toEqual([
      ['BOL-1', BILLS[0]!.barcode, 12_345, ['00']],
      ['BOL-2', BILLS[1]!.barcode, 15_990, ['Z4']],
      ['BOL-3', BILLS[2]!.barcode, 20_000, ['ZA']],
      ['BOL-4', BILLS[3]!.barcode, 7_501, ['BD']],
    ]);
    // The sum is of what the remittance asked, refused and returned bills included, as banks do.
    expect(read.lots[0]!.trailer).toMatchObject({ recordCount: 10, amountCentavos: 55_836 });
    expect(await remittanceBillsReturnFile(ledger, remittanceHash(Buffer.from('another file')), MONDAY)).toBeNull();
  });

  it('links only bills of a remittance, and a title paid again by a later run of the same file is said as its last payment', async () => {
    const { ledger, pay, accept } = await setUp();
    await pay();
    // A bill typed on the command line has no title.
    await pay([{ code: bankLine({ amountCents: 999 }) }]);
    expect((await ledger.all(ledger.db.selectFrom('remittance_bills').select(['bill_id', 'line', 'your_number']).orderBy('bill_id'))).map((r) => [Number(r.bill_id), Number(r.line), r.your_number])).toEqual([
      [1, 7, 'BOL-1'], [2, 9, 'BOL-2'], [3, 11, 'BOL-3'], [4, 13, 'BOL-4'],
    ]);
    // The same file again: the paid and scheduled bills are left out (their titles kept); the refused one is paid now.
    accept();
    const again = await pay();
    expect(again.skipped.map((s) => s.paidBy.id)).toEqual([1, 3, 4]);
    expect(again.outcomes.map((o) => [o.row.id, o.status])).toEqual([[6, 'paid']]);
    const file = (await remittanceBillsReturnFile(ledger, remittanceHash(remittance), MONDAY))!;
    expect(file.said).toBe('00 00 00 BD');
    expect(jOf(file.text).map((j) => j.seuNumero)).toEqual(['BOL-1', 'BOL-2', 'BOL-3', 'BOL-4']);
  });

  it('waits for every line a run set out to pay: a daemon pass between two of its bills writes none', async () => {
    const ledger = await openLedger(':memory:');
    ledgers.push(ledger);
    const three = Buffer.from(remittanceText({ company: '11222333000181', generatedOn: '2025-03-10', bills: BILLS.slice(0, 3), titles: [] }));
    const dir = join(tempDir(), 'retorno');
    const write = () => writeOwedReturnFiles({ ledger, now: () => MONDAY, dir });
    // A daemon's pass runs as each bill's receipt is written: after its answer, before the next bill's intent.
    const duringRun: unknown[] = [];
    const receipts = billDocumentWriter({ receiptsDir: tempDir(), locale: 'en', sandbox: false });
    const documents: typeof receipts = async (data) => {
      duringRun.push(await write());
      return receipts(data);
    };
    const provider = new FakeProvider((code) => detailsFor(code, amountOf(code)));
    const deps = { ledger, provider: async () => provider, now: () => MONDAY, documents };
    const requests = await readBillList(three, 'REM0002.rem', (r) => saySheet(r, 'en'), { today: '2025-03-10' });
    const paid = await payBills(deps, requests, { force: false, skipPaid: true, confirm: async () => true });
    expect(paid.outcomes.map((o) => o.status)).toEqual(['paid', 'paid', 'paid']);
    // Nothing while the third was still to pay; the pass after the third's answer writes the file, naming all three.
    const file = join(dir, 'retorno-boletos-rem0002.ret');
    expect(duringRun).toEqual([[], [], [{ remittance: 'REM0002.rem', path: file }]]);
    expect(jOf(readFileSync(file, 'utf8')).map((j) => [j.seuNumero, j.occurrences[0]])).toEqual([['BOL-1', '00'], ['BOL-2', '00'], ['BOL-3', '00']]);
    expect(await write()).toEqual([]);
  });

  it('is written by the daemon once every bill has ended, privately, and again when what it says changes', async () => {
    const { ledger, pay, at } = await setUp();
    await pay();
    const dir = join(tempDir(), 'retorno');
    const write = () => writeOwedReturnFiles({ ledger, now: () => MONDAY, dir });
    // The fourth is only scheduled: nothing yet.
    expect(await write()).toEqual([]);
    at(new Date('2025-03-11T12:00:00Z'));
    await updateBill(ledger, 4, { status: 'paid', amount_paid_cents: 7_501, settle_date: '2025-03-11' }, new Date('2025-03-11T12:00:00Z'));
    const first = join(dir, 'retorno-boletos-rem0001.ret');
    expect(await write()).toEqual([{ remittance: 'REM0001.rem', path: first }]);
    expect(statSync(first).mode & 0o777).toBe(0o600);
    expect(jOf(readFileSync(first, 'utf8')).map((j) => j.occurrences[0])).toEqual(['00', 'Z4', '00', '00']);
    // Nothing changed: nothing more.
    expect(await write()).toEqual([]);
    // A bill returned later: a second file, as banks send later returns.
    await updateBill(ledger, 1, { status: 'returned', return_reason: 'Invalid barcode' }, new Date('2025-03-12T13:00:00Z'));
    const second = join(dir, 'retorno-boletos-rem0001-2.ret');
    expect(await write()).toEqual([{ remittance: 'REM0001.rem', path: second }]);
    expect(jOf(readFileSync(second, 'utf8')).map((j) => j.occurrences[0])).toEqual(['ZA', 'Z4', '00', '00']);
    expect(readdirSync(dir).sort()).toEqual(['retorno-boletos-rem0001-2.ret', 'retorno-boletos-rem0001.ret']);
  });
});
