import { normalizeDocument } from '../domain/document.js';
import { sayValidation } from '../words/validation.js';
import type { ItemRow } from './pix-store.js';
import type { Problems } from './validate.js';

/**
 * A Pix by account data: an item whose `to` names no key but a bank account. The items table keeps a key for every
 * item, so such an item is stored under this key type, with its account as the key (accountReference).
 */
export const ACCOUNT_KEY_TYPE = 'account';

const ACCOUNT_TYPES = ['checkingAccount', 'savingsAccount', 'paymentAccount'] as const;

/** A bank code (COMPE, 3 digits) or an ISPB (8 digits). */
const INSTITUTION = /^(\d{3}|\d{8})$/;
const BRANCH = /^\d{1,4}$/;
/** Digits, then optionally "-" and a check character. */
const ACCOUNT_NUMBER = /^\d+(-[\dX])?$/;
const MAX_ACCOUNT_NUMBER = 20;

/**
 * Checks the account fields of a `to` without a key, recording each problem at `<at>.<field>`; returns the account
 * as the item's stored key, "<institution>:<branch>:<account number>", where leading zeros and the dash do not
 * count (so the same account written two ways is the same destination for idempotency), or null when a field is
 * wrong.
 */
export function accountReference(to: Readonly<Record<string, string>>, at: string, problems: Problems): string | null {
  const before = problems.list.length;
  const field = (name: string, problem: (text: string) => string | null): string => {
    const text = to[name] ?? '';
    const found = text.trim() === '' ? 'is required' : problem(text);
    if (found !== null) problems.add(`${at}.${name}`, found);
    return text;
  };
  const unless = (valid: boolean, problem: string): string | null => (valid ? null : problem);
  const institution = field('institution', (t) => unless(INSTITUTION.test(t), 'must be a bank code of 3 digits or an ISPB of 8 digits'));
  const branch = field('branch', (t) => unless(BRANCH.test(t), 'must be 1-4 digits'));
  const accountNumber = field('accountNumber', (t) =>
    unless(ACCOUNT_NUMBER.test(t) && t.length <= MAX_ACCOUNT_NUMBER, `must be digits, optionally "-" and a check digit or X, at most ${MAX_ACCOUNT_NUMBER} characters`),
  );
  field('accountType', (t) => unless((ACCOUNT_TYPES as readonly string[]).includes(t), `must be one of ${ACCOUNT_TYPES.join(', ')}`));
  field('document', (t) => {
    const document = normalizeDocument(t);
    return document.ok ? null : sayValidation(document.error, 'en');
  });
  field('name', () => null);
  if (problems.list.length > before) return null;
  const noZeros = (digits: string): string => digits.replace(/^0+(?=.)/, '');
  return `${institution}:${noZeros(branch)}:${noZeros(accountNumber.replace('-', ''))}`;
}

/**
 * Whether an item pays an account the sandbox's rule says is closed (its Pix then fails with AC03): the digits of
 * the account number before the check character (the one after "-", when there is one) are all zeros, e.g.
 * "00000-0" or "0000000".
 */
export function closedAccount(item: Pick<ItemRow, 'key_type' | 'to_json'>): boolean {
  if (item.key_type !== ACCOUNT_KEY_TYPE) return false;
  const { accountNumber } = JSON.parse(item.to_json) as { accountNumber: string };
  return /^0+(-[\dX])?$/.test(accountNumber);
}
