import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSheet } from '../helpers/sheets.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { runCli } from '../helpers/test-io.js';

const tempDir = useTempDir();
const envOf = (dir: string) => ({ XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir });

describe('paybatch import --check', () => {
  it('checks a good sheet offline: totals, exit 0, no ledger, no provider', async () => {
    const dir = tempDir();
    const sheet = writeSheet(join(dir, 'folha.csv'), 3);
    const r = await runCli(['import', sheet, '--check', '--json'], { env: envOf(dir) });
    expect(r.code, r.stderr).toBe(0);
    // writeSheet's amounts: 1000 + (i·7919 mod 90000) centavos for rows 1–3.
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'checked', rows: 3, totals: { count: 3, sumCents: 8919 + 16838 + 24757 } });
    expect(r.stderr).not.toContain('SANDBOX');
    expect(existsSync(join(dir, 'data', 'paybatch'))).toBe(false);
  });

  it('names every bad row and exits 3', async () => {
    const dir = tempDir();
    const sheet = join(dir, 'bad.csv');
    writeFileSync(sheet, 'chave;tipo_chave;valor;descricao\nana@example.com;email;10,00;ok\nnot-a-key;email;1.234;bad\nbia@example.com;email;-5,00;neg\n');
    const r = await runCli(['import', sheet, '--check'], { env: envOf(dir) });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/bad\.csv:3 chave/);
    expect(r.stderr).toMatch(/bad\.csv:3 valor/);
    expect(r.stderr).toMatch(/bad\.csv:4 valor/);
    expect(existsSync(join(dir, 'data', 'paybatch'))).toBe(false);
  });

  it('does not go with flags that import', async () => {
    const r = await runCli(['import', 'x.csv', '--check', '--start'], { env: envOf(tempDir()) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--check runs only the offline checks; it does not go with --start');
  });
});
