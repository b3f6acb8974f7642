import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch config`. */
export interface ConfigHelp {
  readonly group: string;
  readonly show: { readonly description: string; readonly examples: string };
  readonly set: { readonly description: string; readonly name: string; readonly value: string; readonly examples: string };
  readonly unset: { readonly description: string; readonly name: string };
  readonly init: {
    readonly description: string;
    readonly baseUrl: string;
    readonly tokenUrl: string;
    readonly clientId: string;
    readonly pixAmountUnit: string;
    readonly maxItemAmount: string;
    readonly maxBatchTotal: string;
    readonly receiptsDir: string;
    readonly webhookVerification: string;
    readonly sandbox: string;
    readonly examples: string;
  };
}

export const configHelp: Readonly<Record<Locale, ConfigHelp>> = {
  en: {
    group: 'profiles in $XDG_CONFIG_HOME/paybatch/config.json (mode 0600); every setting can also come from PAYBATCH_* variables',
    show: {
      description: 'the settings in force, where each comes from, and its environment variable (secrets masked)',
      examples: '\nExamples:\n  paybatch config show\n  paybatch --profile prod config show --json',
    },
    set: {
      description: 'set one setting of the profile; secrets are read from standard input or a hidden prompt, never from the command line',
      name: 'setting name, e.g. baseUrl, maxItemAmount, apiKey',
      value: 'the value (not allowed for secrets)',
      examples: '\nExamples:\n  paybatch config set baseUrl https://api.provider.example\n  paybatch config set maxItemAmount 10.000,00\n  printf %s "$KEY" | paybatch config set apiKey',
    },
    unset: {
      description: 'remove one setting from the profile (the default or the environment applies again)',
      name: 'setting name',
    },
    init: {
      description: 'create or update a profile: asks on a terminal; in scripts pass flags (secrets then come from PAYBATCH_* variables or `config set`)',
      baseUrl: 'provider API base URL',
      tokenUrl: 'OAuth 2.0 token URL',
      clientId: 'OAuth 2.0 client id',
      pixAmountUnit: 'cents or reais',
      maxItemAmount: 'largest amount of one item',
      maxBatchTotal: 'largest total of one import or retry, all its batches together',
      receiptsDir: 'folder for receipts',
      webhookVerification: 'how webhook deliveries prove the secret: auto, standard-webhooks, hmac, header, basic or bearer',
      sandbox: 'a profile that uses the embedded sandbox (removes its base URL, token URL and client id)',
      examples:
        '\nExamples:\n  paybatch config init                                   # asks on a terminal, showing current values\n' +
        '  paybatch --profile prod config init --base-url https://api.provider.example --token-url https://auth.provider.example/token --client-id acme\n' +
        '  paybatch --profile rehearsal config init --sandbox',
    },
  },
  'pt-BR': {
    group: 'perfis em $XDG_CONFIG_HOME/paybatch/config.json (modo 0600); toda configuração também pode vir de variáveis PAYBATCH_*',
    show: {
      description: 'as configurações em vigor, de onde vem cada uma e a sua variável de ambiente (segredos mascarados)',
      examples: '\nExemplos:\n  paybatch config show\n  paybatch --profile prod config show --json',
    },
    set: {
      description: 'define uma configuração do perfil; segredos são lidos da entrada padrão ou digitados sem eco, nunca da linha de comando',
      name: 'nome da configuração, p. ex. baseUrl, maxItemAmount, apiKey',
      value: 'o valor (não permitido para segredos)',
      examples: '\nExemplos:\n  paybatch config set baseUrl https://api.provider.example\n  paybatch config set maxItemAmount 10.000,00\n  printf %s "$KEY" | paybatch config set apiKey',
    },
    unset: {
      description: 'remove uma configuração do perfil (volta a valer o padrão ou a variável de ambiente)',
      name: 'nome da configuração',
    },
    init: {
      description: 'cria ou atualiza um perfil: pergunta num terminal; em scripts, usa as opções da linha de comando (os segredos vêm então de variáveis PAYBATCH_* ou de `config set`)',
      baseUrl: 'URL base da API do provedor',
      tokenUrl: 'URL de token do OAuth 2.0',
      clientId: 'id de cliente do OAuth 2.0',
      pixAmountUnit: 'cents ou reais',
      maxItemAmount: 'maior valor de um pagamento',
      maxBatchTotal: 'maior total de uma importação ou repetição, somados todos os seus lotes',
      receiptsDir: 'pasta dos comprovantes',
      webhookVerification: 'como as entregas de webhook provam o segredo: auto, standard-webhooks, hmac, header, basic ou bearer',
      sandbox: 'um perfil que usa o sandbox embutido (remove a URL base, a URL de token e o id de cliente dele)',
      examples:
        '\nExemplos:\n  paybatch config init                                   # pergunta num terminal, mostrando os valores atuais\n' +
        '  paybatch --profile prod config init --base-url https://api.provider.example --token-url https://auth.provider.example/token --client-id acme\n' +
        '  paybatch --profile rehearsal config init --sandbox',
    },
  },
};
