import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bankBarcodeFromLine } from '../../src/domain/bank-slip.js';
import { bankLine, dueDateForBothClocks, MONDAY_10H } from '../bills/fixtures.js';
import { remittanceText, type BillSpec, type TitleSpec } from '../helpers/cnab240-remittance.js';
import { checkCnab240Totals, readCnab240Return, type Cnab240Return, type SegmentA, type SegmentJ, type SegmentZ } from '../helpers/cnab240-return-reader.js';
import { paybatch, startSandboxProcess, useProcesses, userEnv } from '../helpers/e2e.js';
import { freePort } from '../helpers/free-port.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const { sandboxes, daemons } = useProcesses();

interface ItemDoc {
  line: number;
  status: string;
  amountCents: number;
  endToEndId: string | null;
}

/** Today in São Paulo, as the remittance's payment date: the titles are due now. */
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
const COMPANY = '11222333000181';
const TITLES: TitleSpec[] = Array.from({ length: 8 }, (_, i) => ({
  yourNumber: `NF-${1001 + i}`, name: `FORNECEDOR ${i + 1}`, cents: 10_000 + i * 1_234, date: today, keyKind: '02', key: `fornecedor${i + 1}@exemplo.com.br`,
}));
const write = (dir: string, name: string, titles: readonly TitleSpec[], encoding: 'utf8' | 'latin1' = 'utf8') => {
  const file = join(dir, name);
  writeFileSync(file, Buffer.from(remittanceText({ company: COMPANY, generatedOn: today, titles }), encoding));
  return file;
};
const segmentsA = (r: Cnab240Return) => r.lots.flatMap((l) => l.details).filter((d): d is SegmentA => d.segment === 'A');

