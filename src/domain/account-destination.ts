import type { Destination } from './destination.js';
import type { PixKeyType } from './pix-key.js';

/** What a payment is addressed by: a Pix key of one of the DICT's types, or an account (Pix by account data). */
export type DestinationType = PixKeyType | 'account';

/** The kinds of account a Pix by account data can reach (the destination object's `accountType` words). */
export type AccountType = 'checkingAccount' | 'savingsAccount';

/**
 * A payee's account, as a Pix by account data names it (a CNAB remittance's forms 01/03/05/41/43, or form 45 with
 * account data): the bank by its 3-digit code, the branch (4 digits, no check digit: the DICT's form) and the account
 * number with its check character.
 */
export interface AccountDestination {
  readonly bank: string;
  readonly branch: string;
  readonly account: string;
  readonly accountType: AccountType;
}

/**
 * An account as one text, "<bank>/<branch>/<account>" (e.g. "237/1234/123456-7"): what the ledger keeps where a key
 * payment keeps its key, so duplicates, reports and retries name an account the way they name a key.
 */
export function accountReference(a: Pick<AccountDestination, 'bank' | 'branch' | 'account'>): string {
  return `${a.bank}/${a.branch}/${a.account}`;
}

/**
 * The key-type cells a remittance's table writes for an account title (remittance-table.ts): words no person's sheet
 * uses, so only a CNAB file addresses a payment by account.
 */
export const ACCOUNT_TYPE_CELLS: Readonly<Record<string, AccountType>> = { 'account:checking': 'checkingAccount', 'account:savings': 'savingsAccount' };

/** The account a reference names; null when the text is not one (see accountReference). */
export function parseAccountReference(reference: string, accountType: AccountType): AccountDestination | null {
  const m = /^(\d{3})\/(\d{4})\/(\d{1,19}-[0-9X])$/.exec(reference);
  return m ? { bank: m[1]!, branch: m[2]!, account: m[3]!, accountType } : null;
}

/**
 * The destination object of a Pix without a key: the account, the payee's document and name. `key` and `type` are
 * empty, and the client leaves them out of what it sends. The bank goes in `institution` by its code: the profile
 * says the provider takes that (pixByAccount).
 */
export function accountDestinationOf(a: AccountDestination, document: string, name: string): Destination {
  return { accountType: a.accountType, branch: a.branch, key: '', accountNumber: a.account, institutionName: '', document, type: '', institution: a.bank, name };
}

/** True for the destination of a Pix by account data (no key). */
export function isAccountDestination(d: Destination): boolean {
  return d.key === '';
}
