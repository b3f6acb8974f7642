import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { month } from '../helpers/month-ledger.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { runCli } from '../helpers/test-io.js';

const tempDir = useTempDir();

async function withMonth(): Promise<{ env: Record<string, string>; ledger: string }> {
  const dir = tempDir();
  const ledger = join(dir, 'ledger.db');
  const l = await openLedger(ledger);
  await month(l);
  await l.close();
  return { ledger, env: { XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir } };
}

// The month of test/helpers/month-ledger.ts: batch #1's six rows; row 2 paid by `batch retry` (#2), row 6 by reprocessing (#3).
describe("a batch's rows and where they were paid", () => {
  it('batch show tells paid here from paid later, with the batch that paid', async () => {
    const { env, ledger } = await withMonth();
    const json = await runCli(['--ledger', ledger, 'batch', 'show', '1', '--json'], { env });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).lineage).toEqual({
      rows: 6,
      resent: 2,
      paidHere: { count: 2, cents: 1001 + 1003 },
      paidElsewhere: [
        { batchId: 2, batchKind: 'sheet', batchName: 'Folha nov retry 2026-11-04', count: 1, cents: 1002, payment: { itemId: 7, batchId: 2, kind: 'retry', status: 'paid', reason: null, at: '2026-11-05T15:00:00.000Z' } },
        { batchId: 3, batchKind: 'reprocess', batchName: 'Reprocess 2026-11-07', count: 1, cents: 1006, payment: { itemId: 8, batchId: 3, kind: 'reprocess', status: 'paid', reason: null, at: '2026-11-08T15:00:00.000Z' } },
      ],
      failed: { count: 0, cents: 0 },
      returned: { count: 1, cents: 1004 },
      open: { count: 1, cents: 1005 },
    });
    const human = await runCli(['--ledger', ledger, 'batch', 'show', '1'], { env: { ...env, LC_ALL: 'pt_BR.UTF-8' } });
    expect(human.stdout).toContain('Linhas: 6 — pagas aqui 2; pagas depois no lote #2: 1 (R$ 10,02); pagas depois no lote #3: 1 (R$ 10,06); devolvidas 1; em aberto 1.');
    // The retry batch's one row was paid there.
    expect(JSON.parse((await runCli(['--ledger', ledger, 'batch', 'show', '2', '--json'], { env })).stdout).lineage).toMatchObject({ rows: 1, paidHere: { count: 1, cents: 1002 }, paidElsewhere: [] });
  });

  it("batch items tells each row's story where it was sent more than once", async () => {
    const { env, ledger } = await withMonth();
    const r = await runCli(['--ledger', ledger, 'batch', 'items', '1'], { env });
    // Piped, the table is tab-separated: one row a line, its sheet line first.
    const line = (n: number) => r.stdout.split('\n').find((l) => l.startsWith(`${n}\t`)) ?? '';
    expect(line(3)).toContain('failed in batch #1; paid later in batch #2');
    expect(line(7)).toContain('returned in batch #1; reprocessed and paid in batch #3');
    expect(line(2)).not.toContain('batch #');
    const items = JSON.parse((await runCli(['--ledger', ledger, 'batch', 'items', '1', '--json'], { env })).stdout) as { line: number; lineage?: { paidIn: number | null } }[];
    expect(items.map((i) => [i.line, i.lineage?.paidIn ?? null])).toEqual([[2, null], [3, 2], [4, null], [5, null], [6, null], [7, 3]]);
  });
});
