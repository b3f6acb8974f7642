import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bankBarcodeFromLine } from '../../src/domain/bank-slip.js';
import { bankLine, MONDAY_10H } from '../bills/fixtures.js';
import { useCliOnSandbox } from '../helpers/cli-on-sandbox.js';
import { remittanceText, type RemittanceSpec, type TitleSpec } from '../helpers/cnab240-remittance.js';
import { runCli } from '../helpers/test-io.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const envOf = (dir: string) => ({ XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir });
/** Friday 2026-11-27, 10:00 in São Paulo. */
const now = () => new Date('2026-11-27T13:00:00Z');
const FIXTURES = join(import.meta.dirname, '../fixtures/cnab240');

const COMPANY = '11222333000181';
const TITLES: TitleSpec[] = [
  { yourNumber: 'NF-1001', name: 'MARIA DA SILVA', cents: 150000, date: '2026-11-27', keyKind: '02', key: 'maria@exemplo.com.br' },
  { yourNumber: 'NF-1002', name: 'JOAO SOUZA', cents: 23456, date: '2026-11-27', keyKind: '02', key: 'joao@exemplo.com.br' },
  { yourNumber: 'NF-1003', name: 'ANA LIMA', cents: 9900, date: '2026-12-02', keyKind: '02', key: 'ana@exemplo.com.br' },
];

function write(dir: string, name: string, spec: Partial<RemittanceSpec> = {}): string {
  const file = join(dir, name);
  writeFileSync(file, remittanceText({ company: COMPANY, generatedOn: '2026-11-27', titles: TITLES, ...spec }));
  return file;
}

