import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { writeBatchReport } from '../../src/engine/reports/batch-report.js';
import { exportBatchRows } from '../../src/engine/reports/export-batch.js';
import type { BatchReport } from '../../src/reports/batch-report.js';
import { reportRenderer } from '../../src/reports/report-renderer.js';
import { paymentSheetCsv } from '../../src/sheet/payment-sheet-csv.js';
import { checkSheet } from '../../src/engine/pix-import/check-sheet.js';
import { sqliteOf, type Ledger } from '../../src/ledger/open-ledger.js';
import { pdfText } from '../sandbox/pdf-text.js';
import { ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const t0 = new Date('2026-11-20T12:00:00Z');
const now = new Date('2026-11-23T15:30:00Z');

/**
 * Batch 1 "Folha", lines 2–4 (items of R$ 10,01, 10,02, 10,03 to p1..p3@example.com): paid at 13:05 UTC with an
 * end-to-end id and a receipt on disk, failed (AB02) with a name typed as a formula, still processing.
 */
async function reportLedger(dir: string): Promise<{ ledger: Ledger; receipt: string }> {
  const { ledger } = await ledgerWithStartedBatch(dir, 3, t0);
  const receipt = join(dir, 'receipts', '2-Ana-Souza-E123.pdf');
  execFileSync('mkdir', ['-p', join(dir, 'receipts')]);
  writeFileSync(receipt, '%PDF-1.4 receipt of line 2 %%EOF');
  const run = (sql: string, ...args: unknown[]) => sqliteOf(ledger).prepare(sql).run(...args);
  run("UPDATE items SET status = 'paid', end_to_end_id = 'E123', receipt_path = ?, status_changed_at = '2026-11-20T13:05:00Z', sheet_name = 'Ana Souza', sheet_document = '52998224725' WHERE id = 1", receipt);
  run("UPDATE items SET status = 'failed', reason = 'AB02', status_changed_at = '2026-11-20T13:06:00Z', sheet_name = '=HYPERLINK(\"x\")' WHERE id = 2");
  run("UPDATE items SET status = 'processing' WHERE id = 3");
  return { ledger, receipt };
}

describe('paybatch report', () => {
  it('CSV in English: one line per payment with São Paulo times, then totals by status; private file', async () => {
    const dir = tempDir();
    const { ledger, receipt } = await reportLedger(dir);
    const r = await writeBatchReport(ledger, { batchId: 1, renderer: reportRenderer('csv', 'en'), dir: join(dir, 'out'), zip: false, now, profile: 'default' });
    expect(r.file).toBe(join(dir, 'out', 'default-batch-1-folha-report.csv'));
    expect(statSync(r.file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'out')).mode & 0o777).toBe(0o700);
    const text = readFileSync(r.file, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const table = parse(text.slice(1), { relax_column_count: true }) as string[][];
    expect(table[0]).toEqual(['Line', 'Name', 'Document', 'Pix key', 'Amount', 'Status', 'Reason', 'Created (São Paulo time)', 'Settled (São Paulo time)', 'End-to-end id', 'Receipt', 'Story']);
    expect(table.slice(1, 4)).toEqual([
      ['2', 'Ana Souza', '52998224725', 'p1@example.com', '10.01', 'paid', '', '2026-11-20 09:00', '2026-11-20 10:05', 'E123', receipt, ''],
      ['3', `'=HYPERLINK("x")`, '***.456.789-**', 'p2@example.com', '10.02', 'failed', 'AB02', '2026-11-20 09:00', '2026-11-20 10:06', '', '', ''],
      ['4', 'Ana Souza', '***.456.789-**', 'p3@example.com', '10.03', 'processing', '', '2026-11-20 09:00', '', '', '', ''],
    ]);
    expect(table.slice(5)).toEqual([
      ['Status', 'Payments', 'Amount'],
      ['failed', '1', '10.02'],
      ['paid', '1', '10.01'],
      ['processing', '1', '10.03'],
      ['Total', '3', '30.06'],
    ]);
  });

  it('XLSX: amounts are numbers in a currency format, dates are dates (São Paulo wall clock), totals on a sheet of their own', async () => {
    const dir = tempDir();
    const { ledger } = await reportLedger(dir);
    const r = await writeBatchReport(ledger, { batchId: 1, renderer: reportRenderer('xlsx', 'pt-BR'), dir, zip: false, now, profile: 'default' });
    expect(statSync(r.file).mode & 0o777).toBe(0o600);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(r.file);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(5).value).toBe('Valor');
    expect(sheet.getRow(2).getCell(2).value).toBe('Ana Souza');
    expect(sheet.getRow(2).getCell(5).value).toBe(10.01);
    expect(sheet.getRow(2).getCell(5).numFmt).toBe('"R$" #,##0.00');
    expect(sheet.getRow(2).getCell(6).value).toBe('pago');
    expect(sheet.getRow(2).getCell(9).value).toEqual(new Date('2026-11-20T10:05:00Z'));
    expect(sheet.getRow(2).getCell(9).numFmt).toBe('dd/mm/yyyy hh:mm');
    expect(sheet.getRow(4).getCell(9).value).toBe(null);
    const totals = book.worksheets[1]!;
    expect(totals.name).toBe('Totais por situação');
    expect([5].map((n) => totals.getRow(n).values)).toEqual([[undefined, 'Total', 3, 30.06]]);
    expect(totals.getRow(2).values).toEqual([undefined, 'falhou', 1, 10.02]);
    for (const n of [2, 3, 4, 5]) expect(totals.getRow(n).getCell(3).numFmt).toBe('"R$" #,##0.00');
  });

  it('PDF in pt-BR: a consolidated statement with Portuguese labels, DD/MM/AAAA dates and the totals', async () => {
    const dir = tempDir();
    const { ledger } = await reportLedger(dir);
    const r = await writeBatchReport(ledger, { batchId: 1, renderer: reportRenderer('pdf', 'pt-BR'), dir, zip: false, now, profile: 'default' });
    const text = pdfText(readFileSync(r.file));
    for (const expected of ['Extrato consolidado', 'Lote #1 "Folha" · Id no provedor remote-1', 'Gerado em 23/11/2026 12:30 (horário de São Paulo)', 'Totais por situação', 'falhou', 'R$ 10,02', 'Total', 'R$ 30,06', 'Concluído em', '20/11/2026', 'Ana Souza', 'em processamento', 'E123']) {
      expect(text).toContain(expected);
    }
    // Counts are numbers in a column of their own, right-aligned like the amounts: no "3 ×" beside "13×".
    expect(text.split('\n')).toEqual(expect.arrayContaining(['Total', '3', 'R$ 30,06']));
    expect(text).not.toContain('×');
    // The failed row's reason, in the Banco Central's words.
    expect(text).toContain('Motivo: AB02');
  });

  it('PDF: the payer line, masked documents, reasons in the locale, end-to-end ids and where a row was paid later', async () => {
    const line = { name: 'Carla Dias', key: 'carla@example.com', createdAt: '2026-11-05T12:00:00Z', receipt: null } as const;
    const report: BatchReport = {
      batch: { id: 2, kind: 'sheet', name: 'Folha nov', remoteId: null },
      payer: { name: 'ACME Pagamentos Ltda', document: '11222333000181' },
      generatedAt: '2026-11-23T15:30:00Z',
      lines: [
        {
          ...line, line: 2, document: '39053344705', amountCents: 210000, status: 'failed', reason: 'AC06', settledAt: '2026-11-05T12:02:40Z', endToEndId: 'E11222333202611051202CAR00000013',
          lineage: { batchId: 2, line: 2, paidIn: 4, payments: [
            { itemId: 13, batchId: 2, kind: 'sheet', status: 'failed', reason: 'AC06', at: '2026-11-05T12:02:40Z' },
            { itemId: 41, batchId: 4, kind: 'retry', status: 'paid', reason: null, at: '2026-11-10T14:00:00Z' },
          ] },
        },
        {
          ...line, line: 3, name: 'Ana Souza', document: '52998224725', key: 'ana@example.com', amountCents: 150000, status: 'paid', reason: null, settledAt: '2026-11-05T12:01:30Z', endToEndId: 'E11222333202611051201ANA00000011',
          lineage: { batchId: 2, line: 3, paidIn: 2, payments: [{ itemId: 14, batchId: 2, kind: 'sheet', status: 'paid', reason: null, at: '2026-11-05T12:01:30Z' }] },
        },
      ],
      totals: [{ status: 'failed', count: 1, sumCents: 210000 }, { status: 'paid', count: 1, sumCents: 150000 }],
      count: 2,
      sumCents: 360000,
    };
    const text = pdfText(await reportRenderer('pdf', 'pt-BR').render(report)).replaceAll('\n', ' ');
    for (const expected of [
      'Lote #2 "Folha nov"', 'Pagador: ACME Pagamentos Ltda · 11.222.333/0001-81', '***.533.447-**', '***.982.247-**',
      'E11222333202611051202CAR00000013', 'E11222333202611051201ANA00000011',
      'Motivo: AC06 - Conta transacional do usuário recebedor encontra-se bloqueada · Histórico: falhou no lote #2; pago depois no lote #4',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('39053344705');
    // A row paid in its own batch has no lineage line.
    expect(text).not.toContain('pago no lote #2');
    const english = pdfText(await reportRenderer('pdf', 'en').render(report)).replaceAll('\n', ' ');
    expect(english).toContain('Payer: ACME Pagamentos Ltda · 11.222.333/0001-81');
    expect(english).toContain('Reason: AC06 · Lineage: failed in batch #2; paid later in batch #4');
  });

  it('PDF: a long batch flows onto more pages, every payment on one of them', async () => {
    const dir = tempDir();
    const { ledger } = await ledgerWithStartedBatch(dir, 120, t0);
    const r = await writeBatchReport(ledger, { batchId: 1, renderer: reportRenderer('pdf', 'en'), dir, zip: false, now, profile: 'default' });
    const pdf = readFileSync(r.file);
    expect(pdf.toString('latin1').match(/\/Type \/Page\b/g)!.length).toBeGreaterThanOrEqual(4);
    const text = pdfText(pdf);
    // Lines 2–121 (p1..p120@example.com), R$ 10,01 to R$ 11,20 in all: 120 × 1000 + (1 + … + 120) centavos.
    for (const n of [1, 60, 120]) expect(text).toContain(`p${n}@example.com`);
    expect(text).toContain('R$ 1.272,60');
  });

  it('--zip bundles the report with every receipt of the batch', async () => {
    const dir = tempDir();
    const { ledger } = await reportLedger(dir);
    const r = await writeBatchReport(ledger, { batchId: 1, renderer: reportRenderer('csv', 'en'), dir, zip: true, now, profile: 'default' });
    expect(r.file).toBe(join(dir, 'default-batch-1-folha-report.zip'));
    expect(r.receipts).toBe(1);
    expect(statSync(r.file).mode & 0o777).toBe(0o600);
    const listing = execFileSync('unzip', ['-l', r.file], { encoding: 'utf8' });
    expect(listing).toContain('default-batch-1-folha-report.csv');
    expect(listing).toContain('receipts/2-Ana-Souza-E123.pdf');
    expect(execFileSync('unzip', ['-p', r.file, 'receipts/2-Ana-Souza-E123.pdf'], { encoding: 'latin1' })).toBe('%PDF-1.4 receipt of line 2 %%EOF');
    // Inside the bundle, the report names each receipt by its place in the zip.
    expect(execFileSync('unzip', ['-p', r.file, 'default-batch-1-folha-report.csv'], { encoding: 'utf8' })).toContain(',E123,receipts/2-Ana-Souza-E123.pdf');
  });
});

describe('report file names', () => {
  it('carry the profile and the batch name: two profiles with the same local batch id write two files to one folder', async () => {
    const out = join(tempDir(), 'rep');
    const carga = await ledgerWithStartedBatch(tempDir(), 2, t0);
    const real = await ledgerWithStartedBatch(tempDir(), 1, t0);
    sqliteOf(carga.ledger).prepare("UPDATE batches SET name = 'Folha Novembro/2026 — ação'").run();
    const first = await writeBatchReport(carga.ledger, { batchId: 1, renderer: reportRenderer('csv', 'en'), dir: out, zip: false, now, profile: 'carga' });
    const second = await writeBatchReport(real.ledger, { batchId: 1, renderer: reportRenderer('csv', 'en'), dir: out, zip: false, now, profile: 'Empresa Real' });
    expect(first.file).toBe(join(out, 'carga-batch-1-folha-novembro-2026-acao-report.csv'));
    expect(second.file).toBe(join(out, 'empresa-real-batch-1-folha-report.csv'));
    expect(readFileSync(first.file, 'utf8')).toContain('p2@example.com');
    expect(readFileSync(second.file, 'utf8')).not.toContain('p2@example.com');
  });

  it('never replace a file: the same report twice is two files, the first unchanged; --force replaces it', async () => {
    const dir = tempDir();
    const { ledger } = await reportLedger(dir);
    const out = join(dir, 'rep');
    const report = (o: { force?: boolean } = {}) => writeBatchReport(ledger, { batchId: 1, renderer: reportRenderer('csv', 'en'), dir: out, zip: false, now, profile: 'carga', ...o });
    const first = await report();
    const before = readFileSync(first.file, 'utf8');
    sqliteOf(ledger).prepare("UPDATE items SET status = 'paid' WHERE id = 3").run();
    const second = await report();
    expect(first.file).toBe(join(out, 'carga-batch-1-folha-report.csv'));
    expect(second.file).toBe(join(out, 'carga-batch-1-folha-report-2.csv'));
    expect(readFileSync(first.file, 'utf8')).toBe(before);
    expect(readFileSync(second.file, 'utf8')).toContain('p3@example.com,10.03,paid');
    expect((await report()).file).toBe(join(out, 'carga-batch-1-folha-report-3.csv'));
    expect(statSync(second.file).mode & 0o777).toBe(0o600);

    const forced = await report({ force: true });
    expect(forced.file).toBe(first.file);
    expect(readFileSync(first.file, 'utf8')).toContain('p3@example.com,10.03,paid');
    // No temporary file is left behind by the writes that found their name taken.
    expect(readdirSync(out).sort()).toEqual(['carga-batch-1-folha-report-2.csv', 'carga-batch-1-folha-report-3.csv', 'carga-batch-1-folha-report.csv']);
  });
});

describe('paybatch batch export', () => {
  it('writes the failed rows as a sheet in the import columns that passes the import checks', async () => {
    const dir = tempDir();
    const { ledger } = await reportLedger(dir);
    // Only an event said row 2 failed: the provider may still pay it, so it is not a row to fix yet.
    expect(await exportBatchRows(ledger, 1, ['failed'])).toEqual({ rows: [], unconfirmed: 1 });
    // Its item page says so too.
    await ledger.db.updateTable('items').set({ record_state: 'failed' }).where('id', '=', 2).execute();
    const { rows, unconfirmed } = await exportBatchRows(ledger, 1, ['failed']);
    expect([rows.length, unconfirmed]).toEqual([1, 0]);
    // The CLI writes them in the locale's columns: Portuguese here.
    const csv = paymentSheetCsv(rows, 'pt');
    const table = parse(csv.slice(1), { delimiter: ';' }) as string[][];
    expect(table).toEqual([
      ['chave', 'tipo_chave', 'valor', 'descricao', 'identificador', 'nome', 'documento', 'motivo'],
      ['p2@example.com', 'email', '10,02', 'row 2', '', `'=HYPERLINK("x")`, '', 'AB02'],
    ]);
    const file = join(dir, 'corrigir.csv');
    writeFileSync(file, csv);
    const checked = await checkSheet(file, { maxItemAmount: 5_000_000, maxBatchTotal: 100_000_000 });
    expect(checked).toMatchObject({ rows: 1, totals: { count: 1, sumCents: 1002 } });
  });
});
