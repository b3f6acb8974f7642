import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ofx } from 'ofx-data-extractor';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { month } from '../helpers/month-ledger.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { runCli } from '../helpers/test-io.js';

const tempDir = useTempDir();

/** A profile folder and a ledger holding the month of test/helpers/month-ledger.ts. */
async function withMonth(): Promise<{ dir: string; env: Record<string, string>; ledger: string }> {
  const dir = tempDir();
  const ledger = join(dir, 'ledger.db');
  const l = await openLedger(ledger);
  await month(l);
  await l.close();
  return { dir, ledger, env: { XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir } };
}

describe('paybatch report --month: the statement of a period', () => {
  it('writes the statement with totals that reconcile and each row paid elsewhere named, never over an earlier one', async () => {
    const { dir, env, ledger } = await withMonth();
    const out = join(dir, 'fechamento');
    const run = () => runCli(['--ledger', ledger, 'report', '--month', '2026-11', '--format', 'csv', '--out', out, '--json'], { env });
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    const doc = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({
      file: join(out, 'default-statement-2026-11.csv'),
      period: { from: '2026-11-01', to: '2026-11-30' },
      payments: 4,
      bills: 1,
      totals: { pix: { all: { count: 4, cents: 4014 }, paid: { count: 3, cents: 3009 }, open: { count: 1, cents: 1005 } }, bills: { paid: { count: 1, cents: 45_070 } } },
      movements: 7,
      balance: { cents: 9_876_543 },
    });
    const csv = readFileSync(join(out, 'default-statement-2026-11.csv'), 'utf8');
    expect(csv).toContain('paid later in batch #2');
    expect(csv).toContain('reprocessed and paid in batch #3');
    const again = await run();
    expect(JSON.parse(again.stdout).file).toBe(join(out, 'default-statement-2026-11-2.csv'));
    expect(readFileSync(join(out, 'default-statement-2026-11.csv'), 'utf8')).toBe(csv);
  });

  it("a batch's report names, for each row sent more than once, where it was paid", async () => {
    const { dir, env, ledger } = await withMonth();
    const r = await runCli(['--ledger', ledger, 'report', '1', '--format', 'csv', '--out', dir, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const lines = readFileSync(JSON.parse(r.stdout).file, 'utf8').split('\r\n');
    expect(lines.find((l) => l.startsWith('3,'))).toMatch(/,failed in batch #1; paid later in batch #2$/);
    expect(lines.find((l) => l.startsWith('7,'))).toMatch(/,returned in batch #1; reprocessed and paid in batch #3$/);
    expect(lines.find((l) => l.startsWith('2,'))).toMatch(/,$/);
  });

  it("says the totals as an identity in the run's language", async () => {
    const { dir, env, ledger } = await withMonth();
    const r = await runCli(['--ledger', ledger, 'report', '--from', '2026-11-01', '--to', '2026-11-30', '--format', 'pdf', '--out', dir], { env: { ...env, LC_ALL: 'pt_BR.UTF-8' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('default-statement-2026-11-01-2026-11-30.pdf: extrato de 01/11/2026 a 30/11/2026 (dias de São Paulo).');
    expect(r.stdout).toContain('Pix: 4 (R$ 40,14) = pagos 3 (R$ 30,09) + falharam 0 (R$ 0,00) + devolvidos 0 (R$ 0,00) + em aberto 1 (R$ 10,05)');
    expect(r.stdout).toContain('contas: 1 (R$ 450,70) = pagos 1 (R$ 450,70)');
  });

  it("writes OFX only for a profile that names the company's account, and a parser reads every movement", async () => {
    const { dir, env, ledger } = await withMonth();
    const refused = await runCli(['--ledger', ledger, 'report', '--month', '2026-11', '--format', 'ofx', '--out', dir, '--json'], { env });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: 'statement_account_unset' });
    expect(readdirSync(dir).filter((f) => f.endsWith('.ofx'))).toEqual([]);
    const account = { PAYBATCH_COMPANY_BANK: '341', PAYBATCH_COMPANY_BRANCH: '1234', PAYBATCH_COMPANY_ACCOUNT: '56789-0' };
    const r = await runCli(['--ledger', ledger, 'report', '--month', '2026-11', '--format', 'ofx', '--out', dir], { env: { ...env, ...account } });
    expect(r.code, r.stderr).toBe(0);
    const ofx = Ofx.fromBuffer(readFileSync(join(dir, 'default-statement-2026-11.ofx')));
    const statement = ofx.toJson().OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS;
    expect(statement.BANKACCTFROM).toMatchObject({ BANKID: '341', BRANCHID: '1234', ACCTID: '56789-0' });
    expect(ofx.getBankTransferList().map((t: Record<string, string>) => [t.FITID, t.TRNAMT])).toEqual([
      ['pix-1-paid', '-10.01'], ['pix-4-paid', '-10.04'], ['pix-7-paid', '-10.02'], ['pix-6-paid', '-10.06'], ['pix-6-returned', '10.06'], ['pix-8-paid', '-10.06'], ['bill-1-paid', '-450.70'],
    ]);
    expect(statement.LEDGERBAL.BALAMT).toBe('98765.43');
  });

  it.each([
    [[], 'report_target'],
    [['1', '--month', '2026-11'], 'report_target'],
    [['--month', '2026-11', '--from', '2026-11-01'], 'report_target'],
    [['--from', '2026-11-01'], 'report_target'],
    [['--month', '2026-13'], 'period_invalid'],
    [['--from', '2026-02-30', '--to', '2026-03-01'], 'period_invalid'],
    [['--from', '2026-11-10', '--to', '2026-11-01'], 'period_reversed'],
    [['1', '--format', 'ofx'], 'report_ofx_needs_period'],
    [['--month', '2026-11', '--zip'], 'report_zip_needs_batch'],
  ])('refuses report %j as a usage error (%s), writing nothing', async (args, code) => {
    const dir = tempDir();
    const r = await runCli(['report', ...args, '--out', dir, '--json'], { env: { XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), HOME: dir } });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ type: 'usage', code });
    expect(readdirSync(dir).filter((f) => !['c', 'd'].includes(f))).toEqual([]);
  });
});
