import { formatCnpj, normalizeCnpj } from './cnpj.js';
import { formatCpf, normalizeCpf } from './cpf.js';
import { fail, ok, type Result } from './result.js';
import type { DocumentReason } from './validation-reason.js';

export type DocumentType = 'cpf' | 'cnpj';

/**
 * Normalizes a payee document: 11 digits → CPF, 14 characters (numeric or alphanumeric) → CNPJ, after removing
 * dots, slash, dash and spaces. Check digits are verified; the reason is the one of the type that was tried.
 */
export function normalizeDocument(input: string): Result<{ type: DocumentType; value: string }, DocumentReason> {
  const compact = input.replace(/[\s\u00a0.\/\-]/g, '');
  if (compact === '') return fail({ code: 'document_empty' });
  if (compact.length === 11) {
    const cpf = normalizeCpf(compact);
    return cpf.ok ? ok({ type: 'cpf', value: cpf.value }) : fail(cpf.error);
  }
  if (compact.length === 14) {
    const cnpj = normalizeCnpj(compact);
    return cnpj.ok ? ok({ type: 'cnpj', value: cnpj.value }) : fail(cnpj.error);
  }
  return fail({ code: 'document_length', length: compact.length });
}

// How providers hide characters of a document.
const HIDDEN = /^[*•●#_?]$/;
const SEPARATORS = /[\s\u00a0.\/\-]/g;

/**
 * Whether a document as a provider shows it ("***.456.789-**", "***456789**", or complete) can be `expected`
 * (a normalized CPF or CNPJ): every character shown must equal the one in the same position, with hidden ones
 * (*, •, ●, #, _, ?) matching anything. A shown text with the mask is compared with the masked form of
 * `expected`, so separators must line up too. False when lengths or positions cannot line up, or nothing is shown.
 * "x"/"X" hide only digits, since "X" is also a CNPJ letter.
 */
export function maskedDocumentMatches(expected: string, shown: string): boolean {
  const plain = expected.replace(SEPARATORS, '').toUpperCase();
  const masked = maskOf(plain);
  if (masked === null) return false;
  const text = shown.trim().toUpperCase();

  const [reference, candidate] = text.length === masked.length && /[.\/\-]/.test(text)
    ? [masked, text]
    : [plain, text.replace(SEPARATORS, '')];
  if (candidate.length !== reference.length) return false;

  let shownCount = 0;
  for (let i = 0; i < reference.length; i++) {
    const want = reference[i] as string;
    const got = candidate[i] as string;
    if (got === want) {
      if (/[0-9A-Z]/.test(got)) shownCount++;
      continue;
    }
    if (HIDDEN.test(got) && /[0-9A-Z]/.test(want)) continue;
    if (got === 'X' && /\d/.test(want)) continue;
    return false;
  }
  return shownCount > 0;
}

function maskOf(plain: string): string | null {
  if (/^\d{11}$/.test(plain)) return formatCpf(plain);
  if (/^[0-9A-Z]{12}\d{2}$/.test(plain)) return formatCnpj(plain);
  return null;
}

// Characters a shown document may hold: its own, and those providers hide others with.
const SHOWABLE = /^[0-9A-Z*•●#_?]+$/;

/**
 * A payee's document as Brazilian statements show it, from the sheet's (normalized or typed with its mask) or from
 * what a key lookup answered (often already hidden by the provider): a CPF with its middle six digits only,
 * `***.456.789-**` (LGPD); a CNPJ in full and formatted, `12.345.678/0001-95` (a company's registry number is
 * public; what a provider hid stays hidden). Text of neither shape shows its last four characters only (nothing when
 * shorter than nine): a statement never prints more than the rule allows. Null for no document.
 */
export function shownDocument(text: string | null): string | null {
  if (text === null || text.trim() === '') return null;
  const c = text.replace(SEPARATORS, '').toUpperCase();
  if (c.length === 11 && SHOWABLE.test(c)) return `***.${c.slice(3, 6)}.${c.slice(6, 9)}-**`;
  if (c.length === 14 && SHOWABLE.test(c)) return `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5, 8)}/${c.slice(8, 12)}-${c.slice(12)}`;
  return c.length > 8 ? `***${c.slice(-4)}` : '***';
}
