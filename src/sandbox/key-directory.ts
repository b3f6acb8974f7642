import { cnpjCheckDigits } from '../domain/cnpj.js';
import { cpfCheckDigits } from '../domain/cpf.js';
import type { Destination } from '../domain/destination.js';
import type { PixKeyType } from '../domain/pix-key.js';
import { COMPANY_WORDS, FIRST_NAMES, INSTITUTIONS, SURNAMES } from './people.js';
import { hashDigits, hashUnit } from './random.js';


/**
 * Whether the sandbox's directory says a (normalized) key does not exist, before admin overrides:
 * a CPF whose digits 7–9 are "000" (123.456.000-xx); a CNPJ whose branch number (characters 9–12) is "0000";
 * a phone number ending in "0000"; an e-mail whose local part starts with "nobody"; a random key (EVP) whose last
 * group is all zeros. About 1 in 1,000 random keys or fewer.
 */
export function missingByRule(normalized: string, type: PixKeyType): boolean {
  switch (type) {
    case 'cpf':
      return normalized.slice(6, 9) === '000';
    case 'cnpj':
      return normalized.slice(8, 12) === '0000';
    case 'phone':
      return normalized.endsWith('0000');
    case 'email':
      return normalized.startsWith('nobody');
    case 'evp':
      return normalized.endsWith('-000000000000');
  }
}

/** A CPF as providers show it: "12345678909" → "***.456.789-**". */
export const maskCpf = (cpf: string): string => `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`;

/** A CNPJ as the sandbox shows it: "11222333000181" → "**.222.333/0001-**". */
export const maskCnpj = (cnpj: string): string => `**.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-**`;

/**
 * The destination the sandbox answers for an existing key, computed from the key alone (no seed), so tests and
 * fixtures can know it: for CPF and CNPJ keys the document is the key, masked (maskCpf, maskCnpj); for other keys a
 * made-up CPF (a company's CNPJ for 1 in 5 e-mail and random keys), masked the same way.
 */
export function destinationForKey(normalized: string, type: PixKeyType): Destination {
  const seedText = `${type}:${normalized}`;
  const at = (what: string): number => hashUnit(`${seedText}:${what}`);
  const choose = <T>(list: readonly T[], what: string): T => list[Math.floor(at(what) * list.length)] as T;
  const company = type === 'cnpj' || ((type === 'email' || type === 'evp') && at('company') < 0.2);
  const surname = choose(SURNAMES, 'surname');
  const name = company
    ? `${surname} ${choose(COMPANY_WORDS, 'word')} Ltda`
    : `${choose(FIRST_NAMES, 'first')} ${choose(SURNAMES, 'middle')} ${surname}`;
  const institution = choose(INSTITUTIONS, 'institution');
  const accountType = company ? 'checkingAccount' : choose(['checkingAccount', 'checkingAccount', 'savingsAccount', 'paymentAccount'], 'account');
  return {
    accountType,
    branch: hashDigits(`${seedText}:branch`, 4),
    key: normalized,
    accountNumber: `${hashDigits(`${seedText}:account`, 7)}-${hashDigits(`${seedText}:account-digit`, 1)}`,
    institutionName: institution.name,
    document: documentFor(normalized, type, company, seedText),
    type,
    institution: institution.ispb,
    name,
  };
}

function documentFor(normalized: string, type: PixKeyType, company: boolean, seedText: string): string {
  if (type === 'cpf') return maskCpf(normalized);
  if (type === 'cnpj') return maskCnpj(normalized);
  if (company) {
    const base = `${hashDigits(`${seedText}:cnpj`, 8)}0001`;
    return maskCnpj(base + cnpjCheckDigits(base));
  }
  // A base of nine equal digits makes no valid CPF; nudge the last one.
  let base = hashDigits(`${seedText}:cpf`, 9);
  if (/^(\d)\1{8}$/.test(base)) base = base.slice(0, 8) + String((Number(base.charAt(8)) + 1) % 10);
  return maskCpf(base + cpfCheckDigits(base));
}