describe('paybatch import of a CNAB 240 remittance', () => {
  it('pays the titles due today now and schedules those due later for their day; the same file again is the same import', async () => {
    const dir = tempDir();
    const file = write(dir, 'REM0001.rem');
    const checked = await runCli(['import', file, '--check', '--json'], { env: envOf(dir), now });
    expect(checked.code, checked.stderr).toBe(0);
    expect(JSON.parse(checked.stdout)).toMatchObject({ rows: 3, totals: { count: 3, sumCents: 183356 } });

    const r = await runCli(['import', file, '--start', '--yes', '--json', '--quiet'], { env: envOf(dir), now });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.batches.map((b: { items: number; totalCents: number; status: string }) => [b.items, b.totalCents, b.status])).toEqual([
      [2, 173456, 'started'],
      [1, 9900, 'submitted'],
    ]);
    // Wednesday 2026-12-02 at 08:00 São Paulo.
    expect(doc.schedules).toEqual([{ batchId: doc.batches[1].id, payOn: '2026-12-02', startAt: '2026-12-02T11:00:00.000Z' }]);
    expect(doc.summary.remittance).toEqual({
      layout: 'febraban-240', bank: '033', billLines: [],
      dates: [{ date: '2026-11-27', count: 2, sumCents: 173456, scheduled: false }, { date: '2026-12-02', count: 1, sumCents: 9900, scheduled: true }],
    });
    const items = JSON.parse((await runCli(['batch', 'items', String(doc.batches[0].id), '--json', '--quiet'], { env: envOf(dir), now })).stdout);
    expect(items.map((i: { line: number; description: string; amountCents: number }) => [i.line, i.description, i.amountCents])).toEqual([
      [3, 'NF-1001', 150000],
      [5, 'NF-1002', 23456],
    ]);

    const again = await runCli(['import', file, '--start', '--yes', '--json', '--quiet'], { env: envOf(dir), now });
    expect(JSON.parse(again.stdout)).toMatchObject({ outcome: 'already-imported', importId: doc.importId });
  });

  it('refuses a title the ledger is already paying, from another remittance, naming its line and "seu número"', async () => {
    const dir = tempDir();
    expect((await runCli(['import', write(dir, 'REM0001.rem'), '--start', '--yes', '--quiet'], { env: envOf(dir), now })).code).toBe(0);
    const second = write(dir, 'REM0002.rem', { titles: [TITLES[1]!, { ...TITLES[0]!, yourNumber: 'NF-2001' }] });
    const r = await runCli(['import', second, '--yes'], { env: { ...envOf(dir), LC_ALL: 'en_US.UTF-8' }, now });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${second}: 1 title cannot be paid as the remittance stands; nothing was imported.`);
    expect(r.stderr).toMatch(/REM0002\.rem:3 positions 74-93: the title with "seu número" NF-1002 is still being paid \(batch #1\)/);
  });

  it('imports a remittance whole and on its own dates: --skip-invalid and --pay-on are refused; running it again starts nothing early', async () => {
    const dir = tempDir();
    const env = { ...envOf(dir), LC_ALL: 'en_US.UTF-8' };
    const file = write(dir, 'REM0001.rem');
    const skip = await runCli(['import', file, '--yes', '--skip-invalid'], { env, now });
    expect([skip.code, skip.stderr]).toEqual([2, expect.stringContaining('--skip-invalid does not go with a CNAB 240 remittance: it is imported whole, each title on its own payment date.')]);
    const payOn = await runCli(['import', file, '--yes', '--pay-on', '2026-12-01'], { env, now });
    expect(payOn.stderr).toContain('--pay-on does not go with a CNAB 240 remittance');
    expect((await runCli(['import', file, '--yes'], { env, now })).code).toBe(0);
    const again = await runCli(['import', file, '--yes', '--start'], { env, now });
    expect(again.code, again.stderr).toBe(0);
    // Batch #1 (due today) is started now; #2 waits for 2026-12-02 and is not offered a start.
    expect(again.stdout).toContain('as 2 batches (one per payment date, within the provider\'s limit per batch):');
    expect(again.stdout).not.toContain('paybatch batch start 2');
    const list = JSON.parse((await runCli(['batch', 'list', '--json', '--quiet'], { env, now })).stdout) as { id: number; status: string }[];
    expect(list.map((b) => [b.id, b.status])).toEqual([[2, 'submitted'], [1, 'started']]);
  });

  it('pays as its next attempt a title whose batch was deleted, and knows the company by an alphanumeric CNPJ', async () => {
    const dir = tempDir();
    const env = { ...envOf(dir), LC_ALL: 'en_US.UTF-8' };
    expect((await runCli(['config', 'set', 'companyDocument', '12.abc.345/01de-35'], { env })).code).toBe(0);
    const first = write(dir, 'REM0001.rem', { company: '12ABC34501DE35', titles: [TITLES[2]!] });
    expect((await runCli(['import', first, '--yes'], { env, now })).code).toBe(0);
    expect((await runCli(['batch', 'delete', '1', '--yes'], { env, now })).code).toBe(0);
    const second = write(dir, 'REM0002.rem', { company: '12ABC34501DE35', titles: [{ ...TITLES[2]!, cents: 9999 }] });
    const r = await runCli(['import', second, '--yes', '--json', '--quiet'], { env, now });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'imported', batch: { id: 2, items: 1, totalCents: 9999 } });
  });

  it('refuses the whole file when a trailer does not add up, naming the trailer line, and imports nothing', async () => {
    const dir = tempDir();
    const file = write(dir, 'REM0001.rem', { trailerSumOff: 1 });
    const en = await runCli(['import', file, '--yes'], { env: { ...envOf(dir), LC_ALL: 'en_US.UTF-8' }, now });
    expect(en.code).toBe(3);
    expect(en.stderr).toContain(`${file}:9 positions 24-41: the lot trailer sums R$ 1.833,57; its details add up to R$ 1.833,56 (lot not accepted)`);
    const pt = await runCli(['import', file, '--yes'], { env: { ...envOf(dir), LC_ALL: 'pt_BR.UTF-8' }, now });
    expect(pt.stderr).toContain(`${file}, linha 9, posições 24-41: o trailer de lote soma R$ 1.833,57; os detalhes somam R$ 1.833,56 (lote não aceito)`);
    expect(JSON.parse((await runCli(['batch', 'list', '--json', '--quiet'], { env: envOf(dir), now })).stdout)).toEqual([]);
  });

  it("refuses a payment date already past, another company's file, and a Pix by account data, each naming its line", async () => {
    const dir = tempDir();
    const env = { ...envOf(dir), LC_ALL: 'en_US.UTF-8' };
    const pastFile = write(dir, 'past.rem', { titles: [{ ...TITLES[0]!, date: '2026-11-26' }] });
    const past = await runCli(['import', pastFile, '--yes'], { env, now });
    expect(past.stderr).toMatch(/past\.rem:3 positions 94-101: the payment date 2026-11-26 has passed \(today is 2026-11-27\)/);
    // The offline check says so too, before anyone imports it.
    const checked = await runCli(['import', pastFile, '--check'], { env, now });
    expect([checked.code, checked.stderr]).toEqual([3, expect.stringMatching(/past\.rem:3 positions 94-101: the payment date 2026-11-26 has passed/)]);

    expect((await runCli(['config', 'set', 'companyDocument', '11.444.777/0001-61'], { env })).code).toBe(0);
    const other = await runCli(['import', write(dir, 'other.rem'), '--yes'], { env, now });
    expect(other.stderr).toMatch(/other\.rem:1 positions 19-32: the remittance is of company 11222333000181, but the profile's companyDocument is 11444777000161/);

    const account = await runCli(['import', write(dir, 'account.rem', { company: '11444777000161', titles: [{ ...TITLES[0]!, keyKind: '05', key: '' }] }), '--yes'], { env, now });
    expect(account.code).toBe(3);
    expect(account.stderr).toMatch(
      /account\.rem:3 positions 24-43: a payment to bank account data \(payment form 45, Pix initiated by account data\): sent only to a provider that takes a Pix without a key \('paybatch config set pixByAccount bank-code'/,
    );
    expect(JSON.parse((await runCli(['batch', 'list', '--json', '--quiet'], { env, now })).stdout)).toEqual([]);
  });

  it("sends a remittance of bills to 'boleto pay --file', and refuses the public Itaú credit file's payments to accounts", async () => {
    const dir = tempDir();
    const env = { ...envOf(dir), LC_ALL: 'en_US.UTF-8' };
    const bills = join(dir, 'boletos.rem');
    writeFileSync(bills, readFileSync(join(FIXTURES, 'itau-sispag-boletos.rem')));
    const r = await runCli(['import', bills, '--yes'], { env, now });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${bills} holds only bills (1 title in segment J); nothing was imported.`);
    expect(r.stderr).toContain(`paybatch boleto pay --file ${bills}`);
    const billsChecked = await runCli(['import', bills, '--check'], { env, now });
    expect(billsChecked.stderr).toContain("the remittance holds only bills (1 in segment J): pay them with 'paybatch boleto pay --file'");

    const credit = await runCli(['import', join(FIXTURES, 'itau-sispag-credito.rem'), '--check'], { env });
    expect(credit.code).toBe(3);
    expect(credit.stderr.match(/itau-sispag-credito\.rem:\d+ positions 24-43: a payment to bank account data \(payment form 01\)/g)).toHaveLength(9);
  });
});

