import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch daemon`. */
export interface DaemonHelp {
  readonly description: string;
  readonly listen: string;
  readonly publicUrl: string;
  readonly once: string;
  readonly interval: string;
  readonly logFormat: string;
  readonly untilSettled: string;
  readonly timeout: string;
  readonly ui: string;
  /** `--ui-listen`, with the dashboard's default address. */
  uiListen(defaultAddress: string): string;
  readonly examples: string;
}

export const daemonHelp: Readonly<Record<Locale, DaemonHelp>> = {
  en: {
    description: 'follow every payment to the end: webhooks, reconciliation, retries, reprocessing returns, stale alerts, receipts',
    listen: 'address of the webhook receiver (POST /webhooks, GET /healthz)',
    publicUrl: 'the URL the provider should call (subscribed at start); the embedded sandbox is subscribed automatically',
    once: 'one pass without the receiver, then exit 0, or 4 when something needs attention (for cron)',
    interval: 'seconds between passes',
    logFormat: 'log lines on stderr',
    untilSettled: 'exit once every payment is settled and every receipt saved',
    timeout: 'give up after this long (e.g. 10m); exit 4 if payments are still open',
    ui: 'also serve the web dashboard (as paybatch ui does) while the daemon runs; its address is logged',
    uiListen: (defaultAddress) => `address of the dashboard, on loopback (default: ${defaultAddress})`,
    examples: `
One daemon per SQLite ledger; on a PostgreSQL ledger several daemons (hosts) work together. SIGINT/SIGTERM stop it cleanly: no new deliveries are accepted, the pass in flight finishes.

Examples:
  paybatch daemon --public-url https://hooks.example.com/webhooks
  paybatch daemon --once --log-format json        # from cron: exit 4 when something needs attention
  paybatch daemon --ui                            # with the web dashboard on 127.0.0.1:8788 (its URL is logged)`,
  },
  'pt-BR': {
    description:
      'acompanha cada pagamento até o fim: webhooks, conciliação, novas tentativas, reprocessamento de devoluções, alertas de pagamentos sem notícias, comprovantes',
    listen: 'endereço do receptor de webhooks (POST /webhooks, GET /healthz)',
    publicUrl: 'a URL que o provedor deve chamar (cadastrada no início); o sandbox embutido é cadastrado automaticamente',
    once: 'uma passada sem o receptor e depois sai com 0, ou 4 quando algo requer atenção (para o cron)',
    interval: 'segundos entre as passadas',
    logFormat: 'formato das linhas de log na saída de erros',
    untilSettled: 'sai assim que todos os pagamentos estiverem liquidados e todos os comprovantes salvos',
    timeout: 'desiste depois desse tempo (p. ex. 10m); sai com 4 se ainda houver pagamentos em aberto',
    ui: 'serve também o painel web (como o paybatch ui) enquanto o daemon roda; o endereço dele vai para o log',
    uiListen: (defaultAddress) => `endereço do painel, em loopback (padrão: ${defaultAddress})`,
    examples: `
Um daemon por registro local SQLite; com um registro local PostgreSQL, vários daemons (servidores) trabalham juntos. SIGINT/SIGTERM o param de forma limpa: nenhuma entrega nova é aceita e a passada em andamento termina.

Exemplos:
  paybatch daemon --public-url https://hooks.example.com/webhooks
  paybatch daemon --once --log-format json        # pelo cron: sai com 4 quando algo requer atenção
  paybatch daemon --ui                            # com o painel web em 127.0.0.1:8788 (a URL dele vai para o log)`,
  },
};
