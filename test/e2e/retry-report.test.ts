import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paybatch, userEnv } from '../helpers/e2e.js';
import { writeSheet } from '../helpers/sheets.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();

interface ItemDoc {
  line: number;
  identifier: string;
  status: string;
  receipt: string | null;
}

describe('re-paying what failed, and the report (end to end, embedded sandbox)', () => {
  it('retries the failed rows once even across a kill, exports them as a sheet, reports and finds receipts', async () => {
    const dir = tempDir();
    // The embedded sandbox rejects about half the items (each identifier's fate is drawn from the seed).
    const env = userEnv(dir, { PAYBATCH_SANDBOX_SPEED: '600', PAYBATCH_SANDBOX_FAULTS: 'failed=0.5', PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts'), LC_ALL: 'en_US.UTF-8' });
    const sheet = writeSheet(join(dir, 'folha.csv'), 12);
    expect((await paybatch(['import', sheet, '--start', '--yes'], { env })).exitCode).toBe(0);
    const settle = await paybatch(['daemon', '--listen', '127.0.0.1:0', '--interval', '0.5', '--until-settled', '--timeout', '60s'], { env, timeout: 90_000 });
    expect([0, 4], settle.stderr.slice(-2000)).toContain(settle.exitCode);
    const items = (): Promise<ItemDoc[]> => paybatch(['batch', 'items', '1', '--json'], { env }).then((r) => JSON.parse(r.stdout) as ItemDoc[]);
    const before = await items();
    const failed = before.filter((i) => i.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length + before.filter((i) => i.status === 'paid').length).toBe(12);

    // The failed rows as a sheet to fix by hand: the import's own columns, which the import accepts.
    const exported = await paybatch(['batch', 'export', '1', '--status', 'failed'], { env });
    expect(exported.exitCode, exported.stderr).toBe(0);
    const fixFile = join(dir, 'fix.csv');
    execFileSync('sh', ['-c', 'cat > "$1"', 'sh', fixFile], { input: exported.stdout });
    expect(exported.stdout.split('\r\n')[0]).toBe('\uFEFFkey,key_type,amount,description,identifier,name,document,reason');
    expect(exported.stdout.trim().split('\r\n')).toHaveLength(failed.length + 1);
    const checked = await paybatch(['import', fixFile, '--check', '--json'], { env });
    expect(checked.exitCode, checked.stderr).toBe(0);
    expect(JSON.parse(checked.stdout).totals.count).toBe(failed.length);

    // Killed right after the retry batch is written, before anything is sent: the next run sends that batch.
    const killed = await paybatch(['batch', 'retry', '1', '--status', 'failed', '--start', '--yes', '--json'], { env: { ...env, PAYBATCH_CRASH_AT: 'retry-write:1' } });
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    const resumed = await paybatch(['batch', 'retry', '1', '--status', 'failed', '--start', '--yes', '--json'], { env });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ outcome: 'resumed', sourceBatchId: 1, batch: { id: 2, status: 'started', items: failed.length } });
    const again = await paybatch(['batch', 'retry', '1', '--json', '--yes'], { env });
    expect(JSON.parse(again.stdout)).toMatchObject({ outcome: 'already-retried', batch: { id: 2 } });
    const batches = JSON.parse((await paybatch(['batch', 'list', '--json'], { env })).stdout) as { id: number }[];
    expect(batches.map((b) => b.id)).toEqual([2, 1]);
    // The rows under way are not exported again.
    expect((await paybatch(['batch', 'export', '1', '--status', 'failed'], { env })).stdout.trim().split('\r\n')).toHaveLength(1);

    const retried = JSON.parse((await paybatch(['batch', 'items', '2', '--json'], { env })).stdout) as ItemDoc[];
    expect(retried.map((i) => i.line)).toEqual(failed.map((i) => i.line));
    expect(retried.filter((i) => failed.some((f) => f.identifier === i.identifier))).toEqual([]);

    // The report of the first batch, with its receipts, and the receipts found by item.
    const report = await paybatch(['report', '1', '--format', 'pdf', '--zip', '--out', join(dir, 'reports'), '--json'], { env });
    expect(report.exitCode, report.stderr).toBe(0);
    const doc = JSON.parse(report.stdout);
    const paid = before.filter((i) => i.status === 'paid');
    // Named by the profile and the batch ("folha <day it was imported>"), so no other profile's report replaces it.
    expect(doc).toMatchObject({ payments: 12, receipts: paid.length });
    expect(dirname(doc.file)).toBe(join(dir, 'reports'));
    expect(basename(doc.file)).toMatch(/^default-batch-1-folha-\d{4}-\d{2}-\d{2}-report\.zip$/);
    const listing = execFileSync('unzip', ['-l', doc.file], { encoding: 'utf8' });
    expect(listing).toMatch(/default-batch-1-folha-\d{4}-\d{2}-\d{2}-report\.pdf/);
    expect(listing.match(/receipts\/\S+\.pdf/g)).toHaveLength(paid.length);

    const listed = JSON.parse((await paybatch(['receipts', 'list', '1', '--json'], { env })).stdout) as { item: number; path: string; line: number }[];
    expect(listed.map((r) => r.line)).toEqual(paid.map((i) => i.line));
    const opened = await paybatch(['receipts', 'open', paid[0]!.identifier, '--print'], { env });
    expect(opened.exitCode, opened.stderr).toBe(0);
    expect(opened.stdout.trim()).toBe(paid[0]!.receipt);
    expect(readFileSync(opened.stdout.trim()).subarray(0, 5).toString()).toBe('%PDF-');
    const unknown = await paybatch(['receipts', 'open', 'no-such-item'], { env });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('No saved receipt for "no-such-item" in the ledger.');

    // In Portuguese for a Brazilian user; the ledger's own check finds the retry batch consistent.
    const pt = { ...env, LC_ALL: 'pt_BR.UTF-8' };
    const ptAgain = await paybatch(['batch', 'retry', '1', '--yes'], { env: pt });
    expect(ptAgain.stdout).toContain('O lote #1 não tem mais linhas a pagar de novo; a última repetição é o lote #2');
    const ptReport = await paybatch(['report', '1', '--out', join(dir, 'reports')], { env: pt });
    expect(ptReport.exitCode, ptReport.stderr).toBe(0);
    const csvReport = readdirSync(join(dir, 'reports')).find((f) => f.endsWith('-report.csv'))!;
    expect(ptReport.stdout).toContain(join(dir, 'reports', csvReport));
    const reportLines = readFileSync(join(dir, 'reports', csvReport), 'utf8').split('\r\n');
    expect(reportLines[0]).toBe(
      '\uFEFFLinha;Nome;Documento;Chave Pix;Valor;Situação;Motivo;Criado em (horário de São Paulo);Concluído em (horário de São Paulo);Identificador (E2E);Comprovante;Histórico',
    );
    // Batch #1's failed rows were paid again by the retry, batch #2: each says so in its last column.
    const failedRows = reportLines.filter((l) => l.includes(';falhou;'));
    expect(failedRows.length).toBeGreaterThan(0);
    // The cell holds a ';', so the CSV quotes it.
    for (const l of failedRows) expect(l).toMatch(/;"falhou no lote #1; (pago depois no lote #2|nova tentativa no lote #2: [a-zé ]+)"$/);
    const check = await paybatch(['ledger', 'check', '--json'], { env });
    expect(check.exitCode, check.stdout).toBe(0);
  }, 180_000);
});
