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
}

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
  },
};
