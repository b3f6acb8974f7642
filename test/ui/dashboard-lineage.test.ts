import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { storedAlertWords } from '../../src/alerts/alert.js';
import { openLedger, type Ledger } from '../../src/ledger/open-ledger.js';
import { buildDashboardApp, type DashboardCompany } from '../../src/ui/dashboard-server.js';
import { monthRows } from '../helpers/month-ledger.js';
import { usePostgresDatabases } from '../helpers/postgres.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { HOST, REPORTS, TOKEN, useOpened } from './dashboard-fixture.js';

const tempDir = useTempDir();
const postgresDatabase = usePostgresDatabases();
const opened = useOpened();

const ACME: DashboardCompany = { payer: { name: 'Acme Ltda', document: '12345678000195' }, account: null, eventReading: {} };

/**
 * Batch #1 "Folha nov": six rows (lines 2–7, R$ 10,01 … 10,06) imported on 2 November. Line 2 paid; line 3 failed,
 * then paid by `batch retry` in batch #2; line 4 paid; line 5 paid, returned on 1 December; line 6 still under way;
 * line 7 paid, returned by a Pix instability, then paid again by reprocessing in batch #3.
 */
async function month(ledger: Ledger): Promise<void> {
  await monthRows(ledger, { thirdPaidAt: '2026-11-03T16:00:00.000Z' });
}

async function dashboard(o: { locale?: 'en' | 'pt-BR'; backend?: 'sqlite' | 'postgres'; company?: DashboardCompany } = {}) {
  const locale = o.locale ?? 'en';
  const ledger = await openLedger((o.backend ?? 'sqlite') === 'sqlite' ? join(tempDir(), 'ledger.db') : await postgresDatabase());
  opened.push(ledger);
  await month(ledger);
  const { app } = buildDashboardApp({
    ledger, locale, alertWords: (a) => storedAlertWords(a, locale), reports: REPORTS, company: o.company, profile: 'acme', token: TOKEN, hosts: [HOST],
    now: () => new Date('2026-12-02T12:00:00.000Z'),
  });
  opened.push(app);
  const first = await app.inject({ method: 'GET', url: `/?token=${TOKEN}`, headers: { host: HOST } });
  const cookie = String(first.headers['set-cookie']).split(';')[0]!;
  const get = (url: string) => app.inject({ method: 'GET', url, headers: { host: HOST, cookie } });
  return { app: app as FastifyInstance, get, json: async (url: string) => (await get(url)).json() };
}

type Step = { batchId: number; here: boolean; text: string };
type Item = { line: number; status: string; lineage: { outcome: string; text: string; steps: Step[]; lineage: { paidIn: number | null } } | null };

