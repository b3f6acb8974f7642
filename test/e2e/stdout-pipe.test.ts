import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, userEnv } from '../helpers/e2e.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();

/** Runs paybatch with stdout on a pipe; `closeAfterFirst` closes the reading end once the first bytes came. */
function run(args: string[], closeAfterFirst: boolean): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: userEnv(tempDir()), stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => {
    out.push(b);
    if (closeAfterFirst) child.stdout.destroy();
  });
  child.stderr.on('data', (b: Buffer) => err.push(b));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

// 3,000 valid keys print about 300 KB, more than a pipe holds: the run is still writing when its reader goes away.
const KEYS = Array.from({ length: 3000 }, (_, i) => `pessoa${i + 1}@example.com`);

describe('stdout on a pipe (end to end)', { timeout: 60_000 }, () => {
  it('prints more than a pipe holds whole and in order, past the part written straight to the descriptor', async () => {
    const r = await run(['keys', 'check', '--json', ...KEYS], false);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { input: string }[]).map((k) => k.input)).toEqual(KEYS);
  });

  it('ends quietly, exit 0, when the reader closes the pipe early (`paybatch … | head`)', async () => {
    const r = await run(['keys', 'check', ...KEYS], true);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(0);
  });
});
