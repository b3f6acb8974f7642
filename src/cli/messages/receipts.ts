import type { Locale } from '../../words/locale.js';
import { counted } from '../../words/plural.js';

/** What `paybatch receipts fetch` says to people; `--json` keeps its own fields. */
export interface ReceiptsMessages {
  noSuchBatch(ref: string): string;
  saved(n: number, dir: string): string;
  readonly noneMissing: string;
  failed(identifier: string, error: string): string;
}

export const receiptsMessages: Readonly<Record<Locale, ReceiptsMessages>> = {
  en: {
    noSuchBatch: (ref) => `No batch "${ref}" in the ledger.`,
    saved: (n, dir) => `✓ ${counted('en', n, { one: 'receipt', other: 'receipts' })} saved under ${dir}.`,
    noneMissing: '✓ No receipt was missing: every paid item already has its receipt.',
    failed: (identifier, error) => `receipt of ${identifier}: ${error}`,
  },
  'pt-BR': {
    noSuchBatch: (ref) => `Não há lote "${ref}" no registro local.`,
    saved: (n, dir) => `✓ ${counted('pt-BR', n, { one: 'comprovante salvo', other: 'comprovantes salvos' })} em ${dir}.`,
    noneMissing: '✓ Nenhum comprovante faltava: cada item pago já tem o seu.',
    failed: (identifier, error) => `comprovante de ${identifier}: ${error}`,
  },
};