describe.each(['sqlite', 'postgres'] as const)('paybatch ui: every row’s story (%s ledger)', (backend) => {
  it('tells, beside the rows paid again, where they were paid, each other batch a link; the others say nothing more', async () => {
    const { json } = await dashboard({ locale: 'pt-BR', backend });
    const items: Item[] = (await json('/api/batches/1/items')).items;
    expect(items.map((i) => [i.line, i.status, i.lineage?.text ?? null])).toEqual([
      [2, 'paid', null],
      [3, 'failed', 'falhou no lote #1; pago depois no lote #2'],
      [4, 'paid', null],
      [5, 'returned', null], // returned for good: its one payment, in this batch
      [6, 'resolved', null],
      [7, 'returned', 'devolvido no lote #1; reprocessado e pago no lote #3'],
    ]);
    const line3 = items.find((i) => i.line === 3)!.lineage!;
    expect(line3.outcome).toBe('paid');
    expect(line3.lineage.paidIn).toBe(2);
    expect(line3.steps).toEqual([
      { batchId: 1, here: true, text: 'falhou no lote #1' },
      { batchId: 2, here: false, text: 'pago depois no lote #2' },
    ]);
    // From the retry batch, the same story: now the first payment is the other batch's.
    const retried: Item[] = (await json('/api/batches/2/items')).items;
    expect(retried.map((i) => [i.line, i.lineage?.steps])).toEqual([
      [3, [{ batchId: 1, here: false, text: 'falhou no lote #1' }, { batchId: 2, here: true, text: 'pago depois no lote #2' }]],
    ]);
    const reprocessed: Item[] = (await json('/api/batches/3/items')).items;
    expect(reprocessed.map((i) => [i.line, i.lineage?.steps])).toEqual([
      [7, [{ batchId: 1, here: false, text: 'devolvido no lote #1' }, { batchId: 3, here: true, text: 'reprocessado e pago no lote #3' }]],
    ]);
  });

  it('splits what a batch paid itself from what later batches paid of its rows, in count and amount per batch', async () => {
    const { json } = await dashboard({ locale: 'en', backend });
    expect((await json('/api/batches/1')).batch.paidWhere).toEqual({
      paidHere: { count: 2, cents: 1001 + 1003, amount: 'R$ 20,04' }, // lines 2 and 4
      paidElsewhere: [
        expect.objectContaining({ batchId: 2, batchName: 'Folha nov retry 2026-11-04', count: 1, cents: 1002, amount: 'R$ 10,02', text: 'paid later in batch #2' }),
        expect.objectContaining({ batchId: 3, batchName: 'Reprocess 2026-11-07', count: 1, cents: 1006, amount: 'R$ 10,06', text: 'reprocessed and paid in batch #3' }),
      ],
    });
    expect((await json('/api/batches/2')).batch.paidWhere).toEqual({ paidHere: { count: 1, cents: 1002, amount: 'R$ 10,02' }, paidElsewhere: [] });
    expect((await json('/api/batches/3')).batch.paidWhere).toEqual({ paidHere: { count: 1, cents: 1006, amount: 'R$ 10,06' }, paidElsewhere: [] });
    // In English, the lineage's own words of a row, and the batches' names as stored.
    const items: Item[] = (await json('/api/batches/1/items?q=7')).items;
    expect(items.map((i) => i.lineage?.text)).toEqual(['returned in batch #1; reprocessed and paid in batch #3']);
  });
});

