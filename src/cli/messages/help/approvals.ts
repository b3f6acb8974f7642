import type { Locale } from '../../../words/locale.js';

/** The help of `paybatch approver` and `paybatch approvals`, and the `--key` and `--yes` options of the approve commands. */
export interface ApprovalsHelp {
  /** `--key <file>`, the approver key a command uses. */
  readonly key: string;
  /** `--yes` of `batch approve`, `batch claim` and `boleto approve`. */
  readonly yes: string;
  readonly approver: {
    readonly group: string;
    readonly init: { readonly description: string; readonly passphrase: string; readonly examples: string };
    readonly add: { readonly description: string; readonly name: string; readonly publicKey: string; readonly examples: string };
    readonly list: { readonly description: string; readonly examples: string };
    readonly remove: { readonly description: string; readonly name: string; readonly examples: string };
  };
  readonly approvals: {
    readonly group: string;
    readonly pending: { readonly description: string; readonly examples: string };
  };
}

export const approvalsHelp: Readonly<Record<Locale, ApprovalsHelp>> = {
  en: {
    key: 'the approver private key (default: approver/approver-key.pem in the paybatch config folder)',
    yes: 'sign without asking for confirmation (the summary is still printed)',
    approver: {
      group: "approvers' keys: make your own key pair, and register the public keys of a profile's approvers",
      init: {
        description: 'make your Ed25519 approver key pair (private key 0600 in your config folder) and print the public key to register',
        passphrase: 'encrypt the private key with a passphrase (asked twice, or PAYBATCH_APPROVER_PASSPHRASE in scripts)',
        examples: `
The public key is printed as one line, ed25519:<base64>, to hand to whoever keeps the profile. With a passphrase,
every approval asks for it (or reads PAYBATCH_APPROVER_PASSPHRASE). An existing key is never replaced.

Examples:
  paybatch approver init --passphrase
  PAYBATCH_APPROVER_PASSPHRASE=… paybatch approver init --passphrase --json`,
      },
      add: {
        description: "register an approver's public key in the profile's config file (not in the ledger)",
        name: "the approver's name, e.g. ana.souza",
        publicKey: "the line 'paybatch approver init' printed: ed25519:<base64>",
        examples: '\nExamples:\n  paybatch approver add ana.souza ed25519:Zm9vYmFy…\n  paybatch --profile prod approver add bruno ed25519:… --json',
      },
      list: {
        description: "the profile's approvers with their key fingerprints",
        examples: '\nExamples:\n  paybatch approver list\n  paybatch --profile prod approver list --json',
      },
      remove: {
        description: 'remove an approver from the profile: approvals signed with that key stop counting',
        name: "the approver's name",
        examples: '\nExamples:\n  paybatch approver remove bruno',
      },
    },
    approvals: {
      group: 'signed approvals (maker-checker) of batches and bills',
      pending: {
        description: 'what waits for approvals: batches and bills the policy names, who signed, how many are missing, the command to sign',
        examples: '\nExamples:\n  paybatch approvals pending\n  paybatch approvals pending --json',
      },
    },
  },
  'pt-BR': {
    key: 'a chave privada de aprovador (padrão: approver/approver-key.pem na pasta de configuração do paybatch)',
    yes: 'assina sem pedir confirmação (o resumo é mostrado mesmo assim)',
    approver: {
      group: 'chaves de aprovadores: cria o seu par de chaves e registra as chaves públicas dos aprovadores de um perfil',
      init: {
        description: 'cria o seu par de chaves de aprovador Ed25519 (chave privada 0600 na sua pasta de configuração) e mostra a chave pública a registrar',
        passphrase: 'cifra a chave privada com uma frase-senha (pedida duas vezes, ou PAYBATCH_APPROVER_PASSPHRASE em scripts)',
        examples: `
A chave pública sai numa linha só, ed25519:<base64>, para entregar a quem cuida do perfil. Com frase-senha, toda
aprovação a pede (ou a lê de PAYBATCH_APPROVER_PASSPHRASE). Uma chave existente nunca é substituída.

Exemplos:
  paybatch approver init --passphrase
  PAYBATCH_APPROVER_PASSPHRASE=… paybatch approver init --passphrase --json`,
      },
      add: {
        description: 'registra a chave pública de um aprovador no arquivo de configuração do perfil (não no registro local)',
        name: 'o nome do aprovador, p. ex. ana.souza',
        publicKey: "a linha que 'paybatch approver init' mostrou: ed25519:<base64>",
        examples: '\nExemplos:\n  paybatch approver add ana.souza ed25519:Zm9vYmFy…\n  paybatch --profile prod approver add bruno ed25519:… --json',
      },
      list: {
        description: 'lista os aprovadores do perfil com a impressão digital de cada chave',
        examples: '\nExemplos:\n  paybatch approver list\n  paybatch --profile prod approver list --json',
      },
      remove: {
        description: 'remove um aprovador do perfil: as aprovações assinadas com essa chave deixam de contar',
        name: 'o nome do aprovador',
        examples: '\nExemplos:\n  paybatch approver remove bruno',
      },
    },
    approvals: {
      group: 'aprovações assinadas (segregação de funções: quem faz não aprova) de lotes e boletos',
      pending: {
        description: 'mostra o que aguarda aprovação: lotes e boletos que a política abrange, quem já assinou, quantas faltam e o comando para assinar',
        examples: '\nExemplos:\n  paybatch approvals pending\n  paybatch approvals pending --json',
      },
    },
  },
};
