import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch alerts`. */
export interface AlertsHelp {
  readonly group: string;
  readonly list: { readonly description: string; readonly all: string; readonly examples: string };
  readonly ack: { readonly description: string; readonly ids: string; readonly examples: string };
}

export const alertsHelp: Readonly<Record<Locale, AlertsHelp>> = {
  en: {
    group: 'alerts raised by the daemon: stale payments, final returns, failures, bill returns',
    list: {
      description: 'open alerts (exit 4 when there are any)',
      all: 'acknowledged ones too',
      examples: '\nExamples:\n  paybatch alerts list\n  paybatch alerts list --all --json',
    },
    ack: {
      description: 'acknowledge alerts: someone is on it',
      ids: 'alert numbers, or "all"',
      examples: '\nExamples:\n  paybatch alerts ack 3\n  paybatch alerts ack 3 4\n  paybatch alerts ack all',
    },
  },
  'pt-BR': {
    group: 'alertas emitidos pelo daemon: pagamentos sem notícias, devoluções definitivas, falhas, devoluções de contas',
    list: {
      description: 'alertas abertos (sai com 4 quando há algum)',
      all: 'também os já reconhecidos',
      examples: '\nExemplos:\n  paybatch alerts list\n  paybatch alerts list --all --json',
    },
    ack: {
      description: 'reconhece alertas: alguém já está cuidando deles',
      ids: 'números dos alertas, ou "all"',
      examples: '\nExemplos:\n  paybatch alerts ack 3\n  paybatch alerts ack 3 4\n  paybatch alerts ack all',
    },
  },
};
