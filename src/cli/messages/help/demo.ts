import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch demo`. */
export interface DemoHelp {
  readonly description: string;
  readonly sheet: string;
  readonly dir: string;
  readonly timeout: string;
}

export const demoHelp: Readonly<Record<Locale, DemoHelp>> = {
  en: {
    description: 'the main job on the embedded sandbox, start to end, in a fresh ledger (what `npm start` runs)',
    sheet: 'the sheet to pay',
    dir: 'folder for the demo ledger and receipts (default: a new temporary folder)',
    timeout: 'give up after this many seconds',
  },
  'pt-BR': {
    description: 'roda o fluxo principal no sandbox embutido, do início ao fim, num registro local novo (o que `npm start` executa)',
    sheet: 'a planilha a pagar',
    dir: 'pasta do registro local e dos comprovantes da demonstração (padrão: uma nova pasta temporária)',
    timeout: 'desiste depois deste número de segundos',
  },
};
