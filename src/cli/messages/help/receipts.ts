import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch receipts` and of `receipts fetch`. */
export interface ReceiptsHelp {
  readonly group: string;
  readonly fetch: { readonly description: string; readonly batch: string; readonly out: string; readonly again: string; readonly examples: string };
}

export const receiptsHelp: Readonly<Record<Locale, ReceiptsHelp>> = {
  en: {
    group: 'receipt PDFs of paid items',
    fetch: {
      description: 'save the receipt of every paid item that has none yet (as the daemon does)',
      batch: 'only this batch (local #id or provider id)',
      out: "folder to write to (default: the profile's receiptsDir)",
      again: 'fetch receipts already saved too',
      examples: '\nExamples:\n  paybatch receipts fetch\n  paybatch receipts fetch --batch 1 --out ./comprovantes',
    },
  },
  'pt-BR': {
    group: 'os comprovantes em PDF dos itens pagos',
    fetch: {
      description: 'salva o comprovante de cada item pago que ainda não tem um (como faz o daemon)',
      batch: 'só este lote (#id local ou id no provedor)',
      out: 'pasta onde escrever (padrão: o receiptsDir do perfil)',
      again: 'busca também os comprovantes já salvos',
      examples: '\nExemplos:\n  paybatch receipts fetch\n  paybatch receipts fetch --batch 1 --out ./comprovantes',
    },
  },
};
