import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Random } from '../../src/sandbox/random.js';
import { bankLine as fixtureBankLine, dueDateForBothClocks, collectionLine, MONDAY_10H, SATURDAY_NIGHT } from '../bills/fixtures.js';
import { paybatch, startSandboxProcess, userEnv, type SandboxProcess } from '../helpers/e2e.js';
import { inTerminal } from '../helpers/terminal.js';
import { useTempDir } from '../helpers/temp-dir.js';

/** Bank slips due on a date that paybatch (the real clock) and the sandbox (its pinned clock) both read as itself. */
const bankLine: typeof fixtureBankLine = (o = {}) => fixtureBankLine({ dueDate: dueDateForBothClocks(), ...o });

// The built binary against `paybatch sandbox serve`, whose clock starts at a chosen instant (--start-time). The
// provider's answer decides paid or scheduled; paybatch's own clock is the real one, so these tests assert on
// results, never on the window paybatch predicts (test/bills/boleto-command.test.ts pins both clocks for that).
const tempDir = useTempDir();
const sandboxes: SandboxProcess[] = [];
afterEach(async () => {
  for (const s of sandboxes.splice(0)) await s.stop();
});

async function setUp(o: { start?: string; args?: string[] } = {}) {
  const dir = tempDir();
  const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--seed', '7', '--start-time', o.start ?? MONDAY_10H, ...(o.args ?? [])] });
  sandboxes.push(s);
  const env = userEnv(dir, s.env());
  const run = (args: string[]) => paybatch(args, { env });
  const json = async (args: string[]) => {
    const r = await run([...args, '--json']);
    return { ...r, doc: JSON.parse(r.stdout) };
  };
  const providerBills = async () => (await s.admin<{ bills: { status: string; transactionId: string }[] }>('bills')).bills;
  return { dir, s, env, run, json, providerBills };
}

interface BillDoc {
  id: number;
  status: string;
  amountCents: number;
  amountPaidCents: number | null;
  settleDate: string | null;
  returnableUntil: string | null;
  receipt: string | null;
  forced: boolean;
  transactionId: string | null;
  error: string | null;
  message: string;
  hint: string | null;
}

function expectPdf(path: string | null): void {
  expect(path).toMatch(/\/receipts\/default\/bills\/.+\.pdf$/);
  const pdf = readFileSync(path!);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.subarray(-1024).toString('latin1')).toContain('%%EOF');
}