describe('paybatch boleto pay --file with a CNAB 240 remittance', () => {
  const useSandbox = useCliOnSandbox();

  it("pays the remittance's bills due today through the bills flow, schedules those due later once, and refuses a passed day naming its line", async () => {
    const { run } = await useSandbox(MONDAY_10H, { LC_ALL: 'en_US.UTF-8' });
    const dir = tempDir();
    const line = bankLine({ amountCents: 15_075 });
    const barcode = bankBarcodeFromLine(line);
    // The amount the ERP writes is the one the bill asks today (its discount or interest), as the provider states it.
    const details = await run(['boleto', 'details', line, '--json']);
    const amountCents = JSON.parse(details.stdout).details.amountCents as number;
    const bill = { yourNumber: 'BOL-77', name: 'ENERGIA SA', cents: amountCents, date: '2025-03-10', barcode };
    const file = write(dir, 'REMBOL.rem', { generatedOn: '2025-03-10', titles: [{ ...TITLES[0]!, date: '2025-03-10' }], bills: [bill] });
    const paid = await run(['boleto', 'pay', '--file', file, '--yes', '--json']);
    expect(paid.code, paid.stderr).toBe(0);
    const doc = JSON.parse(paid.stdout);
    // The J segment is line 7: file header, the Pix lot (header, A, B, trailer), the bills' lot header.
    expect(doc).toMatchObject({ outcome: 'ok', counts: { paid: 1 }, paidCents: amountCents, bills: [{ fileLine: 7, description: 'BOL-77' }] });

    // A remittance with a bill due today and one due Wednesday: the first paid, the second scheduled for its day.
    const line2 = bankLine({ amountCents: 20_000 });
    const amount2 = JSON.parse((await run(['boleto', 'details', line2, '--json'])).stdout).details.amountCents as number;
    const today2 = { ...bill, yourNumber: 'BOL-78', cents: amount2, barcode: bankBarcodeFromLine(line2) };
    const later = write(dir, 'REMBOL2.rem', {
      generatedOn: '2025-03-10', titles: [{ ...TITLES[0]!, date: '2025-03-10' }],
      bills: [today2, { ...bill, yourNumber: 'BOL-79', cents: 9_900, date: '2025-03-12', barcode: bankBarcodeFromLine(bankLine({ amountCents: 9_900 })) }],
    });
    const mixed = await run(['boleto', 'pay', '--file', later, '--yes', '--json']);
    expect(mixed.code, mixed.stderr).toBe(0);
    expect(mixed.stderr).toContain('REMBOL2.rem:9  R$ 99,00  scheduled for 2025-03-12: the daemon pays it on that day');
    const mixedDoc = JSON.parse(mixed.stdout);
    expect(mixedDoc).toMatchObject({ outcome: 'ok', counts: { paid: 1 }, paidCents: amount2, bills: [{ fileLine: 7, description: 'BOL-78' }] });
    expect(mixedDoc.scheduled).toEqual([{ file: later, fileLine: 9, payOn: '2025-03-12', amountCents: 9_900, already: false }]);

    // The same file again: the paid bill left out, the scheduled one listed as such and not scheduled again.
    const again = await run(['boleto', 'pay', '--file', later, '--yes', '--json']);
    expect(again.code, again.stderr).toBe(0);
    const againDoc = JSON.parse(again.stdout);
    expect(againDoc).toMatchObject({ outcome: 'ok', counts: { paid: 0 }, bills: [], skipped: [{ fileLine: 7 }] });
    expect(againDoc.scheduled).toEqual([{ file: later, fileLine: 9, payOn: '2025-03-12', amountCents: 9_900, already: true }]);
    const shown = await run(['boleto', 'pay', '--file', later, '--yes']);
    expect(shown.stdout).toContain('REMBOL2.rem:9 already scheduled for 2025-03-12: not scheduled again');

    // A bill whose day has passed is still refused with its line.
    const passed = write(dir, 'REMBOL3.rem', { generatedOn: '2025-03-10', titles: [{ ...TITLES[0]!, date: '2025-03-10' }], bills: [{ ...bill, yourNumber: 'BOL-80', date: '2025-03-07' }] });
    const refused = await run(['boleto', 'pay', '--file', passed, '--yes']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/REMBOL3\.rem:7 positions 145-152: the payment date 2025-03-07 has passed \(today is 2025-03-10\)/);
  });
});

