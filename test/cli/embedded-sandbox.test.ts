import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/test-io.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();

describe('the embedded sandbox (default profile)', () => {
  it('starts on a brand-new machine for a command that needs no ledger, and says SANDBOX', async () => {
    const dir = tempDir();
    const env = { XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'never', 'created'), HOME: dir };
    const r = await runCli(['keys', 'lookup', 'ana@example.com', '--json', '--quiet'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('SANDBOX');
    expect(JSON.parse(r.stdout)).toMatchObject({ found: true, destination: { key: 'ana@example.com', type: 'email' } });
  });
});
