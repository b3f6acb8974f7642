import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paybatch, startSandboxProcess, useProcesses, userEnv } from '../helpers/e2e.js';
import { writeSheet } from '../helpers/sheets.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const { sandboxes } = useProcesses();

interface Comparison {
  batchId: number;
  ledger: Record<string, { count: number; cents: number }>;
  provider: Record<string, { count: number; cents: number }>;
  differences: unknown[];
}

describe('paybatch reconcile (end to end)', () => {
  it("after the daemon settles a batch, the ledger equals the provider's record in count and centavos per state: exit 0", async () => {
    const dir = tempDir();
    const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--seed', '31', '--speed', '100', '--faults', 'failed=0.2'] });
    sandboxes.push(s);
    const env = userEnv(dir, { ...s.env(), PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts') });
    const imported = await paybatch(['import', writeSheet(join(dir, 'folha.csv'), 25), '--start', '--yes'], { env });
    expect(imported.exitCode, imported.stderr).toBe(0);
    const daemon = await paybatch(['daemon', '--interval', '1', '--until-settled', '--timeout', '60s'], { env, timeout: 90_000 });
    expect([0, 4], daemon.stderr.slice(-2000)).toContain(daemon.exitCode);

    const r = await paybatch(['reconcile', '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { agree: boolean; differences: number; batches: Comparison[] };
    expect(doc).toMatchObject({ agree: true, differences: 0 });
    expect(doc.batches).toHaveLength(1);
    const [batch] = doc.batches;
    expect(batch!.ledger).toEqual(batch!.provider);
    expect(Object.values(batch!.ledger).reduce((n, t) => n + t.count, 0)).toBe(25);
    expect(batch!.ledger['failed']?.count ?? 0).toBeGreaterThan(0);

    const human = await paybatch(['reconcile', '1'], { env: { ...env, LC_ALL: 'pt_BR.UTF-8' } });
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toContain('O registro local bate com o do provedor, item a item, em 1 lote.');

    const unknown = await paybatch(['reconcile', '99'], { env });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('No batch "99"');
  }, 120_000);
});
