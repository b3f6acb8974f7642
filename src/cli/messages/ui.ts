import type { Locale } from '../../words/locale.js';

/** What `paybatch ui` says when the dashboard is up (the `--json` document gives the URL alone). */
export interface UiMessages {
  started(url: string): string;
  /** The dashboard listens beyond this machine (--allow-remote) without TLS. */
  plainHttp(listen: string): string;
}

export const uiMessages: Readonly<Record<Locale, UiMessages>> = {
  en: {
    started: (url) => `paybatch ui: ${url}\n(open it in a browser; Ctrl-C stops the dashboard)`,
    plainHttp: (listen) => `The dashboard listens on ${listen} over plain HTTP: anyone who can read the traffic sees the token and the ledger.`,
  },
  'pt-BR': {
    started: (url) => `paybatch ui: ${url}\n(abra no navegador; Ctrl-C encerra o painel)`,
    plainHttp: (listen) => `O painel escuta em ${listen} por HTTP sem criptografia: quem puder ler o tráfego vê o token e o registro local.`,
  },
};
