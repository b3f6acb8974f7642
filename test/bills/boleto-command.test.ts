import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliOnSandbox } from '../helpers/cli-on-sandbox.js';
import { runCli } from '../helpers/test-io.js';
import { bankLine, collectionLine, MONDAY_10H, SATURDAY_NIGHT } from './fixtures.js';

const setUp = useCliOnSandbox();

describe('paybatch boleto details', () => {
  it("shows the provider's details as a table", async () => {
    const { run } = await setUp(MONDAY_10H);
    const r = await run(['boleto', 'details', bankLine()]);
    expect(r.code, r.stderr).toBe(0);
    for (const s of ['bank slip (bank 237)', 'Banco Bradesco S.A.', 'beneficiary document', '2025-03-20', 'amount can change\tno', 'Inside the bank window']) expect(r.stdout).toContain(s);
  });

  it('as JSON, with the window of a utility bill (22:00)', async () => {
    const { run } = await setUp('2025-03-10T21:00:00-03:00');
    const r = await run(['boleto', 'details', collectionLine(), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      code: { kind: 'collection', kindName: 'utility bill: electricity and gas (energia elétrica e gás)', amountCents: 8745 },
      details: { beneficiary: expect.any(String), beneficiaryDocument: expect.stringMatching(/\/0001-/), originalAmountCents: 8745, canChangeAmount: false, settleDate: '2025-03-10' },
      window: { windowOpen: true, closeHour: 22 },
      problems: [],
    });
  });

  it('refuses an invalid code offline (exit 3)', async () => {
    const { run } = await setUp(MONDAY_10H);
    const r = await run(['boleto', 'details', '23793.38128', '60007.827136']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('nothing was sent to the provider');
    expect(r.stderr).toMatch(/code: must be 44/);
  });
});

describe('paybatch boleto pay (in-process)', () => {
  it('says before asking that a payment on Saturday night is scheduled, and for when', async () => {
    const { run, asked } = await setUp(SATURDAY_NIGHT);
    const r = await run(['boleto', 'pay', bankLine()], { answer: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Outside the bank window (business days 08:00–20:00, São Paulo): the payment will be scheduled for 2025-03-10 08:00.');
    expect(asked).toEqual([expect.stringMatching(/^Pay R\$ 1\d\d,\d\d to .+ Ltda \(\d\d\.\d{3}\.\d{3}\/0001-\d\d\), scheduled for 2025-03-10\?$/)]);
    expect(r.stdout).toMatch(/^◷ Scheduled: R\$ .* for 2025-03-10 \(transaction /);
  });

  it('asks once for a file, with the total', async () => {
    const { run, asked, dir } = await setUp(MONDAY_10H);
    const { writeFileSync } = await import('node:fs');
    const file = join(dir, 'contas.csv');
    writeFileSync(file, `codigo;valor\n${bankLine({ tail: '0001', amountCents: 10_000 })};\n${collectionLine({ valueId: 7 })};25,00\n`);
    const r = await run(['boleto', 'pay', '--file', file, '--json'], { answer: true });
    expect(r.code, r.stderr).toBe(0);
    expect(asked).toEqual([expect.stringMatching(/^Pay 2 bills totalling R\$ \d+,\d\d\?$/)]);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'ok', counts: { paid: 2 }, bills: [{ fileLine: 2 }, { fileLine: 3, amountPaidCents: 2500 }] });
  });

  it('boleto list --json shows what each payment was made of: original amount, discount, interest, fine', async () => {
    const { run } = await setUp(MONDAY_10H);
    // R$ 159,90 due five days ago: the sandbox charges 2% plus 1% a month pro rata, R$ 3,46, and gives no fine.
    const late = bankLine({ dueDate: '2025-03-05', amountCents: 15_990 });
    const paid = await run(['boleto', 'pay', late, '--yes', '--json']);
    expect(paid.code, paid.stderr).toBe(0);
    const listed = await run(['boleto', 'list', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ status: 'paid', amountPaidCents: 16_336, originalCents: 15_990, discountCents: 0, interestCents: 346, fineCents: null }),
    ]);
  });

  it('pays nothing when the answer is no', async () => {
    const { run } = await setUp(MONDAY_10H);
    const r = await run(['boleto', 'pay', bankLine()], { answer: false });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Cancelled; nothing was paid.');
    const list = await run(['boleto', 'list', '--all', '--json']);
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('refuses to go on without a terminal or --yes, naming the flag (exit 2)', async () => {
    const { run } = await setUp(MONDAY_10H);
    const r = await run(['boleto', 'pay', bankLine()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pass --yes');
  });

  it.each([
    [['boleto', 'pay'], /Give the bill code/],
    [['boleto', 'pay', '8368', '--file', 'x.csv'], /either a bill code or --file/],
    [['boleto', 'pay', '--file', 'x.csv', '--amount', '10'], /--amount is for one bill/],
    [['boleto', 'pay', '--file', 'missing.csv'], /Cannot read missing\.csv/],
  ])('usage: %j', async (argv, message) => {
    const r = await runCli(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

describe('paybatch boleto list (in-process)', () => {
  it('shows each bill with the date until which a return can arrive', async () => {
    const { run } = await setUp(MONDAY_10H);
    expect((await run(['boleto', 'list'])).stdout).toContain('No bills yet');
    await run(['boleto', 'pay', bankLine(), '--yes', '--description', 'aluguel']);
    const r = await run(['boleto', 'list']);
    expect(r.stdout.split('\n')[0]).toBe('#\tstatus\tbeneficiary\tamount\tdue\tsettle\treturn possible until\ttransaction\tdocument\tnote');
    expect(r.stdout).toMatch(/\n1\tpaid\t.+ Ltda\tR\$ \d+,\d\d\t2025-03-20\t2025-03-10\t2025-03-17\t[\w-]+\tpayment receipt\taluguel/);
    const [bill] = JSON.parse((await run(['boleto', 'list', '--json'])).stdout);
    expect(bill).toMatchObject({ document: 'payment', receipt: expect.stringMatching(/-payment\.pdf$/) });
  });
});
