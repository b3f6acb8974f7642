import type { Locale } from '../../words/locale.js';

/** What `config set`, `unset`, `show` and `init` say once done (the `--json` documents are not translated). */
export interface ConfigMessages {
  set(name: string, value: string, profile: string): string;
  removed(name: string, profile: string): string;
  /** `config show`'s heading: the profile, its file, and whether the embedded sandbox answers for it. */
  profileHeading(profile: string, file: string, sandbox: boolean): string;
  readonly showHead: readonly string[];
  /** Where a value comes from: default, file, env. */
  source(source: string): string;
  written(profile: string, file: string): string;
  removedLine(name: string): string;
  readonly usesSandbox: string;
  readonly nothingChanged: string;
  /** `config init`'s questions: the profile's name and the rule it must follow. */
  readonly profileQuestion: string;
  readonly profileRule: string;
  /** A setting's question: its name, what it is (English: the setting's own description), and what Enter does. */
  question(setting: InitSetting, english: string, enter: InitEnter): string;
}

/** The settings `config init` asks for. */
export type InitSetting = 'baseUrl' | 'tokenUrl' | 'clientId' | 'webhookVerification' | 'pixAmountUnit' | 'maxItemAmount' | 'maxBatchTotal' | 'receiptsDir' | 'apiKey' | 'clientSecret' | 'webhookSecret';

/** What Enter does at a setting's question: keep its value (`now`), take the default, skip it, or keep a secret. */
export type InitEnter = { readonly keeps: 'now' | 'default'; readonly value: string } | { readonly keeps: 'nothing' } | { readonly keeps: 'secret' };

export const configMessages: Readonly<Record<Locale, ConfigMessages>> = {
  en: {
    set: (name, value, profile) => `✓ ${name} = ${value} (profile "${profile}")`,
    removed: (name, profile) => `✓ ${name} removed from profile "${profile}"`,
    profileHeading: (profile, file, sandbox) => `Profile "${profile}" (${file})${sandbox ? ' — no baseUrl: the embedded SANDBOX is used' : ''}`,
    showHead: ['setting', 'value', 'from', 'variable'],
    source: (source) => source,
    written: (profile, file) => `✓ Profile "${profile}" written to ${file} (mode 0600).`,
    removedLine: (name) => `  ${name} removed`,
    usesSandbox: '  No base URL: this profile uses the embedded SANDBOX.',
    nothingChanged: '  Nothing changed.',
    profileQuestion: 'Profile name (each profile has its own settings and ledger)',
    profileRule: 'letters, digits, "-" and "_" only',
    question: (setting, english, enter) =>
      `${setting} — ${english} (${
        enter.keeps === 'now' ? `now ${enter.value}; Enter keeps it` : enter.keeps === 'default' ? `default ${enter.value}; Enter keeps it` : enter.keeps === 'secret' ? 'set; empty keeps it' : 'empty to skip'
      })`,
  },
  'pt-BR': {
    set: (name, value, profile) => `✓ ${name} = ${value} (perfil "${profile}")`,
    removed: (name, profile) => `✓ ${name} removida do perfil "${profile}"`,
    profileHeading: (profile, file, sandbox) => `Perfil "${profile}" (${file})${sandbox ? ' — sem baseUrl: usa o SANDBOX embutido' : ''}`,
    showHead: ['configuração', 'valor', 'origem', 'variável'],
    source: (source) => ({ default: 'padrão', file: 'arquivo', env: 'ambiente' })[source] ?? source,
    written: (profile, file) => `✓ Perfil "${profile}" gravado em ${file} (modo 0600).`,
    removedLine: (name) => `  ${name} removida`,
    usesSandbox: '  Sem URL base: este perfil usa o SANDBOX embutido.',
    nothingChanged: '  Nada mudou.',
    profileQuestion: 'Nome do perfil (cada perfil tem suas configurações e seu registro)',
    profileRule: 'só letras, dígitos, "-" e "_"',
    question: (setting, _english, enter) =>
      `${setting} — ${INIT_SETTINGS_PT_BR[setting]} (${
        enter.keeps === 'now' ? `agora ${enter.value}; Enter mantém` : enter.keeps === 'default' ? `padrão ${enter.value}; Enter mantém` : enter.keeps === 'secret' ? 'definido; vazio mantém' : 'vazio para pular'
      })`,
  },
};

const INIT_SETTINGS_PT_BR: { readonly [S in InitSetting]: string } = {
  baseUrl: 'URL base da API do provedor (vazio: o sandbox embutido)',
  tokenUrl: 'URL de token OAuth 2.0 (client credentials)',
  clientId: 'client id OAuth 2.0',
  webhookVerification: 'como as entregas provam o segredo: auto (qualquer método abaixo) | standard-webhooks | hmac | header | basic | bearer',
  pixAmountUnit: 'unidade dos valores Pix na API: cents | reais (vazio: nenhum Pix é enviado; veja na documentação do provedor)',
  maxItemAmount: 'maior valor de um item (R$)',
  maxBatchTotal: 'maior total de uma importação ou repetição, somados todos os seus lotes (R$)',
  receiptsDir: 'pasta dos comprovantes em PDF',
  apiKey: 'Service-ApiKey',
  clientSecret: 'client secret OAuth 2.0',
  webhookSecret: 'segredo combinado com o provedor para as entregas de webhook',
};
