import type { Locale } from '../../../words/locale.js';

/** The words of `paybatch --help` itself, commander's own headings and the commands main.ts adds. */
export interface ProgramHelp {
  readonly description: string;
  readonly version: string;
  readonly json: string;
  readonly profile: string;
  readonly ledger: string;
  readonly noColor: string;
  readonly quiet: string;
  readonly verbose: string;
  readonly help: string;
  readonly examples: string;
  /** commander's headings ("Usage:", "Options:", …) and the parts of an option's description it adds. */
  readonly titles: Readonly<Record<string, string>>;
  /** A usage line as commander writes it, its placeholders in this language. */
  usage(line: string): string;
  /** The `help [command]` of each group. */
  readonly groupHelp: { readonly term: string; readonly description: string };
  choices(values: string): string;
  defaultIs(value: string): string;
  envIs(name: string): string;
  readonly helpCommand: { readonly description: string; readonly argument: string; noCommand(names: string): string };
  readonly completion: { readonly description: string; readonly argument: string; readonly examples: string };
  readonly man: { readonly description: string; readonly examples: string };
}

export const programHelp: Readonly<Record<Locale, ProgramHelp>> = {
  en: {
    description: 'Pay many people and bills at once through a Pix provider, with a local ledger that never pays twice.',
    version: 'print the version',
    json: 'print exactly one JSON document on stdout (logs and progress go to stderr)',
    profile: 'configuration profile to use',
    ledger: 'the ledger: an SQLite file, or a postgres:// URL shared by several hosts (default: the ledger setting, PAYBATCH_LEDGER)',
    noColor: 'never colour the output (NO_COLOR is honoured too)',
    quiet: 'print only results and errors',
    verbose: 'print details of what happens on stderr',
    help: 'print the help of the command',
    examples: `
Examples:
  paybatch import pagamentos.csv --start     validate, confirm, create the batch and start it
  paybatch daemon                            follow payments: webhooks, reconciliation, alerts, receipts
  paybatch batch show 1 --refresh            progress of batch #1, refreshed from the provider
  paybatch keys check 529.982.247-25         check a Pix key offline
  paybatch help keys check                   help of one command

Exit codes: 0 ok, 1 failure, 2 usage, 3 input rejected, 4 attention needed.`,
    titles: {},
    usage: (line) => line,
    groupHelp: { term: 'help [command]', description: 'display help for command' },
    choices: (values) => `(choices: ${values})`,
    defaultIs: (value) => `(default: ${value})`,
    envIs: (name) => `(env: ${name})`,
    helpCommand: {
      description: 'print the help of a command, e.g. paybatch help keys check',
      argument: 'the command, with its group',
      noCommand: (names) => `There is no command "${names}".`,
    },
    completion: {
      description: 'print the shell completion script for bash, zsh or fish',
      argument: 'the shell',
      examples: '\nExamples:\n  source <(paybatch completion bash)       # in ~/.bashrc\n  paybatch completion zsh > "${fpath[1]}/_paybatch"\n  paybatch completion fish > ~/.config/fish/completions/paybatch.fish',
    },
    man: { description: 'print the paybatch(1) manual page (roff)', examples: '\nExamples:\n  paybatch man | man -l -\n  paybatch man > ~/.local/share/man/man1/paybatch.1' },
  },
  'pt-BR': {
    description: 'Pague muitas pessoas e contas de uma vez por um provedor Pix, com um registro local que nunca paga duas vezes.',
    version: 'mostra a versão',
    json: 'escreve exatamente um documento JSON na saída padrão (registros e progresso vão para a saída de erros)',
    profile: 'perfil de configuração a usar',
    ledger: 'o registro local: um arquivo SQLite, ou uma URL postgres:// compartilhada por vários servidores (padrão: a configuração ledger, PAYBATCH_LEDGER)',
    noColor: 'nunca colore a saída (NO_COLOR também é respeitado)',
    quiet: 'mostra só resultados e erros',
    verbose: 'mostra na saída de erros os detalhes do que acontece',
    help: 'mostra a ajuda do comando',
    examples: `
Exemplos:
  paybatch import pagamentos.csv --start     valida, confirma, cria o lote e o inicia
  paybatch daemon                            acompanha os pagamentos: webhooks, conciliação, alertas, comprovantes
  paybatch batch show 1 --refresh            andamento do lote 1, atualizado pelo provedor
  paybatch keys check 529.982.247-25         confere uma chave Pix sem rede
  paybatch help keys check                   ajuda de um comando

Códigos de saída: 0 ok, 1 falha, 2 uso, 3 entrada recusada, 4 requer atenção.`,
    titles: { 'Usage:': 'Uso:', 'Arguments:': 'Argumentos:', 'Options:': 'Opções:', 'Commands:': 'Comandos:', 'Global Options:': 'Opções globais:' },
    usage: (line) => line.replace('[options]', '[opções]').replace('[command]', '[comando]'),
    groupHelp: { term: 'help [comando]', description: 'mostra a ajuda de um comando' },
    choices: (values) => `(valores: ${values})`,
    defaultIs: (value) => `(padrão: ${value})`,
    envIs: (name) => `(variável: ${name})`,
    helpCommand: {
      description: 'mostra a ajuda de um comando, p. ex. paybatch help keys check',
      argument: 'o comando, com o seu grupo',
      noCommand: (names) => `Não há comando "${names}".`,
    },
    completion: {
      description: 'escreve o script de completar comandos do bash, zsh ou fish',
      argument: 'o shell',
      examples: '\nExemplos:\n  source <(paybatch completion bash)       # no ~/.bashrc\n  paybatch completion zsh > "${fpath[1]}/_paybatch"\n  paybatch completion fish > ~/.config/fish/completions/paybatch.fish',
    },
    man: { description: 'escreve a página de manual paybatch(1) (roff)', examples: '\nExemplos:\n  paybatch man | man -l -\n  paybatch man > ~/.local/share/man/man1/paybatch.1' },
  },
};
