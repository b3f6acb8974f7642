import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { runCli } from '../helpers/test-io.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const sheet = fileURLToPath(new URL('../../fixtures/payments-en.csv', import.meta.url));

describe('importing a sheet the ledger already holds', () => {
  it('says a settled sheet was already imported and where it stands, without "Start it" or "Resuming"', async () => {
    const dir = tempDir();
    const env = { XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), HOME: dir };
    const first = await runCli(['import', sheet, '--start', '--yes'], { env });
    expect(first.code, first.stderr).toBe(0);
    // What the daemon would have recorded once every payment ended.
    const ledger = await openLedger(join(dir, 'd', 'paybatch', 'ledger.db'));
    await ledger.run(ledger.db.updateTable('batches').set({ status: 'settled' }).where('id', '=', 1));
    await ledger.close();

    const again = await runCli(['import', sheet, '--start', '--yes'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^✓ Already imported: batch #1 "payments-en \d{4}-\d{2}-\d{2}" \(.+\), 6 items, R\$ [\d.]+,\d{2}, settled\.$/m);
    expect(again.stdout).not.toContain('Start it with');
    expect(again.stderr).not.toContain('Resuming');
  });

  it('still says how to start a batch the first run only created', async () => {
    const dir = tempDir();
    const env = { XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), HOME: dir };
    expect((await runCli(['import', sheet, '--yes'], { env })).code).toBe(0);
    const again = await runCli(['import', sheet, '--yes'], { env });
    expect(again.stderr).toMatch(/Resuming import #1 \(batch #1, started /);
    expect(again.stdout).toContain('Start it with: paybatch batch start 1');
  });
});
