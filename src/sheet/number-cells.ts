import { formatCnpj, normalizeCnpj } from '../domain/cnpj.js';
import { formatCpf, normalizeCpf } from '../domain/cpf.js';
import type { SheetField } from './headers.js';
import type { SheetRow } from './read-sheet.js';
import type { RowReason } from '../domain/sheet-reason.js';

/** The fields that hold a document or a key, whose leading zeros a spreadsheet drops when it stores them as numbers. */
const DOCUMENT_FIELDS: readonly SheetField[] = ['key', 'document'];

/**
 * Why a key or document cell that a workbook stored as a number cannot be the payee's: its digits are fewer than a
 * CPF's 11 or a CNPJ's 14, so Excel dropped leading zeros. paybatch never puts the zeros back on its own — a
 * payee's document is not guessed — but names the document they would make when its check digits agree.
 * Null when the field was not a number or its digits are not short.
 */
export function lostZerosReason(row: SheetRow, field: SheetField): RowReason | null {
  if (!DOCUMENT_FIELDS.includes(field) || !row.numericFields?.includes(field)) return null;
  const digits = row.cells[field];
  if (digits === undefined || !/^\d+$/.test(digits) || digits.length === 11 || digits.length >= 14) return null;
  const cpf = digits.length < 11 ? normalizeCpf(digits.padStart(11, '0')) : null;
  const cnpj = normalizeCnpj(digits.padStart(14, '0'));
  const meant = cpf?.ok ? { type: 'cpf' as const, value: formatCpf(cpf.value) } : cnpj.ok ? { type: 'cnpj' as const, value: formatCnpj(cnpj.value) } : null;
  return { code: 'zeros_lost', digits, meant };
}
