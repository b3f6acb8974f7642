import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch webhook`. */
export interface WebhookHelp {
  readonly group: string;
  readonly subscribe: { readonly description: string; readonly url: string; readonly examples: string };
}

export const webhookHelp: Readonly<Record<Locale, WebhookHelp>> = {
  en: {
    group: "the provider's event notifications",
    subscribe: {
      description: 'register the URL the provider calls with events (endpoint 14), with the profile\'s webhook secret',
      url: 'public URL of the daemon\'s receiver, ending in /webhooks',
      examples: '\nExamples:\n  paybatch webhook subscribe --url https://pay.example.com/webhooks\n  paybatch --profile prod webhook subscribe --url https://pay.example.com/webhooks --json',
    },
  },
  'pt-BR': {
    group: 'as notificações de eventos do provedor',
    subscribe: {
      description: 'registra a URL que o provedor chama com os eventos (endpoint 14), com o segredo de webhook do perfil',
      url: 'URL pública do receptor do daemon, terminada em /webhooks',
      examples: '\nExemplos:\n  paybatch webhook subscribe --url https://pay.example.com/webhooks\n  paybatch --profile prod webhook subscribe --url https://pay.example.com/webhooks --json',
    },
  },
};
