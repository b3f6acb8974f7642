import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/test-io.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const now = () => new Date('2026-11-23T15:00:00Z');

// Line 3 has two problems (a key that is no e-mail, an amount that is no number), line 4 one: 2 rows rejected.
const SHEET =
  'chave;tipo_chave;valor;descricao\n' +
  'ana@exemplo.com;email;10,00;a\n' +
  'sem-arroba;email;dez;b\n' +
  'bia@exemplo.com;email;vinte;c\n' +
  'caio@exemplo.com;email;5,00;d\n';

describe('paybatch import --skip-invalid counts rejected rows, not problems', () => {
  it('the dry run, its --json and the import say 2 rows, as many as the rejected file holds', async () => {
    const dir = tempDir();
    const env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir, NO_COLOR: '1' };
    const file = join(dir, 'folha.csv');
    writeFileSync(file, SHEET);

    const dry = await runCli(['import', file, '--dry-run', '--skip-invalid'], { env, now });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/rejected rows\s+2\n/);
    const json = await runCli(['import', file, '--dry-run', '--skip-invalid', '--json'], { env, now });
    const summary = JSON.parse(json.stdout).summary;
    expect([summary.rejectedRows, summary.rejected.length, summary.totals.count]).toEqual([2, 3, 2]);

    const done = await runCli(['import', file, '--skip-invalid', '--yes'], { env, now });
    expect(done.code, done.stderr).toBe(0);
    const rejectedFile = join(dir, 'folha.rejected.csv');
    expect(done.stdout).toContain(`2 rejected rows written to ${rejectedFile}`);
    const lines = readFileSync(rejectedFile, 'utf8').split('\r\n').filter((l) => l !== '');
    expect(lines.slice(1).map((l) => l.split(';').slice(0, 3).join(';'))).toEqual(['sem-arroba;email;dez', 'bia@exemplo.com;email;vinte']);
  });

  it("writes the rejected file's reasons in the profile's language, --json or not", async () => {
    const dir = tempDir();
    const env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir, LC_ALL: 'pt_BR.UTF-8' };
    const file = join(dir, 'folha.csv');
    writeFileSync(file, SHEET);
    const done = await runCli(['import', file, '--skip-invalid', '--yes', '--json'], { env, now });
    expect(done.code, done.stderr).toBe(0);
    const [head, ...rows] = readFileSync(join(dir, 'folha.rejected.csv'), 'utf8').replace(/^\uFEFF/, '').split('\r\n').filter((l) => l !== '');
    expect(head).toBe('chave;tipo_chave;valor;descricao;motivo');
    // The reasons are the Portuguese catalog's (field names and words), not the English messages --json carries.
    expect(rows.join('\n')).toMatch(/valor/);
    expect(rows.join('\n')).not.toMatch(/\b(the|is|not|must|amount)\b/);
  });
});
