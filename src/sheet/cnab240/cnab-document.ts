import { normalizeDocument, type DocumentType } from '../../domain/document.js';
import type { DocumentReason } from '../../domain/validation-reason.js';

/** A payee's or the company's document; `valid` false when its check digits (or type) are wrong: refused by an import. */
export interface CnabDocument {
  readonly type: DocumentType;
  readonly value: string;
  readonly valid: boolean;
}

/**
 * A document as a CNAB field holds it: type 1 a CPF (its 11 digits right-aligned, zeros before), type 2 a CNPJ
 * (14 characters, alphanumeric since 2026, right-aligned in wider fields). With no type (null: Itaú's segment A),
 * 11 digits are a CPF and 14 characters a CNPJ, or a CPF behind three zeros. Any other type code is refused: the
 * document would be a guess.
 */
export function parseDocument(type: string | null, text: string): { ok: true; value: CnabDocument } | { ok: false; reason: DocumentReason } {
  const value = text.trim();
  const cpf = /^0*(\d{11})$/.exec(value);
  if (type === '1') return asType(cpf ? normalizeDocument(cpf[1]!) : normalizeDocument(value), 'cpf', value);
  if (type === '2') return asType(normalizeDocument(/^0+[0-9A-Z]{14}$/.test(value) ? value.slice(-14) : value.padStart(14, '0')), 'cnpj', value);
  if (type === null) {
    const doc = normalizeDocument(value);
    if (doc.ok || value.length !== 14 || !cpf) return asType(doc, null, value);
    return asType(normalizeDocument(cpf[1]!), 'cpf', value);
  }
  return { ok: false, reason: { code: 'document_length', length: value.length } };
}

function asType(
  doc: ReturnType<typeof normalizeDocument>,
  type: DocumentType | null,
  value: string,
): { ok: true; value: CnabDocument } | { ok: false; reason: DocumentReason } {
  if (!doc.ok) return { ok: false, reason: doc.error };
  if (type !== null && doc.value.type !== type) return { ok: false, reason: { code: 'document_length', length: value.length } };
  return { ok: true, value: { ...doc.value, valid: true } };
}
