import { describe, expect, it } from 'vitest';
import { counted } from '../../src/cli/messages/plural.js';

describe('counts with the noun in the right number', () => {
  it.each([
    ['pt-BR', 0, '0 pagamentos'], ['pt-BR', 1, '1 pagamento'], ['pt-BR', 2, '2 pagamentos'], ['pt-BR', 300, '300 pagamentos'],
    ['en', 0, '0 payments'], ['en', 1, '1 payment'], ['en', 2, '2 payments'],
  ] as const)('%s %d', (locale, n, expected) => {
    const forms = locale === 'en' ? { one: 'payment', other: 'payments' } : { one: 'pagamento', other: 'pagamentos' };
    expect(counted(locale, n, forms)).toBe(expected);
  });
});
