import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch reconcile`. */
export interface ReconcileHelp {
  readonly description: string;
  readonly batches: string;
  /** What is compared, the exit codes, and the examples. */
  readonly examples: string;
}

export const reconcileHelp: Readonly<Record<Locale, ReconcileHelp>> = {
  en: {
    description: "compare the ledger with the provider's own record, item by item, and follow the record",
    batches: 'batches to compare (default: every batch sent to the provider)',
    examples:
      "\nReads the provider's item pages of each batch and compares them with the ledger: state, amount, Pix id, end-to-end id," +
      '\nand items only one side holds; prints count and centavos by state on both sides; then the ledger follows the record.' +
      '\nExit 0 when both agree, 4 on any difference.' +
      '\n\nExamples:\n  paybatch reconcile\n  paybatch reconcile 3 4 --json',
  },
  'pt-BR': {
    description: 'compara o registro local com o registro do próprio provedor, item a item, e passa a seguir o do provedor',
    batches: 'os lotes a comparar (padrão: todos os lotes enviados ao provedor)',
    examples:
      '\nLê as páginas de itens do provedor de cada lote e as compara com o registro local: situação, valor, id Pix,' +
      '\nend-to-end id e itens que só um dos lados tem; mostra quantidade e centavos por situação dos dois lados;' +
      '\ndepois, o registro local segue o do provedor.' +
      '\nCódigo de saída 0 quando os dois batem, 4 em qualquer diferença.' +
      '\n\nExemplos:\n  paybatch reconcile\n  paybatch reconcile 3 4 --json',
  },
};
