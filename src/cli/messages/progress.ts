import type { Locale } from '../../words/locale.js';

/** The spinner line (or the plain lines on a log) of a long import. */
export interface ProgressMessages {
  readonly working: string;
  lookup(done: number, total: number): string;
  addItems(done: number, total: number): string;
  createBatch(name: string): string;
  start(batchId: string): string;
  /** `rate` is payments per second. */
  rate(perSecond: number): string;
}

export const progressMessages: Readonly<Record<Locale, ProgressMessages>> = {
  en: {
    working: 'Working…',
    lookup: (done, total) => `Looking up Pix keys ${done}/${total}`,
    addItems: (done, total) => `Adding items ${done}/${total}`,
    createBatch: (name) => `Creating the remote batch "${name}"`,
    start: (id) => `Starting batch ${id}`,
    rate: (n) => ` (${n}/s)`,
  },
  'pt-BR': {
    working: 'Trabalhando…',
    lookup: (done, total) => `Consultando chaves Pix ${done}/${total}`,
    addItems: (done, total) => `Adicionando itens ${done}/${total}`,
    createBatch: (name) => `Criando o lote "${name}" no provedor`,
    start: (id) => `Iniciando o lote ${id}`,
    rate: (n) => ` (${n}/s)`,
  },
};
