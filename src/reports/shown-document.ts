import { formatCnpj } from '../domain/cnpj.js';
import { formatCpf } from '../domain/cpf.js';
import { shownDocument as shownInStatements } from '../domain/document.js';

const compact = (document: string) => document.replace(/[\s\u00a0.\/\-]/g, '').toUpperCase();

/** A payee's document as a statement's cell prints it (domain/document.ts shownDocument); empty for none. */
export function shownDocument(document: string | null): string {
  return shownInStatements(document) ?? '';
}

/** The paying company's own document, in full and formatted: the statement is its own. */
export function payerDocument(document: string | null): string {
  if (document === null) return '';
  const plain = compact(document);
  if (/^\d{11}$/.test(plain)) return formatCpf(plain);
  if (/^[0-9A-Z]{12}\d{2}$/.test(plain)) return formatCnpj(plain);
  return document;
}
