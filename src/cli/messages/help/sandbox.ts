import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch sandbox`. */
export interface SandboxHelp {
  readonly group: string;
  readonly serve: {
    readonly description: string;
    /** A number option given something else. */
    notNumber(flag: string): string;
    readonly host: string;
    readonly port: string;
    readonly state: string;
    readonly seed: string;
    readonly speed: string;
    readonly faults: string;
    readonly pageSize: string;
    readonly apiKey: string;
    readonly clientId: string;
    readonly clientSecret: string;
    readonly startTime: string;
    readonly tokenTtl: string;
    readonly adminToken: string;
    readonly staleSeconds: string;
    readonly webhookAttempts: string;
    readonly tlsCert: string;
    readonly tlsKey: string;
    readonly clientCa: string;
    readonly dialect: string;
    /** What it prints, where the rest is documented, then examples. */
    readonly examples: string;
  };
}

export const sandboxHelp: Readonly<Record<Locale, SandboxHelp>> = {
  en: {
    group: 'a local provider for rehearsals and tests (no real money)',
    serve: {
      notNumber: (flag) => `${flag} must be a number.`,
      description: 'run the sandbox provider over HTTP until Ctrl-C (SIGINT) or SIGTERM',
      host: 'interface to listen on',
      port: 'port to listen on; 0 picks a free one',
      state: 'SQLite state file, kept across restarts (default: a temporary one)',
      seed: 'seed of every random draw, to replay a run (default: the state file\'s, or fresh)',
      speed: 'simulated seconds per real second (default 1)',
      faults: 'fault rates, e.g. http5xx=0.05,lostResponse=0.02,stale=0.02 (default: none)',
      pageSize: 'entries per page of the list endpoints (default 50)',
      apiKey: 'an accepted API key, each its own account; repeat for more (default: sandbox-api-key)',
      clientId: 'OAuth client id (default: sandbox-client)',
      clientSecret: 'OAuth client secret (default: sandbox-secret)',
      startTime: 'where the simulated clock of a new state starts, e.g. 2025-03-08T22:30:00-03:00',
      tokenTtl: 'access token lifetime in real seconds (default 3600)',
      adminToken: 'token of the /_sandbox/ inspection routes (default: kept in the state file)',
      staleSeconds: 'simulated seconds before a stale item answers an item-list query (default 1800)',
      webhookAttempts: 'delivery attempts of a webhook event before giving up (default 10)',
      tlsCert: 'serve HTTPS with this certificate (PEM), with --tls-key',
      tlsKey: 'the key of --tls-cert (PEM)',
      clientCa: 'demand a client certificate signed by this CA (PEM) on every connection: mutual TLS, as banks do; needs --tls-cert',
      dialect:
        'how to answer where the provider API leaves a choice open: paybatch (default; the choices paybatch was built on) ' +
        'or spec (the other ordinary choice on each point: 200 on create, approved/rejected/refunded items, ' +
        '{codigo,mensagem} errors, form-only OAuth, GET-only bill details, x-service-secret deliveries, …) ' +
        'or iso (upper-case statuses, ISO 20022 codes in errorCode, amounts in reais, 20-second tokens, 429s, ' +
        'HMAC over timestamp.nonce.body, an "accepted for processing" event before each outcome, …)',
      examples:
        '\nPrints one ready line (with --json, a JSON object with url, tokenUrl, apiKey, clientId, clientSecret, adminToken, dialect).' +
        '\nSee docs/sandbox.md for the faults, the status words, the 404 rules and the /_sandbox/ routes.' +
        '\n\nExamples:\n  paybatch sandbox serve --port 8790 --state sandbox.db\n  paybatch sandbox serve --json --port 0 --speed 100 --faults http5xx=0.05,lostResponse=0.02' +
        '\n  paybatch sandbox serve --dialect spec     # prove a client against choices paybatch did not make' +
        '\n  paybatch sandbox serve --dialect iso      # a provider in reais: set pixAmountUnit reais to pay it' +
        '\n  paybatch sandbox serve --tls-cert server.pem --tls-key server.key --client-ca company-ca.pem   # rehearse mutual TLS',
    },
  },
  'pt-BR': {
    group: 'um provedor local para ensaios e testes (sem dinheiro de verdade)',
    serve: {
      notNumber: (flag) => `${flag} deve ser um número.`,
      description: 'roda o provedor sandbox por HTTP até Ctrl-C (SIGINT) ou SIGTERM',
      host: 'interface em que escuta',
      port: 'porta em que escuta; 0 escolhe uma livre',
      state: 'arquivo SQLite de estado, mantido entre reinícios (padrão: um temporário)',
      seed: 'semente de todos os sorteios, para repetir uma execução (padrão: a do arquivo de estado, ou uma nova)',
      speed: 'segundos simulados por segundo real (padrão 1)',
      faults: 'taxas de falhas, p. ex. http5xx=0.05,lostResponse=0.02,stale=0.02 (padrão: nenhuma)',
      pageSize: 'entradas por página dos endpoints de listagem (padrão 50)',
      apiKey: 'uma chave de API aceita, cada uma com a própria conta; pode ser repetida (padrão: sandbox-api-key)',
      clientId: 'id de cliente OAuth (padrão: sandbox-client)',
      clientSecret: 'segredo de cliente OAuth (padrão: sandbox-secret)',
      startTime: 'onde começa o relógio simulado de um estado novo, p. ex. 2025-03-08T22:30:00-03:00',
      tokenTtl: 'validade do token de acesso em segundos reais (padrão 3600)',
      adminToken: 'token das rotas de inspeção /_sandbox/ (padrão: guardado no arquivo de estado)',
      staleSeconds: 'segundos simulados até que uma consulta da lista de itens liquide um item com a falha stale (padrão 1800)',
      webhookAttempts: 'tentativas de entrega de um evento de webhook antes de desistir (padrão 10)',
      tlsCert: 'serve HTTPS com este certificado (PEM), junto com --tls-key',
      tlsKey: 'a chave de --tls-cert (PEM)',
      clientCa: 'exige em toda conexão um certificado de cliente assinado por esta CA (PEM): TLS mútuo, como fazem os bancos; requer --tls-cert',
      dialect:
        'como responder onde a API do provedor deixa uma escolha em aberto: paybatch (padrão; as escolhas sobre as quais o paybatch foi feito) ' +
        'ou spec (a outra escolha comum em cada ponto: 200 na criação, itens approved/rejected/refunded, ' +
        'erros {codigo,mensagem}, OAuth só por formulário, detalhes de boleto só por GET, entregas com x-service-secret, …) ' +
        'ou iso (situações em maiúsculas, códigos ISO 20022 em errorCode, valores em reais, tokens de 20 segundos, respostas 429, ' +
        'HMAC sobre timestamp.nonce.body, um evento de "aceito para processamento" antes de cada resultado, …)',
      examples:
        '\nEscreve uma linha avisando que está pronto (com --json, um objeto JSON com url, tokenUrl, apiKey, clientId, clientSecret,' +
        '\nadminToken, dialect). docs/sandbox.md descreve as falhas, os nomes das situações, as regras de 404 e as rotas' +
        '\n/_sandbox/.' +
        '\n\nExemplos:\n  paybatch sandbox serve --port 8790 --state sandbox.db\n  paybatch sandbox serve --json --port 0 --speed 100 --faults http5xx=0.05,lostResponse=0.02' +
        '\n  paybatch sandbox serve --dialect spec     # testa um cliente contra escolhas que o paybatch não fez' +
        '\n  paybatch sandbox serve --dialect iso      # um provedor em reais: defina pixAmountUnit reais para pagá-lo' +
        '\n  paybatch sandbox serve --tls-cert server.pem --tls-key server.key --client-ca company-ca.pem   # ensaia TLS mútuo',
    },
  },
};