describe('a remittance title a row rule refuses', () => {
  it('is named by its line and the positions of its field, as the remittance has them', async () => {
    const dir = tempDir();
    const env = { ...envOf(dir), LC_ALL: 'en_US.UTF-8' };
    // A CPF key is its owner's own CPF: segment B gives another document (line 6, positions 19-32).
    const titles: TitleSpec[] = [TITLES[0]!, { ...TITLES[1]!, keyKind: '03', key: '52998224725', document: '11144477735' }];
    const r = await runCli(['import', write(dir, 'REM0001.rem', { titles }), '--yes'], { env, now });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/REM0001\.rem:6 positions 19-32: /);
  });

  it("reads payments to accounts as Pix by account data once the profile says the provider takes them (pixByAccount), never before", async () => {
    const dir = tempDir();
    const env = { ...envOf(dir), LC_ALL: 'en_US.UTF-8' };
    // The public Santander credit file (form 01): nine payments to accounts, due in December 2022.
    const file = join(FIXTURES, 'santander-credito.rem');
    const december = () => new Date('2022-12-01T13:00:00Z');
    const refused = await runCli(['import', file, '--check'], { env, now: december });
    expect(refused.code).toBe(3);
    expect(refused.stderr.match(/santander-credito\.rem:\d+ positions 24-43: a payment to bank account data \(payment form 01\)/g)).toHaveLength(9);

    expect((await runCli(['config', 'set', 'pixByAccount', 'bank-code'], { env })).code).toBe(0);
    // Its last four titles have no segment B document (expected.json: payeeDocument null), which such a Pix needs.
    const noDocument = await runCli(['import', file, '--check'], { env, now: december });
    expect(noDocument.code).toBe(3);
    expect([...noDocument.stderr.matchAll(/santander-credito\.rem:(\d+) positions 24-43: a Pix by account data needs the payee's CPF or CNPJ/g)].map((m) => Number(m[1]))).toEqual([13, 15, 17, 19]);
    expect(noDocument.stderr).not.toMatch(/payment form 01/);

    const accounts = write(dir, 'contas.rem', {
      titles: [
        { ...TITLES[0]!, keyKind: '05', key: '', document: '52998224725', account: { bank: '237', branch: '1234', number: '123456', digit: '7' } },
        { ...TITLES[1]!, keyKind: '05', key: '', document: '11444777000161', account: { bank: '104', branch: '0042', number: '9876543', digit: 'X' } },
      ],
    });
    const checked = await runCli(['import', accounts, '--check', '--json'], { env, now });
    expect(checked.code, checked.stderr).toBe(0);
    expect(JSON.parse(checked.stdout)).toMatchObject({ rows: 2, totals: { count: 2, sumCents: 173456, byKeyType: [{ keyType: 'account', count: 2, sumCents: 173456 }] } });
    const imported = await runCli(['import', accounts, '--start', '--yes', '--json', '--quiet'], { env, now });
    expect(imported.code, imported.stderr).toBe(0);
    const items = JSON.parse((await runCli(['batch', 'items', String(JSON.parse(imported.stdout).batches[0].id), '--json', '--quiet'], { env, now })).stdout);
    expect(items.map((i: { line: number; key: string; keyType: string; amountCents: number }) => [i.line, i.key, i.keyType, i.amountCents])).toEqual([
      [3, '237/1234/123456-7', 'account', 150000],
      [5, '104/0042/9876543-X', 'account', 23456],
    ]);
  });
});
