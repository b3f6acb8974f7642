import { formatCnpj } from '../domain/cnpj.js';
import { formatCpf } from '../domain/cpf.js';
import { maskPixKey } from '../domain/masked-key.js';

const compact = (document: string) => document.replace(/[\s\u00a0.\/\-]/g, '').toUpperCase();

/**
 * A payee's document as a statement prints it: a CPF with only its middle six digits (`***.456.789-**`, as receipts
 * and the Pix rules show it), a CNPJ in full and formatted (a company's registry number is public), anything else
 * (already masked by the provider) as it came.
 */
export function shownDocument(document: string | null): string {
  if (document === null) return '';
  const plain = compact(document);
  if (/^\d{11}$/.test(plain)) return maskPixKey(plain, 'cpf');
  if (/^[0-9A-Z]{12}\d{2}$/.test(plain)) return maskPixKey(plain, 'cnpj');
  return document;
}

/** The paying company's own document, in full and formatted: the statement is its own. */
export function payerDocument(document: string | null): string {
  if (document === null) return '';
  const plain = compact(document);
  if (/^\d{11}$/.test(plain)) return formatCpf(plain);
  if (/^[0-9A-Z]{12}\d{2}$/.test(plain)) return formatCnpj(plain);
  return document;
}
