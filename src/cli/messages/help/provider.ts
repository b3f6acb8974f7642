import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch provider`. */
export interface ProviderHelp {
  readonly group: string;
  readonly check: {
    readonly description: string;
    readonly key: string;
    readonly bill: string;
    readonly publicUrl: string;
    /** What the check covers, then examples. */
    readonly examples: string;
  };
}

export const providerHelp: Readonly<Record<Locale, ProviderHelp>> = {
  en: {
    group: 'your payment provider: what it accepts, and what to pin in the profile',
    check: {
      description: 'check, without moving money, everything payments need from the provider with this profile',
      key: 'a Pix key to look up (a key nobody holds is fine: the answer proves the endpoint)',
      bill: "a real bill's digit line or barcode, to learn which method the details query takes",
      publicUrl: "the public URL the provider calls (ending in /webhooks): checks the daemon's receiver answers there",
      examples:
        '\nChecks the token (and whether the token endpoint wants HTTP Basic or the form body), the API key, a key lookup,' +
        "\nthe item pages of the newest batch (status words, Pix ids), the bill details method and the webhook receiver," +
        '\nthen prints the settings worth pinning. Exit 0 only when everything payments need works.' +
        '\n\nExamples:\n  paybatch provider check\n  paybatch provider check --bill 23793381286000000000300000000401184340000012345 --public-url https://pay.example.com/webhooks --json',
    },
  },
  'pt-BR': {
    group: 'o seu provedor de pagamentos: o que ele aceita e o que fixar no perfil',
    check: {
      description: 'confere, sem mover dinheiro, tudo o que os pagamentos precisam do provedor com este perfil',
      key: 'uma chave Pix a consultar (serve uma chave que não é de ninguém: a resposta já prova o endpoint)',
      bill: 'a linha digitável ou o código de barras de um boleto real, para descobrir que método a consulta de detalhes usa',
      publicUrl: 'a URL pública que o provedor chama (terminada em /webhooks): confere se o receptor do daemon responde nela',
      examples:
        '\nConfere o token (e se o endpoint de token quer HTTP Basic ou o corpo do formulário), a chave de API, uma consulta de' +
        '\nchave, as páginas de itens do lote mais recente (nomes das situações, ids Pix), o método de detalhes de boleto e o' +
        '\nreceptor de webhooks, e depois mostra as configurações que vale fixar no perfil. Código de saída 0 só quando tudo o' +
        '\nque os pagamentos precisam funciona.' +
        '\n\nExemplos:\n  paybatch provider check\n  paybatch provider check --bill 23793381286000000000300000000401184340000012345 --public-url https://pay.example.com/webhooks --json',
    },
  },
};
