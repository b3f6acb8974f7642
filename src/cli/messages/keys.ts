import type { Locale } from '../../words/locale.js';
import type { Destination } from '../../domain/destination.js';

/** What `keys lookup` says to people: a label per field of the provider's answer, in the order a person reads them. */
export interface KeysMessages {
  readonly unknownKey: (key: string) => string;
  readonly labels: Readonly<Record<keyof Destination, string>>;
  /** The provider's account type words (`checkingAccount`) for people; an unknown word is shown as it came. */
  readonly accountTypes: Readonly<Record<string, string>>;
  /** The table of `keys check`: its header row, valid or not, and the other types an ambiguous key could be. */
  readonly check: { readonly header: readonly string[]; readonly yes: string; readonly no: string; alsoValidAs(types: string): string };
}

/** The order of the lines of `keys lookup`. */
export const DESTINATION_FIELDS: readonly (keyof Destination)[] = [
  'name', 'document', 'institutionName', 'institution', 'branch', 'accountNumber', 'accountType', 'key', 'type',
];

export const keysMessages: Readonly<Record<Locale, KeysMessages>> = {
  en: {
    unknownKey: (key) => `The provider does not know the key ${key}.`,
    labels: {
      name: 'Name', document: 'Document', institutionName: 'Institution', institution: 'Institution code (ISPB)',
      branch: 'Branch', accountNumber: 'Account', accountType: 'Account type', key: 'Pix key', type: 'Key type',
    },
    accountTypes: { checkingAccount: 'checking', savingsAccount: 'savings', paymentAccount: 'payment', salaryAccount: 'salary' },
    check: { header: ['key', 'valid', 'type', 'normalized', 'note'], yes: 'yes', no: 'no', alsoValidAs: (types) => `could also be: ${types} (pass --type)` },
  },
  'pt-BR': {
    unknownKey: (key) => `O provedor não conhece a chave ${key}.`,
    labels: {
      name: 'Nome', document: 'Documento', institutionName: 'Instituição', institution: 'Código da instituição (ISPB)',
      branch: 'Agência', accountNumber: 'Conta', accountType: 'Tipo de conta', key: 'Chave Pix', type: 'Tipo de chave',
    },
    accountTypes: { checkingAccount: 'corrente', savingsAccount: 'poupança', paymentAccount: 'pagamento', salaryAccount: 'salário' },
    check: { header: ['chave', 'válida', 'tipo', 'normalizada', 'observação'], yes: 'sim', no: 'não', alsoValidAs: (types) => `também pode ser: ${types} (passe --type)` },
  },
};
