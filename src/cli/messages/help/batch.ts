import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch batch` and of its list, show, items, start and delete commands. */
export interface BatchHelp {
  readonly group: string;
  /** The `<id>` of show, items, start and delete. */
  readonly id: string;
  /** The `-y, --yes` of start and delete. */
  readonly yes: string;
  readonly list: { readonly description: string; readonly examples: string };
  readonly show: { readonly description: string; readonly refresh: string; readonly examples: string };
  readonly items: { readonly description: string; status(states: string): string; readonly examples: string };
  readonly start: { readonly description: string; readonly examples: string };
  readonly delete: { readonly description: string; readonly examples: string };
}

export const batchHelp: Readonly<Record<Locale, BatchHelp>> = {
  en: {
    group: 'list, inspect, start and delete Pix batches (local #id or provider id)',
    id: 'local #id or provider id',
    yes: 'do not ask for confirmation',
    list: {
      description: 'batches in the ledger, newest first',
      examples: '\nExamples:\n  paybatch batch list\n  paybatch --profile prod batch list --json',
    },
    show: {
      description: 'a batch and its progress: count and sum of items by status',
      refresh: "update the ledger from the provider's item pages first",
      examples: '\nExamples:\n  paybatch batch show 1\n  paybatch batch show 1 --refresh --json',
    },
    items: {
      description: "a batch's items with their status",
      status: (states) => `only items in this state (${states})`,
      examples: '\nExamples:\n  paybatch batch items 1\n  paybatch batch items 1 --status failed --json',
    },
    start: {
      description: 'start a batch (finishing its submission first if an import was interrupted)',
      examples: '\nExamples:\n  paybatch batch start 1\n  paybatch batch start 1 --yes --json',
    },
    delete: {
      description: 'delete a batch at the provider while it is still pending',
      examples: '\nExamples:\n  paybatch batch delete 1\n  paybatch batch delete 1 --yes',
    },
  },
  'pt-BR': {
    group: 'lista, inspeciona, inicia e exclui lotes Pix (#id local ou id no provedor)',
    id: '#id local ou id no provedor',
    yes: 'não pede confirmação',
    list: {
      description: 'os lotes do registro local, do mais recente ao mais antigo',
      examples: '\nExemplos:\n  paybatch batch list\n  paybatch --profile prod batch list --json',
    },
    show: {
      description: 'um lote e o seu andamento: quantidade e soma dos itens por situação',
      refresh: 'atualiza antes o registro local pelas páginas de itens do provedor',
      examples: '\nExemplos:\n  paybatch batch show 1\n  paybatch batch show 1 --refresh --json',
    },
    items: {
      description: 'os itens de um lote, com a situação de cada um',
      status: (states) => `só os itens nesta situação (${states})`,
      examples: '\nExemplos:\n  paybatch batch items 1\n  paybatch batch items 1 --status failed --json',
    },
    start: {
      description: 'inicia um lote (concluindo antes o envio, se uma importação foi interrompida)',
      examples: '\nExemplos:\n  paybatch batch start 1\n  paybatch batch start 1 --yes --json',
    },
    delete: {
      description: 'exclui um lote no provedor enquanto ele ainda está pendente',
      examples: '\nExemplos:\n  paybatch batch delete 1\n  paybatch batch delete 1 --yes',
    },
  },
};
