import type { Locale } from '../../words/locale.js';

/** What `events list` says to people; topics stay the words `--topic` takes, effects are the engine's. */
export interface EventsMessages {
  readonly noUnknown: string;
  readonly none: string;
  head(zone: string): readonly string[];
}

export const eventsMessages: Readonly<Record<Locale, EventsMessages>> = {
  en: {
    noUnknown: 'No unknown events.',
    none: 'No events yet.',
    head: (zone) => [`received (${zone})`, 'topic', 'event', 'type / category', 'effect'],
  },
  'pt-BR': {
    noUnknown: 'Nenhum evento desconhecido.',
    none: 'Nenhum evento ainda.',
    head: (zone) => [`recebido (${zone})`, 'assunto', 'evento', 'tipo / categoria', 'efeito'],
  },
};
