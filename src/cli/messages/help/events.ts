import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch events`. */
export interface EventsHelp {
  readonly group: string;
  readonly list: {
    readonly description: string;
    readonly unknown: string;
    readonly topic: string;
    readonly limit: string;
    /** A --limit that is no whole number above zero. */
    readonly notPositive: string;
    readonly examples: string;
  };
}

export const eventsHelp: Readonly<Record<Locale, EventsHelp>> = {
  en: {
    group: 'webhook events the daemon received and what each one did',
    list: {
      description: 'received events, newest first (kept 30 days)',
      unknown: 'only events paybatch did not recognise (same as --topic unknown)',
      topic: 'only events about this',
      limit: 'at most this many',
      notPositive: 'must be a whole number above zero.',
      examples:
        '\nAn unknown event is kept, not lost: its type, category and body show what the provider sends, to report or to map.' +
        '\n\nExamples:\n  paybatch events list\n  paybatch events list --unknown --json',
    },
  },
  'pt-BR': {
    group: 'eventos de webhook que o daemon recebeu e o que cada um fez',
    list: {
      description: 'eventos recebidos, os mais recentes primeiro (guardados por 30 dias)',
      unknown: 'só os eventos que o paybatch não reconheceu (o mesmo que --topic unknown)',
      topic: 'só os eventos deste assunto',
      limit: 'no máximo esta quantidade',
      notPositive: 'deve ser um número inteiro maior que zero.',
      examples:
        '\nUm evento desconhecido é guardado, não perdido: o tipo, a categoria e o corpo dele mostram o que o provedor envia, para reportar ou mapear.' +
        '\n\nExemplos:\n  paybatch events list\n  paybatch events list --unknown --json',
    },
  },
};
