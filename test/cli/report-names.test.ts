import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { runCli } from '../helpers/test-io.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const at = new Date('2026-11-20T12:00:00Z');

describe('paybatch report never replaces a report', () => {
  it('two profiles, each with its batch #1, reporting to one folder: two files; the same report again: a third, the first kept', async () => {
    const dir = tempDir();
    const env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), NO_COLOR: '1' };
    const carga = await ledgerWithStartedBatch(join(dir, 'carga'), 2, at);
    const real = await ledgerWithStartedBatch(join(dir, 'real'), 1, at);
    await Promise.all([carga.ledger.close(), real.ledger.close()]);
    expect((await runCli(['--profile', 'carga', 'config', 'set', 'locale', 'en'], { env })).code).toBe(0);
    const out = join(dir, 'rep');
    const report = (profile: string, ledger: string) => runCli(['--profile', profile, '--ledger', ledger, 'report', '1', '--out', out], { env, now: () => at });

    const first = await report('carga', join(dir, 'carga', 'ledger.db'));
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(join(out, 'carga-batch-1-folha-report.csv'));
    const second = await report('default', join(dir, 'real', 'ledger.db'));
    expect(second.stdout).toContain(join(out, 'default-batch-1-folha-report.csv'));
    const kept = readFileSync(join(out, 'carga-batch-1-folha-report.csv'), 'utf8');

    const again = await report('carga', join(dir, 'carga', 'ledger.db'));
    expect(again.code, again.stderr).toBe(0);
    // The name written is said, so that a script or a person finds it.
    expect(again.stdout).toContain(join(out, 'carga-batch-1-folha-report-2.csv'));
    expect(readFileSync(join(out, 'carga-batch-1-folha-report.csv'), 'utf8')).toBe(kept);
    expect(readdirSync(out).sort()).toEqual(['carga-batch-1-folha-report-2.csv', 'carga-batch-1-folha-report.csv', 'default-batch-1-folha-report.csv']);
  });
});