describe('paybatch ui: the period statement', () => {
  it('downloads a month as CSV, XLSX and PDF named for the profile and the month, in the dashboard’s language', async () => {
    const { get } = await dashboard({ locale: 'en', company: ACME });
    const csv = await get('/api/statement?month=2026-11&format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="acme-statement-2026-11.csv"');
    const lines = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[1]).toBe('Profile,acme');
    expect(lines[2]).toContain('Acme Ltda');
    // November's rows: line 2 and 4 paid here, 3 paid by the retry, 6 still open, 7 paid by reprocessing (5's return is December's).
    const pix = lines.filter((l) => /^Pix,\d/.test(l)); // the totals follow as Pix,Count,… Pix,Amount,…
    expect(pix.map((l) => l.split(',').slice(1, 3))).toEqual([['1', '2'], ['1', '3'], ['1', '4'], ['1', '6'], ['1', '7']]);
    expect(pix[1]).toContain('failed in batch #1; paid later in batch #2');
    expect(lines.filter((l) => /^Pix,(Count|Amount),/.test(l)).map((l) => l.split(',').slice(1, 3))).toEqual([['Count', '5'], ['Amount', '50.17']]);

    const xlsx = await get('/api/statement?month=2026-11&format=xlsx');
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.headers['content-disposition']).toBe('attachment; filename="acme-statement-2026-11.xlsx"');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const pdf = await get('/api/statement?from=2026-11-01&to=2026-11-04&format=pdf');
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe('attachment; filename="acme-statement-2026-11-01-to-2026-11-04.pdf"');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const { get: getPt } = await dashboard({ locale: 'pt-BR', company: ACME });
    const pt = (await getPt('/api/statement?from=2026-11-01&to=2026-11-04&format=csv')).body.replace(/^\uFEFF/, '').split('\r\n');
    expect(pt[1]).toBe('Perfil;acme');
    // Only the rows whose story ended (or began, still open) from 1 to 4 November: lines 2 and 4 paid, 6 sent.
    expect(pt.filter((l) => /^Pix;\d/.test(l)).map((l) => l.split(';')[2])).toEqual(['2', '4', '6']);
  });

  it('downloads the OFX of the company’s account, and refuses it, naming the settings, when the profile has none', async () => {
    const { get } = await dashboard({ company: ACME });
    const refused = await get('/api/statement?month=2026-11&format=ofx');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ error: 'unprocessable', code: 'statement_account_unset', profile: 'acme' });
    expect(refused.json().message).toContain('companyBank, companyBranch, companyAccount');
    expect(refused.json().message).toContain('paybatch --profile acme config set companyBank');

    const { get: withAccount } = await dashboard({ company: { ...ACME, account: { bank: '341', branch: '1234', account: '12345-6' } } });
    const ofx = await withAccount('/api/statement?month=2026-11&format=ofx');
    expect(ofx.statusCode).toBe(200);
    expect(ofx.headers['content-type']).toBe('application/x-ofx');
    expect(ofx.headers['content-disposition']).toBe('attachment; filename="acme-statement-2026-11.ofx"');
    expect(ofx.body).toContain('<BANKID>341');
    expect(ofx.body).toContain('<ACCTID>12345-6');
    // November's money: lines 2, 4, 5 and 7 paid, 7 returned, the retry and the reprocessing paid.
    expect(ofx.body.match(/<STMTTRN>/g)).toHaveLength(7);
  });

  it('answers 400 with a code and a message that says what to give, for a bad format or period', async () => {
    const { get } = await dashboard();
    const problem = async (query: string) => {
      const res = await get(`/api/statement?${query}`);
      return { status: res.statusCode, ...(res.json() as { code: string; message: string }) };
    };
    expect(await problem('month=2026-11&format=doc')).toMatchObject({ status: 400, code: 'statement_format_invalid', message: 'format must be pdf, xlsx, csv or ofx, not "doc".' });
    expect(await problem('month=2026-11')).toMatchObject({ status: 400, code: 'statement_format_invalid', message: 'format must be pdf, xlsx, csv or ofx, not "".' });
    expect(await problem('format=pdf')).toMatchObject({ status: 400, code: 'statement_period_missing', message: 'Give the period: month=YYYY-MM, or from=YYYY-MM-DD and to=YYYY-MM-DD.' });
    expect(await problem('format=pdf&from=2026-11-01')).toMatchObject({ status: 400, code: 'statement_period_missing' });
    expect(await problem('format=pdf&month=2026-11&from=2026-11-01')).toMatchObject({ status: 400, code: 'statement_period_twice', message: 'Give month, or from and to, not both.' });
    expect(await problem('format=pdf&month=2026-13')).toMatchObject({ status: 400, code: 'statement_month_invalid', message: 'month must be a month as YYYY-MM (e.g. 2026-11), not "2026-13".' });
    expect(await problem('format=csv&from=2026-02-30&to=2026-03-01')).toMatchObject({ status: 400, code: 'statement_day_invalid', field: 'from', message: 'from must be a day as YYYY-MM-DD (e.g. 2026-11-01), not "2026-02-30".' });
    expect(await problem('format=csv&from=2026-11-01&to=30/11/2026')).toMatchObject({ status: 400, code: 'statement_day_invalid', field: 'to' });
    expect(await problem('format=csv&from=2026-11-30&to=2026-11-01')).toMatchObject({ status: 400, code: 'statement_period_reversed', message: 'from (2026-11-30) is after to (2026-11-01).' });
    // February of a leap year ends on the 29th.
    const leap = await get('/api/statement?month=2028-02&format=csv');
    expect(leap.body).toContain('2028-02-01');
    expect(leap.body).toContain('2028-02-29');
  });
});
