import { cnpjCheckDigits, formatCnpj } from '../domain/cnpj.js';
import { SANDBOX_INSTITUTION } from './people.js';
import { hashDigits } from './random.js';

/** The payer's side of an account's payments (the Pix event `from` object, bill payer fields). */
export interface Payer {
  key: string;
  name: string;
  accountNumber: string;
  institutionName: string;
  branch: string;
  document: string;
  institution: string;
}

/** Every account starts with R$ 10.000.000,00 of play money; the balance only informs `balanceAfter`. */
export const INITIAL_BALANCE_CENTS = 1_000_000_000;

/** The made-up company that pays from an account, computed from the account id. */
export function payerOf(account: string): Payer {
  const base = `${hashDigits(`${account}:cnpj`, 8)}0001`;
  const cnpj = base + cnpjCheckDigits(base);
  return {
    key: cnpj,
    name: `Empresa Sandbox ${account.slice(-4).toUpperCase()} Ltda`,
    accountNumber: `${hashDigits(`${account}:account`, 7)}-${hashDigits(`${account}:digit`, 1)}`,
    institutionName: SANDBOX_INSTITUTION.name,
    branch: '0001',
    document: formatCnpj(cnpj),
    institution: SANDBOX_INSTITUTION.ispb,
  };
}

/** The numeric service id an account's events carry. */
export function serviceIdOf(account: string): number {
  return 100_000 + Number(hashDigits(`${account}:service`, 5));
}
