import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { counted } from '../../src/words/plural.js';

describe('counts with the noun in the right number', () => {
  it.each([
    ['pt-BR', 0, '0 pagamentos'], ['pt-BR', 1, '1 pagamento'], ['pt-BR', 2, '2 pagamentos'], ['pt-BR', 300, '300 pagamentos'],
    ['en', 0, '0 payments'], ['en', 1, '1 payment'], ['en', 2, '2 payments'],
  ] as const)('%s %d', (locale, n, expected) => {
    const forms = locale === 'en' ? { one: 'payment', other: 'payments' } : { one: 'pagamento', other: 'pagamentos' };
    expect(counted(locale, n, forms)).toBe(expected);
  });
});

describe('the catalogs', () => {
  // Every count goes through Intl.PluralRules: a `n === 1 ? 'one' : 'many'` written by hand misses a language's rules.
  const CATALOGS = ['src/cli/messages', 'src/words', 'src/alerts', 'src/ui', 'src/reports', 'src/receipts'];
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

  it('write no plural by hand', () => {
    const root = join(import.meta.dirname, '../..');
    const byHand = CATALOGS.flatMap((d) => files(join(root, d)))
      .flatMap((f) => readFileSync(f, 'utf8').split('\n').map((line, i) => [relative(root, f), i + 1, line] as const))
      .filter(([, , line]) => /[\w.)\]] === 1 \? ['`]/.test(line))
      .map(([f, n]) => `${f}:${n}`);
    expect(byHand).toEqual([]);
  });
});
