import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/temp-dir.js';
import { runCli } from '../helpers/test-io.js';

// `paybatch ledger check|backup` speak the run's language on a fresh ledger: exact lines in each language, and no
// line of the Portuguese run written in English (an independent list of common English words, as in
// error-language.test.ts).
const ENGLISH = new Set(
  'the and with when which this that from every each its is are be only not of to by or if it into than will would there in at for on set run must should can cannot does goes needs was were has have been what who how where while your you an but so after before nothing none all match call calls batch batches stray refused unpaired without outcome ledger backed up check result integrity provider twice totals remote'.split(' '),
);

const tempDir = useTempDir();

/** A fresh ledger (made by `ledger migrate`) in a temp data folder, then `argv` run on it in `lcAll`. */
async function onFreshLedger(argv: (dir: string) => string[], lcAll: string) {
  const dir = tempDir();
  const env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir, LC_ALL: lcAll };
  const migrated = await runCli(['ledger', 'migrate'], { env });
  expect(migrated.code).toBe(0);
  const ledger = join(dir, 'data', 'paybatch', 'ledger.db');
  return { dir, ledger, ...(await runCli(argv(dir), { env })) };
}

function englishWords(text: string): string[] {
  return text
    .replace(/(^|\s)\/\S+/g, ' ')
    .toLowerCase()
    .split(/[^a-zà-ú]+/)
    .filter((w) => ENGLISH.has(w));
}

describe('ledger check and backup in pt-BR', () => {
  it('checks a fresh ledger in Portuguese', async () => {
    const r = await onFreshLedger(() => ['ledger', 'check'], 'pt_BR.UTF-8');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      `Registro ${r.ledger}`,
      'verificação\tresultado',
      'integridade (SQLite)\tok',
      'chamadas ao provedor\t0 chamadas; 0 sem resultado; 0 sem par',
      'pagos duas vezes\tnenhum',
      'totais dos lotes\t0 lotes; todos batem com seus itens',
      'lotes no provedor\tnenhum lote perdido; nenhum recusado',
      '✓ Nada precisa de atenção.',
    ]);
    expect(englishWords(r.stdout)).toEqual([]);
  });

  it('backs up a fresh ledger in Portuguese', async () => {
    const r = await onFreshLedger((dir) => ['ledger', 'backup', '--to', join(dir, 'copia.db')], 'pt_BR.UTF-8');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^✓ Cópia de segurança de ${r.ledger} salva em ${join(r.dir, 'copia.db')} \\(\\d+ bytes\\)\\.\\n$`));
    expect(existsSync(join(r.dir, 'copia.db'))).toBe(true);
    expect(englishWords(r.stdout)).toEqual([]);
  });

  it('says the ledger is missing in Portuguese', async () => {
    const dir = tempDir();
    const env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), HOME: dir, LC_ALL: 'pt_BR.UTF-8' };
    const r = await runCli(['ledger', 'check'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Não existe registro em ${join(dir, 'data', 'paybatch', 'ledger.db')}.`);
  });
});

describe('ledger check and backup in English', () => {
  it('checks a fresh ledger with the English words', async () => {
    const r = await onFreshLedger(() => ['ledger', 'check'], 'en_US.UTF-8');
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      `Ledger ${r.ledger}`,
      'check\tresult',
      'integrity (SQLite)\tok',
      'provider calls\t0 calls; 0 without outcome; 0 unpaired',
      'paid twice\tnone',
      'batch totals\t0 batches; all match their items',
      'remote batches\tno stray batch; none refused',
      '✓ Nothing needs attention.',
    ]);
  });

  it('backs up a fresh ledger with the English words', async () => {
    const r = await onFreshLedger((dir) => ['ledger', 'backup', '--to', join(dir, 'copy.db')], 'en_US.UTF-8');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^✓ Backed up ${r.ledger} to ${join(r.dir, 'copy.db')} \\(\\d+ bytes\\)\\.\\n$`));
  });
});