describe('paybatch boleto (end to end)', () => {
  it('pays a bank slip and a utility collection slip, with receipts, and lists them', async () => {
    const { json, providerBills } = await setUp();
    const bank = bankLine({ amountCents: 15_990 });
    const r1 = await json(['boleto', 'pay', bank, '--yes']);
    expect(r1.exitCode, r1.stderr).toBe(0);
    expect(r1.doc).toMatchObject({ outcome: 'ok', counts: { paid: 1 }, bills: [{ status: 'paid', kind: 'bank', settleDate: '2025-03-10', returnableUntil: '2025-03-17' }] });
    const paidBank = r1.doc.bills[0] as BillDoc;
    expect(paidBank.amountPaidCents).toBe(paidBank.amountCents);
    expectPdf(paidBank.receipt);

    const utility = collectionLine({ amountCents: 8_745 });
    const r2 = await json(['boleto', 'pay', utility, '--yes', '--description', 'luz de março']);
    expect(r2.exitCode, r2.stderr).toBe(0);
    expect(r2.doc.bills[0]).toMatchObject({ status: 'paid', kind: 'collection', amountPaidCents: 8_745, description: 'luz de março' });
    expectPdf(r2.doc.bills[0].receipt);

    const list = await json(['boleto', 'list']);
    expect(list.exitCode).toBe(0);
    expect((list.doc as BillDoc[]).map((b) => [b.status, b.returnableUntil])).toEqual([['paid', '2025-03-17'], ['paid', '2025-03-17']]);
    expect((await providerBills()).map((b) => b.status)).toEqual(['paid', 'paid']);
  });

  it('applies the amount rules', async () => {
    const { json, run, providerBills } = await setUp();
    const reference = collectionLine({ valueId: 7, segment: 5, amountCents: 1 });
    const needs = await run(['boleto', 'pay', reference, '--yes']);
    expect(needs.exitCode).toBe(3);
    expect(needs.stderr).toMatch(/amount: the code holds a reference value.*\(--amount\)/);

    const fixed = bankLine({ amountCents: 15_990, tail: '0011' });
    const wrong = await run(['boleto', 'pay', fixed, '--amount', '1,00', '--yes']);
    expect(wrong.exitCode).toBe(3);
    expect(wrong.stderr).toMatch(/amount: this bill's amount cannot change: it is R\$ 1\d\d,\d\d, not R\$ 1,00/);

    const zero = bankLine({ amountCents: 0, tail: '0012' });
    const details = await json(['boleto', 'details', zero]);
    expect(details.doc.details).toMatchObject({ canChangeAmount: true, minValueCents: 1, maxValueCents: 100_000_000 });
    const tooMuch = await run(['boleto', 'pay', zero, '--amount', '2.000.000,00', '--yes']);
    expect(tooMuch.exitCode).toBe(3);
    expect(tooMuch.stderr).toContain("above the bill's maximum of R$ 1.000.000,00");
    const garbled = await run(['boleto', 'pay', zero, '--amount', '12,3456', '--yes']);
    expect(garbled.exitCode).toBe(3);
    expect(garbled.stderr).toMatch(/amount: .*more than two decimal places/);
    expect(await providerBills()).toEqual([]);

    const paid = await json(['boleto', 'pay', reference, '--amount', '250,00', '--yes']);
    expect(paid.exitCode, paid.stderr).toBe(0);
    expect(paid.doc.bills[0]).toMatchObject({ status: 'paid', amountCents: 25_000, amountPaidCents: 25_000 });
    const chosen = await json(['boleto', 'pay', zero, '--amount', '1.234,56', '--yes']);
    expect(chosen.doc.bills[0]).toMatchObject({ status: 'paid', amountPaidCents: 123_456 });
  });

  it('schedules a payment made outside the bank window (Saturday night) for the next business day', async () => {
    const { json, providerBills } = await setUp({ start: SATURDAY_NIGHT });
    const r = await json(['boleto', 'pay', bankLine(), '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.doc).toMatchObject({ outcome: 'ok', counts: { scheduled: 1 }, bills: [{ status: 'scheduled', remoteStatus: 'scheduled', settleDate: '2025-03-10', returnableUntil: '2025-03-17' }] });
    expect(r.doc.bills[0].message).toMatch(/^Scheduled: R\$ .* for 2025-03-10/);
    expectPdf(r.doc.bills[0].receipt);
    expect((await providerBills()).map((b) => b.status)).toEqual(['scheduled']);
    const list = await json(['boleto', 'list']);
    expect(list.doc[0]).toMatchObject({ status: 'scheduled', settleDate: '2025-03-10' });
  });

  it('refuses a bill already paid in the ledger unless --force, and reports the provider’s 409 as failed', async () => {
    const { run, json, providerBills } = await setUp();
    const code = bankLine();
    expect((await run(['boleto', 'pay', code, '--yes'])).exitCode).toBe(0);
    const again = await run(['boleto', 'pay', code, '--yes']);
    expect(again.exitCode).toBe(3);
    expect(again.stderr).toMatch(/code: already paid on .* \(bill #1, transaction [\w-]+\); pass --force to pay it again/);
    const forced = await json(['boleto', 'pay', code, '--yes', '--force']);
    expect(forced.exitCode).toBe(4);
    expect(forced.doc).toMatchObject({ outcome: 'attention', counts: { failed: 1 }, bills: [{ status: 'failed', forced: true }] });
    expect(forced.doc.bills[0].message).toMatch(/already paid or scheduled at the provider.*Nothing was paid now/);
    expect(forced.doc.bills[0].hint).toMatch(/The ledger has this bill as paid \(#1\)/);
    const all = await json(['boleto', 'list', '--all']);
    expect((all.doc as BillDoc[]).map((b) => [b.id, b.status, b.forced])).toEqual([[2, 'failed', true], [1, 'paid', false]]);
    expect(await providerBills()).toHaveLength(1);
  });

  it('records a lost answer as unknown, never retries it, and refuses to pay it again without --force', async () => {
    // The sandbox draws its HTTP faults from the seed and the request number: pick a seed whose first API request
    // (the details) is answered and whose second (the payment) is applied and then loses its answer.
    const rate = 0.5;
    let seed = 1;
    while (!(new Random(seed).unit('http', 1) >= rate && new Random(seed).unit('http', 2) < rate)) seed++;
    const { run, json, providerBills } = await setUp({ args: ['--seed', String(seed), '--faults', `lostResponse=${rate}`] });
    const code = bankLine();
    const r = await json(['boleto', 'pay', code, '--yes']);
    expect(r.exitCode, r.stderr).toBe(4);
    expect(r.doc).toMatchObject({ outcome: 'attention', counts: { unknown: 1 }, bills: [{ status: 'unknown', transactionId: null }] });
    expect(r.doc.bills[0].message).toMatch(/was lost .*may or may not be paid.*will not be retried/);
    expect(r.stderr).toMatch(/Check the provider's statement, or its bill payments for the line 23791\.23454/);
    // The provider did pay it, once.
    expect((await providerBills()).map((b) => b.status)).toEqual(['paid']);

    const again = await run(['boleto', 'pay', code, '--yes']);
    expect(again.exitCode).toBe(3);
    expect(again.stderr).toMatch(/has an unknown outcome \(bill #1\).*with --force/);
    const list = await json(['boleto', 'list']);
    expect(list.doc).toMatchObject([{ id: 1, status: 'unknown', returnableUntil: null }]);
  });

  it('pays nothing from a --file with an invalid row, naming file, line and field; then pays the corrected file', async () => {
    const { dir, run, json, providerBills } = await setUp();
    const file = join(dir, 'contas.csv');
    const good = [bankLine({ tail: '0101' }), collectionLine({ tail: '0102' }), collectionLine({ valueId: 7, segment: 1, tail: '0103' })];
    writeFileSync(file, `codigo;valor;descricao\n${good[0]};;aluguel\n${good[1]};;luz\n${good[2]};;IPTU\n${good[0]!.slice(0, -1)}9;;typo\n`);
    const r = await run(['boleto', 'pay', '--file', file, '--yes']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain('2 of 4 bills in');
    expect(r.stderr).toMatch(/contas\.csv:4 amount: the code holds a reference value.*\(the amount column\)/);
    expect(r.stderr).toMatch(/contas\.csv:5 code: .*check digit/);
    expect(await providerBills()).toEqual([]);

    writeFileSync(file, `codigo;valor;descricao\n${good[0]};;aluguel\n${good[1]};;luz\n${good[2]};1.500,00;IPTU\n`);
    const ok = await json(['boleto', 'pay', '--file', file, '--yes']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.doc).toMatchObject({ outcome: 'ok', counts: { paid: 3, notAttempted: 0 } });
    expect((ok.doc.bills as { fileLine: number; description: string }[]).map((b) => [b.fileLine, b.description])).toEqual([[2, 'aluguel'], [3, 'luz'], [4, 'IPTU']]);
    expect(ok.stderr).toMatch(/\[3\/3\] .*contas\.csv:4 paid/);
    expect(await providerBills()).toHaveLength(3);

    // The same file again pays nothing: every bill is in the ledger as paid.
    const rerun = await run(['boleto', 'pay', '--file', file, '--yes']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(rerun.stdout).toMatch(/contas\.csv:2 left out: already paid on .* \(bill #1, transaction [\w-]+\)/);
    expect(rerun.stdout).toContain('Nothing to pay: every bill of the file is already paid or scheduled in the ledger.');
    expect(await providerBills()).toHaveLength(3);
  });

  it('refuses to pay without a terminal or --yes, naming the flag', async () => {
    const { run, providerBills } = await setUp();
    const r = await run(['boleto', 'pay', bankLine()]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(await providerBills()).toEqual([]);
  });

  it('refuses an invalid code before reaching the provider', async () => {
    const { run } = await setUp({ args: ['--faults', 'reset=1'] });
    // Every API request to this sandbox would fail: exit 3 (not 1) proves none was made.
    const r = await run(['boleto', 'details', '23793.38128 60007.827136 95000.063305 5 16560000150001']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/code: general check digit/);
  });
});

describe('paybatch boleto pay in a terminal', () => {
  it('asks, showing beneficiary, amount and date; "y" pays, "n" pays nothing', async () => {
    const { env, json, providerBills } = await setUp();
    const declined = await inTerminal(['boleto', 'pay', bankLine({ tail: '0201' })], env, [['Pay R$', 'n']]);
    expect(declined.answered).toBe(1);
    // The prompt wraps at the terminal's width.
    expect(declined.output).toMatch(/Pay R\$ \d+,\d\d to .+ Ltda \(\d\d\.\d{3}\.\d{3}\/0001-\d\d\),\s+(now|scheduled\s+for\s+\d{4}-\d\d-\d\d)\? \(y\/N\)/);
    expect(declined.output).toContain('Cancelled; nothing was paid.');
    expect(declined.code).toBe(1);
    expect(await providerBills()).toEqual([]);

    const accepted = await inTerminal(['boleto', 'pay', bankLine({ tail: '0202' })], env, [['Pay R$', 'y']]);
    expect(accepted.answered).toBe(1);
    expect(accepted.code, accepted.output).toBe(0);
    expect(accepted.output).toMatch(/✓ Paid R\$ \d+,\d\d to .+ Ltda \(transaction /);
    expect((await providerBills()).map((b) => b.status)).toEqual(['paid']);
    expect((await json(['boleto', 'list'])).doc).toHaveLength(1);
  });
});
