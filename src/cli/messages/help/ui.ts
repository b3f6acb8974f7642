import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch ui`. */
export interface UiHelp {
  readonly description: string;
  readonly listen: string;
  readonly allowRemote: string;
  readonly examples: string;
}

export const uiHelp: Readonly<Record<Locale, UiHelp>> = {
  en: {
    description: 'serve a local web dashboard over the ledger: batches, items, alerts, bills, receipts (until Ctrl-C)',
    listen: 'address of the dashboard (port 0 picks a free one)',
    allowRemote: 'listen on an address other than loopback (the page is not encrypted)',
    examples: `
Open the printed address, with its token, in a browser; the token signs the browser in (a cookie) and changes at
every start. The page follows the ledger live, also while a daemon works on it.

Examples:
  paybatch ui
  paybatch ui --listen 127.0.0.1:0 --json        # {"url": "http://127.0.0.1:…/?token=…", "listen": "127.0.0.1:…"}
  paybatch daemon --ui                           # the daemon with the dashboard beside it`,
  },
  'pt-BR': {
    description: 'serve um painel web local com os dados do registro local: lotes, itens, alertas, boletos, comprovantes (até Ctrl-C)',
    listen: 'endereço do painel (a porta 0 escolhe uma livre)',
    allowRemote: 'escuta num endereço que não seja o de loopback (a página não é cifrada)',
    examples: `
Abra o endereço mostrado, com o seu token, num navegador; o token autentica o navegador (por um cookie) e muda a
cada início. A página acompanha o registro local ao vivo, também enquanto um daemon trabalha nele.

Exemplos:
  paybatch ui
  paybatch ui --listen 127.0.0.1:0 --json        # {"url": "http://127.0.0.1:…/?token=…", "listen": "127.0.0.1:…"}
  paybatch daemon --ui                           # o daemon com o painel ao lado`,
  },
};
