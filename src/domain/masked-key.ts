import { formatCnpj } from './cnpj.js';
import type { PixKeyType } from './pix-key.js';

/**
 * A Pix key as a receipt shows it, hidden the way Brazilian banks hide a person's data on receipts (LGPD), one rule
 * per key type, from the key's normalized form:
 *
 * - CPF: the middle six digits only, `***.456.789-**` (the form the Central Bank's Pix rules use for a CPF);
 * - CNPJ: in full, `11.222.333/0001-81`: a company's registry number is public;
 * - phone: the country and area codes and the last four digits, `+55 (11) *****-4321`;
 * - e-mail: the first two characters of the name (one for a name of two or fewer) and the first letter of the
 *   domain's first label, its suffix kept: `fu***@e***.com.br`;
 * - random key: its first group and last four characters, `123e4567-****-****-****-********4000`.
 *
 * A key that does not have its type's normalized shape shows only its last four characters (nothing when shorter
 * than nine): a receipt never prints more than the rule allows.
 */
export function maskPixKey(key: string, type: PixKeyType): string {
  switch (type) {
    case 'cpf':
      if (/^\d{11}$/.test(key)) return `***.${key.slice(3, 6)}.${key.slice(6, 9)}-**`;
      break;
    case 'cnpj':
      if (/^[0-9A-Z]{12}\d{2}$/.test(key)) return formatCnpj(key);
      break;
    case 'phone': {
      const phone = /^\+55(\d{2})\d{5}(\d{4})$/.exec(key);
      if (phone) return `+55 (${phone[1]}) *****-${phone[2]}`;
      break;
    }
    case 'email': {
      const at = key.lastIndexOf('@');
      if (at > 0 && at < key.length - 1) return `${maskEmailName(key.slice(0, at))}@${maskEmailDomain(key.slice(at + 1))}`;
      break;
    }
    case 'evp':
      if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(key)) return `${key.slice(0, 8)}-****-****-****-********${key.slice(-4)}`;
      break;
  }
  return key.length > 8 ? `***${key.slice(-4)}` : '***';
}

function maskEmailName(name: string): string {
  return `${name.slice(0, name.length > 2 ? 2 : 1)}***`;
}

function maskEmailDomain(domain: string): string {
  const dot = domain.indexOf('.');
  const [first, suffix] = dot < 0 ? [domain, ''] : [domain.slice(0, dot), domain.slice(dot)];
  return `${first.slice(0, 1)}***${suffix}`;
}
