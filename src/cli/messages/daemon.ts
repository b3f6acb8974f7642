import type { Locale } from '../../config/locale.js';

/** The frame of the daemon's human log lines and the lines the command itself logs; the engine's own stay English. */
export interface DaemonMessages {
  /** Said once, before the first line: the times are São Paulo's. */
  timesAre(zone: string): string;
  readonly level: Readonly<Record<'info' | 'warn' | 'error', string>>;
  readonly noSecret: string;
  readonly stopping: string;
}

export const daemonMessages: Readonly<Record<Locale, DaemonMessages>> = {
  en: {
    timesAre: (zone) => `Times below: ${zone}.`,
    level: { info: 'INFO ', warn: 'WARN ', error: 'ERROR' },
    noSecret: "no webhook secret: no receiver runs, payments are followed by polling alone (set one with 'paybatch config set webhookSecret')",
    stopping: 'stopping: finishing the pass in flight',
  },
  'pt-BR': {
    timesAre: (zone) => `Horas abaixo no ${zone}.`,
    level: { info: 'INFO ', warn: 'AVISO', error: 'ERRO ' },
    noSecret:
      "sem segredo de webhook: nenhum receptor é aberto e os pagamentos são acompanhados só por consultas ao provedor (defina um com 'paybatch config set webhookSecret')",
    stopping: 'parando: terminando a passada em andamento',
  },
};
