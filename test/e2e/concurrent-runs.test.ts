import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bankLine as fixtureBankLine, dueDateForBothClocks, MONDAY_10H } from '../bills/fixtures.js';
import { paybatch, startSandboxProcess, useProcesses, userEnv } from '../helpers/e2e.js';
import { BACKEND, queryLedger } from '../helpers/test-ledger.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const { sandboxes } = useProcesses();

/** Two hosts, as far as the ledger can tell: two paybatch processes on one ledger at the same moment. */
async function twoHosts() {
  const dir = tempDir();
  const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--seed', '11', '--start-time', MONDAY_10H] });
  sandboxes.push(s);
  const env = userEnv(dir, s.env());
  return { dir, s, env };
}

describe(`several runs on one ledger at once (${BACKEND})`, () => {
  it('the same sheet imported by two runs at once makes one import and one batch', async () => {
    const { dir, s, env } = await twoHosts();
    const sheet = join(dir, 'folha.csv');
    writeFileSync(sheet, ['chave,valor,descricao', ...Array.from({ length: 30 }, (_, i) => `pessoa${i}@example.com,${10 + i},linha ${i}`)].join('\n'));
    const runs = await Promise.all([0, 1].map(() => paybatch(['import', sheet, '--start', '--yes', '--json'], { env })));
    // One run imports; the other either is told the sheet is being imported, or finds it imported and shows it.
    expect(runs.map((r) => r.exitCode).sort(), runs.map((r) => r.stderr).join('\n')).toContain(0);
    const imports = await queryLedger<{ n: number }>(env, 'SELECT count(*) AS n FROM imports');
    const items = await queryLedger<{ n: number; cents: number }>(env, 'SELECT count(*) AS n, sum(amount_cents) AS cents FROM items');
    expect(imports).toEqual([{ n: 1 }]);
    // 30 rows of R$ 10..39: 30 items, 73.500 centavos, once.
    expect(items).toEqual([{ n: 30, cents: (10 + 39) * 30 / 2 * 100 }]);
    const remote = await s.admin<{ batches: { name: string }[] }>('batches');
    expect(remote.batches).toHaveLength(1);
  });

  it('the same bill paid by two runs at once is paid once; the other run is refused', async () => {
    const { s, env } = await twoHosts();
    const line = fixtureBankLine({ dueDate: dueDateForBothClocks(), amountCents: 23_456 });
    const runs = await Promise.all([0, 1].map(() => paybatch(['boleto', 'pay', line, '--yes', '--json'], { env })));
    const codes = runs.map((r) => r.exitCode).sort();
    expect(codes[0], runs.map((r) => r.stderr).join('\n')).toBe(0);
    expect(codes[1]).not.toBe(0);
    const refused = runs.find((r) => r.exitCode !== 0)!;
    // Refused while the first run is sending it, or after: already paid (or scheduled, outside the bank window).
    expect(refused.stderr, refused.stderr).toMatch(/is being sent since .* by another run right now|already (paid|scheduled) on/);
    const provider = await s.admin<{ bills: { status: string }[] }>('bills');
    expect(provider.bills.map((b) => b.status)).toEqual(['paid']);
    expect(await queryLedger<{ status: string }>(env, 'SELECT status FROM bills ORDER BY id')).toEqual([{ status: 'paid' }]);
  });
});
