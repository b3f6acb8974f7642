import type { Locale } from '../../words/locale.js';

/** The frame of the daemon's human log lines and the lines the command itself logs; the engine's own stay English. */
export interface DaemonMessages {
  /** Said once, before the first line: the times are São Paulo's. */
  timesAre(zone: string): string;
  readonly level: Readonly<Record<'info' | 'warn' | 'error', string>>;
  readonly noSecret: string;
  readonly stopping: string;
  /** The receiver cannot listen on --listen (`address` is host:port): the port is taken, privileged, or not this machine's. */
  listenFailed(address: string, code: 'EADDRINUSE' | 'EACCES' | 'EADDRNOTAVAIL'): string;
  readonly listenHint: string;
}

export const daemonMessages: Readonly<Record<Locale, DaemonMessages>> = {
  en: {
    timesAre: (zone) => `Times below: ${zone}.`,
    level: { info: 'INFO ', warn: 'WARN ', error: 'ERROR' },
    noSecret: "no webhook secret: no receiver runs, payments are followed by polling alone (set one with 'paybatch config set webhookSecret')",
    stopping: 'stopping: finishing the pass in flight',
    listenFailed: (address, code) =>
      `--listen ${address}: the webhook receiver cannot listen there: ${
        { EADDRINUSE: 'the port is already in use', EACCES: 'permission denied, ports below 1024 need privileges', EADDRNOTAVAIL: "the address is not one of this machine's" }[code]
      } (${code}).`,
    listenHint: 'Pick another --listen address (port 0 picks a free one), or stop what is listening there.',
  },
  'pt-BR': {
    timesAre: (zone) => `Horas abaixo no ${zone}.`,
    level: { info: 'INFO ', warn: 'AVISO', error: 'ERRO ' },
    noSecret:
      "sem segredo de webhook: nenhum receptor é aberto e os pagamentos são acompanhados só por consultas ao provedor (defina um com 'paybatch config set webhookSecret')",
    stopping: 'parando: terminando a passada em andamento',
    listenFailed: (address, code) =>
      `--listen ${address}: o receptor de webhooks não consegue escutar nesse endereço: ${
        { EADDRINUSE: 'a porta já está em uso', EACCES: 'permissão negada, portas abaixo de 1024 exigem privilégios', EADDRNOTAVAIL: 'o endereço não é desta máquina' }[code]
      } (${code}).`,
    listenHint: 'Escolha outro endereço em --listen (a porta 0 escolhe uma livre) ou pare o que está escutando nele.',
  },
};