describe('an ERP remittance paid and answered with a return file (end to end, embedded sandbox)', () => {
  it('writes the return the ERP reads, counts a title paid by a retry as paid, and pays a title at most once across remittances', async () => {
    const dir = tempDir();
    const returns = join(dir, 'retorno');
    // The embedded sandbox rejects about half the items (each identifier's fate is drawn from the seed).
    const env = userEnv(dir, { PAYBATCH_SANDBOX_SPEED: '600', PAYBATCH_SANDBOX_FAULTS: 'failed=0.5', PAYBATCH_CNAB_RETURN_DIR: returns });
    const settle = async (e = env) => {
      const r = await paybatch(['daemon', '--listen', '127.0.0.1:0', '--interval', '0.5', '--until-settled', '--timeout', '60s'], { env: e, timeout: 90_000 });
      expect([0, 4], r.stderr.slice(-2000)).toContain(r.exitCode);
    };
    const items = async (batch: number) => JSON.parse((await paybatch(['batch', 'items', String(batch), '--json'], { env })).stdout) as ItemDoc[];

    // Written as Windows-1252, as banks' files are, with a name that has accents.
    const titles = TITLES.map((t, i) => (i === 2 ? { ...t, name: 'JOÃO CONCEIÇÃO' } : t));
    const imported = await paybatch(['import', write(dir, 'REM0001.rem', titles, 'latin1'), '--start', '--yes', '--json'], { env });
    expect(imported.exitCode, imported.stderr).toBe(0);
    await settle();

    // The daemon wrote batch #1's return into the folder, private: the ERP's own lines with the outcome written in.
    const [name] = readdirSync(returns);
    expect(name).toMatch(/^retorno-1-rem0001-\d{4}-\d{2}-\d{2}\.ret$/);
    expect(statSync(join(returns, name!)).mode & 0o777).toBe(0o600);
    // Every line 240 bytes, in the remittance's own encoding.
    const text = readFileSync(join(returns, name!), 'latin1');
    expect(text.split('\r\n').slice(0, -1).every((l) => l.length === 240)).toBe(true);
    expect(text).toContain('JOÃO CONCEIÇÃO');
    const read = readCnab240Return(text);
    expect(checkCnab240Totals(read)).toEqual([]);
    expect(read.header.remessaRetorno).toBe('2');
    const first = await items(1);
    const paid = first.filter((i) => i.status === 'paid');
    const failed = first.filter((i) => i.status === 'failed');
    expect(paid.length + failed.length).toBe(8);
    expect(failed.length).toBeGreaterThan(0);
    // One occurrence per title, matching the ledger: 00 with the amount paid, or a rejection code.
    const a = segmentsA(read);
    expect(a.map((d) => d.seuNumero)).toEqual(TITLES.map((t) => t.yourNumber));
    for (const [i, item] of first.entries()) {
      if (item.status === 'paid') expect([a[i]!.occurrences, a[i]!.realAmountCentavos]).toEqual([['00'], item.amountCents]);
      else expect(a[i]!.occurrences[0]).toMatch(/^(P[A-N]|01)$/);
    }
    const z = read.lots[0]!.details.filter((d): d is SegmentZ => d.segment === 'Z');
    expect(z.map((d) => d.authentication)).toEqual(paid.map((i) => i.endToEndId));

    // A title already paid is refused in a new remittance, naming its line.
    const again = await paybatch(['import', write(dir, 'REM0002.rem', [TITLES[first.indexOf(paid[0]!)]!]), '--yes'], { env });
    expect(again.exitCode).toBe(3);
    expect(again.stderr).toMatch(/REM0002\.rem:3 positions 74-93: the title with "seu número" NF-\d+ was paid already \(batch #1\)/);

    // The failed titles are paid by a retry of batch #1: its return, written again, says each of them paid.
    const noFaults = { ...env, PAYBATCH_SANDBOX_FAULTS: '' };
    const retry = await paybatch(['batch', 'retry', '1', '--status', 'failed', '--start', '--yes', '--json'], { env: noFaults });
    expect(retry.exitCode, retry.stderr).toBe(0);
    await settle(noFaults);
    const exported = await paybatch(['batch', 'export', '1', '--format', 'cnab240-retorno'], { env, encoding: 'latin1' });
    expect(exported.exitCode, exported.stderr).toBe(0);
    const ret1 = readCnab240Return(exported.stdout);
    expect(checkCnab240Totals(ret1)).toEqual([]);
    expect(segmentsA(ret1).map((d) => d.occurrences)).toEqual(TITLES.map(() => ['00']));
    // The daemon wrote a second return file, since what the first said of those titles changed.
    const later = readdirSync(returns).filter((f) => f !== name);
    expect(later).toEqual([name!.replace(/\.ret$/, '-2.ret')]);
    expect(segmentsA(readCnab240Return(readFileSync(join(returns, later[0]!), 'latin1'))).map((d) => d.occurrences)).toEqual(TITLES.map(() => ['00']));
    // Paid by the retry, so a remittance that brings one back is refused too.
    const failedTitle = TITLES[first.indexOf(failed[0]!)]!;
    const paidByRetry = await paybatch(['import', write(dir, 'REM0003.rem', [failedTitle]), '--yes'], { env });
    expect(paidByRetry.stderr).toMatch(/REM0003\.rem:3 positions 74-93: the title with "seu número" NF-\d+ was paid already \(batch #1\)/);
  });

  it('pays in a new remittance a title the provider rejected, as its next attempt', async () => {
    const dir = tempDir();
    const env = userEnv(dir, { PAYBATCH_SANDBOX_SPEED: '600', PAYBATCH_SANDBOX_FAULTS: 'failed=0.5' });
    const settle = async (e = env) => {
      const r = await paybatch(['daemon', '--listen', '127.0.0.1:0', '--interval', '0.5', '--until-settled', '--timeout', '60s'], { env: e, timeout: 90_000 });
      expect([0, 4], r.stderr.slice(-2000)).toContain(r.exitCode);
    };
    expect((await paybatch(['import', write(dir, 'REM0001.rem', TITLES), '--start', '--yes'], { env })).exitCode).toBe(0);
    await settle();
    const first = JSON.parse((await paybatch(['batch', 'items', '1', '--json'], { env })).stdout) as ItemDoc[];
    const rejected = TITLES.filter((_, i) => first[i]!.status === 'failed');
    expect(rejected.length).toBeGreaterThan(0);

    const noFaults = { ...env, PAYBATCH_SANDBOX_FAULTS: '' };
    const resent = await paybatch(['import', write(dir, 'REM0002.rem', rejected), '--start', '--yes', '--json'], { env: noFaults });
    expect(resent.exitCode, resent.stderr).toBe(0);
    await settle(noFaults);
    const batch = JSON.parse(resent.stdout).batch.id as number;
    const ret = readCnab240Return((await paybatch(['batch', 'export', String(batch), '--format', 'cnab240-retorno'], { env })).stdout);
    expect(segmentsA(ret).map((d) => [d.seuNumero, d.occurrences])).toEqual(rejected.map((t) => [t.yourNumber, ['00']]));
    // Batch #1's own return still says those titles were not paid there.
    const ret1 = readCnab240Return((await paybatch(['batch', 'export', '1', '--format', 'cnab240-retorno'], { env })).stdout);
    expect(segmentsA(ret1).filter((d) => d.occurrences[0] !== '00').map((d) => d.seuNumero)).toEqual(rejected.map((t) => t.yourNumber));
  });

  it('pays a Pix by account data without a key once the profile says the provider takes it, and answers a closed account with PC', async () => {
    const dir = tempDir();
    const env = userEnv(dir, { PAYBATCH_SANDBOX_SPEED: '600', PAYBATCH_PIX_BY_ACCOUNT: 'bank-code' });
    const toAccounts: TitleSpec[] = [
      { ...TITLES[0]!, keyKind: '05', key: '', document: '52998224725', account: { bank: '237', branch: '1234', number: '123456', digit: '7' } },
      { ...TITLES[1]!, keyKind: '05', key: '', document: '11444777000161', account: { bank: '104', branch: '42', number: '9876543', digit: 'X' } },
      // The sandbox holds an account whose number is all zeros closed: the receiver's bank refuses it (AC03).
      { ...TITLES[2]!, keyKind: '05', key: '', document: '39053344705', account: { bank: '341', branch: '1', number: '0', digit: '0' } },
    ];
    const imported = await paybatch(['import', write(dir, 'REM0001.rem', toAccounts), '--start', '--yes', '--json'], { env });
    expect(imported.exitCode, imported.stderr).toBe(0);
    const settled = await paybatch(['daemon', '--listen', '127.0.0.1:0', '--interval', '0.5', '--until-settled', '--timeout', '60s'], { env, timeout: 90_000 });
    expect([0, 4], settled.stderr.slice(-2000)).toContain(settled.exitCode);

    const items = JSON.parse((await paybatch(['batch', 'items', '1', '--json'], { env })).stdout) as (ItemDoc & { key: string; keyType: string; reason: string | null; receipt: string | null })[];
    expect(items.map((i) => [i.key, i.keyType, i.status])).toEqual([
      ['237/1234/123456-7', 'account', 'paid'],
      ['104/0042/9876543-X', 'account', 'paid'],
      ['341/0001/0-0', 'account', 'failed'],
    ]);
    expect(items[2]!.reason).toMatch(/AC03/);
    for (const paid of items.slice(0, 2)) expect(readFileSync(paid.receipt!).subarray(0, 5).toString()).toBe('%PDF-');
    // The provider's record agrees with the ledger, item by item.
    expect((await paybatch(['reconcile', '1', '--json'], { env })).exitCode).toBe(0);
    const ret = readCnab240Return((await paybatch(['batch', 'export', '1', '--format', 'cnab240-retorno'], { env })).stdout);
    expect(checkCnab240Totals(ret)).toEqual([]);
    expect(segmentsA(ret).map((d) => [d.seuNumero, d.occurrences])).toEqual([
      [TITLES[0]!.yourNumber, ['00']],
      [TITLES[1]!.yourNumber, ['00']],
      [TITLES[2]!.yourNumber, ['PC']],
    ]);
  });

  it('a provider that does not take a Pix without a key refuses it when the setting says otherwise: nothing is paid, and the error names the setting', async () => {
    const dir = tempDir();
    // The sandbox's `spec` dialect, like the API it follows, knows only destinations with a key.
    const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--dialect', 'spec', '--speed', '600'] });
    sandboxes.push(s);
    const env = userEnv(dir, { ...s.env(), PAYBATCH_PIX_AMOUNT_UNIT: 'cents', PAYBATCH_PIX_BY_ACCOUNT: 'bank-code' });
    const title: TitleSpec = { ...TITLES[0]!, keyKind: '05', key: '', document: '52998224725', account: { bank: '237', branch: '1234', number: '123456', digit: '7' } };
    const r = await paybatch(['import', write(dir, 'REM0001.rem', [title]), '--start', '--yes'], { env });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).not.toMatch(/bug|at .*\.js:\d+/);
    expect(r.stderr).toMatch(/The provider refused the items as written, and would again: .*pixByAccount/);
    // Said in Portuguese too; the run again continues the same import and is refused the same way.
    const pt = await paybatch(['import', join(dir, 'REM0001.rem'), '--start', '--yes'], { env: { ...env, LC_ALL: 'pt_BR.UTF-8' } });
    expect(pt.stderr).toMatch(/o provedor recusou com HTTP 400 \(REQUISICAO_INVALIDA: .*to\.key/);
    expect(pt.stderr).toMatch(/recusaria de novo: .*pixByAccount/);
    expect((await s.admin<{ payments: unknown[] }>('payments')).payments).toEqual([]);
  });

  it("answers the remittance's bills with a return file of their own: 00 paid, ZA returned, by the daemon and by boleto export", async () => {
    const dir = tempDir();
    const returns = join(dir, 'retorno');
    // A sandbox of its own, its clock on a Monday at 10:00 so the bills are paid at once (the embedded one runs on the
    // real clock, whose bank window may be closed); its bill returns come as events, so the daemon receives them.
    const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--seed', '7', '--speed', '60', '--start-time', MONDAY_10H] });
    sandboxes.push(s);
    const env = userEnv(dir, { ...s.env(), PAYBATCH_WEBHOOK_SECRET: 'whsec_Y25hYi1iaWxscy1yZXR1cm4tZTJl', PAYBATCH_CNAB_RETURN_DIR: returns });
    const port = await freePort();
    const daemon = paybatch(['daemon', '--listen', `127.0.0.1:${port}`, '--public-url', `http://127.0.0.1:${port}/webhooks`, '--interval', '1', '--timeout', '100s', '--log-format', 'json'], { env, timeout: 120_000 });
    daemons.push(daemon);
    const log = daemonLog(daemon.stderr!);
    await log.line('the daemon to subscribe', (l) => l.msg === 'subscribed to provider events');

    // Three bills due on a date both clocks read as itself; the sandbox returns the one whose barcode ends in 7701.
    const due = dueDateForBothClocks();
    const lines = [bankLine({ amountCents: 15_990, dueDate: due, tail: '0300' }), bankLine({ amountCents: 23_456, dueDate: due, tail: '7701' }), bankLine({ amountCents: 7_501, dueDate: due, tail: '0301' })];
    // The ERP writes the amount each bill asks today (the sandbox gives some a discount), as the provider states it.
    const amounts: number[] = [];
    for (const line of lines) amounts.push(JSON.parse((await paybatch(['boleto', 'details', line, '--json'], { env })).stdout).details.amountCents as number);
    const bills: BillSpec[] = lines.map((line, i) => ({ yourNumber: `BOL-${i + 1}`, name: `CEDENTE ${i + 1}`, cents: amounts[i]!, date: today, barcode: bankBarcodeFromLine(line) }));
    const file = join(dir, 'REM0007.rem');
    writeFileSync(file, remittanceText({ company: COMPANY, generatedOn: today, titles: [TITLES[0]!], bills }));

    const paid = await paybatch(['boleto', 'pay', '--file', file, '--yes', '--json'], { env });
    expect(paid.exitCode, paid.stderr).toBe(0);
    expect(JSON.parse(paid.stdout)).toMatchObject({ counts: { paid: 3 }, paidCents: amounts[0]! + amounts[1]! + amounts[2]! });
    const jOf = (r: Cnab240Return) => r.lots.flatMap((l) => l.details).filter((d): d is SegmentJ => d.segment === 'J');
    const readReturn = (text: string) => {
      expect(text.split('\r\n').slice(0, -1).every((l) => l.length === 240)).toBe(true);
      const read = readCnab240Return(text);
      expect(checkCnab240Totals(read)).toEqual([]);
      // Only the bills' lot, each J with its J-52, summing what the remittance asked.
      expect(read.lots.map((l) => [l.form, l.details.map((d) => d.segment).join(''), l.trailer.amountCentavos])).toEqual([['31', 'JJ52JJ52JJ52', amounts[0]! + amounts[1]! + amounts[2]!]]);
      return jOf(read).map((j) => [j.seuNumero, j.paymentCentavos, j.occurrences]);
    };

    // Every bill paid: the daemon writes their return file, private.
    const first = join(returns, 'retorno-boletos-rem0007.ret');
    await log.line("the bills' return file", (l) => l.event === 'return_file_written' && l.file === first);
    expect(statSync(first).mode & 0o777).toBe(0o600);
    expect(readReturn(readFileSync(first, 'latin1'))).toEqual(bills.map((b) => [b.yourNumber, b.cents, ['00']]));

    // The next business day at 10:00 the beneficiary's bank returns the second: a later return says so (ZA).
    await s.admin('clock/advance', { method: 'POST', body: { seconds: 2 * 86_400 } });
    const second = join(returns, 'retorno-boletos-rem0007-2.ret');
    await log.line('the later return file', (l) => l.event === 'return_file_written' && l.file === second);
    const now = [[bills[0]!.yourNumber, bills[0]!.cents, ['00']], [bills[1]!.yourNumber, bills[1]!.cents, ['ZA']], [bills[2]!.yourNumber, bills[2]!.cents, ['00']]];
    expect(readReturn(readFileSync(second, 'latin1'))).toEqual(now);

    // boleto export writes the same any time, on stdout or inside --json.
    const exported = await paybatch(['boleto', 'export', '--file', file], { env, encoding: 'latin1' });
    expect(exported.exitCode, exported.stderr).toBe(0);
    expect(readReturn(exported.stdout)).toEqual(now);
    expect(exported.stderr).toContain(`Return file of the bills of ${file}: 3 bills.`);
    const doc = JSON.parse((await paybatch(['boleto', 'export', '--file', file, '--json'], { env })).stdout);
    expect(doc).toMatchObject({ format: 'cnab240-retorno', layout: 'febraban-240', titles: 3, open: 0 });
    expect(readReturn(doc.text)).toEqual(now);

    // A remittance none of whose bills was paid from has no bills' return file: said in English and in Portuguese.
    const other = join(dir, 'REM0008.rem');
    writeFileSync(other, remittanceText({ company: COMPANY, generatedOn: today, titles: [TITLES[0]!], bills: [{ ...bills[0]!, yourNumber: 'BOL-9' }] }));
    const none = await paybatch(['boleto', 'export', '--file', other], { env });
    expect([none.exitCode, none.stdout]).toEqual([2, '']);
    expect(none.stderr).toContain(`No bill of ${other} was paid with 'paybatch boleto pay --file': this remittance has no bills' return file.`);
    const nenhum = await paybatch(['boleto', 'export', '--file', other], { env: { ...env, LC_ALL: 'pt_BR.UTF-8' } });
    expect(nenhum.stderr).toContain(`Nenhum boleto de ${other} foi pago com 'paybatch boleto pay --file'`);

    daemon.kill('SIGTERM');
    const stopped = await daemon;
    daemons.splice(0);
    expect(stopped.exitCode, log.text()).toBe(0);
  });
});

/**
 * The daemon's JSON log lines as they come, and a wait for the first that `matches` (already logged or still to
 * come): the daemon says what it did, so the test follows its events. The whole log is shown when it never comes.
 */
function daemonLog(stderr: Readable): { line(what: string, matches: (l: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<void>; text(): string } {
  let text = '';
  let partial = '';
  const lines: Record<string, unknown>[] = [];
  const waiting = new Set<() => void>();
  stderr.on('data', (b: Buffer) => {
    text += b.toString();
    const parts = (partial + b.toString()).split('\n');
    partial = parts.pop()!;
    for (const raw of parts) if (raw.trim()) lines.push(JSON.parse(raw) as Record<string, unknown>);
    for (const wake of waiting) wake();
  });
  return {
    text: () => text,
    line: (what, matches, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!lines.some(matches)) return;
          waiting.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => (waiting.delete(check), reject(new Error(`no log line for ${what}\n${text.slice(-3000)}`))), timeoutMs);
        waiting.add(check);
        check();
      }),
  };
}
