import { describe, expect, it } from 'vitest';
import { paybatch, userEnv } from '../helpers/e2e.js';
import { BACKEND } from '../helpers/test-ledger.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();

// The end-to-end suite runs once per backend (vitest projects sqlite and postgres): this proves each run really
// used the ledger it claims to, through the CLI itself.
describe(`the end-to-end ledger (${BACKEND})`, () => {
  it(`is ${BACKEND === 'postgres' ? 'a PostgreSQL database' : 'an SQLite file'}`, async () => {
    const env = userEnv(tempDir());
    const r = await paybatch(['ledger', 'migrate', '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { dialect: string; ledger: string; applied: string[] };
    expect(doc.dialect).toBe(BACKEND);
    expect(doc.applied[0]).toBe('0001_ledger');
    if (BACKEND === 'postgres') expect(doc.ledger).toMatch(/^postgres:\/\/paybatch:\*\*\*@127\.0\.0\.1:\d+\/paybatch_[0-9a-f]{12}$/);
  });
});
