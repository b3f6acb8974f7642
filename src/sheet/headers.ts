import { isUtf8 } from 'node:buffer';
import { windows1252Bytes } from './decode-text.js';
import type { SheetFileReason } from '../domain/sheet-reason.js';

/** The columns paybatch reads from a payment sheet. */
export type SheetField = 'key' | 'keyType' | 'amount' | 'description' | 'identifier' | 'name' | 'document';

export const SHEET_FIELDS: readonly SheetField[] = Object.freeze([
  'key', 'keyType', 'amount', 'description', 'identifier', 'name', 'document',
] as const);

export const REQUIRED_FIELDS: readonly SheetField[] = Object.freeze(['key', 'amount'] as const);

type Lang = 'pt' | 'en';

/**
 * Header names, folded as `foldHeader` folds them, with the language each one is written in (null: both).
 * The first name of each field is the one templates and messages use.
 */
const ALIASES: Readonly<Record<SheetField, readonly (readonly [string, Lang | null])[]>> = {
  key: [['chave', 'pt'], ['chavepix', 'pt'], ['key', 'en'], ['pixkey', 'en']],
  keyType: [
    ['tipochave', 'pt'], ['tipo', 'pt'], ['tipodechave', 'pt'], ['tipochavepix', 'pt'],
    ['keytype', 'en'], ['type', 'en'], ['pixkeytype', 'en'],
  ],
  amount: [['valor', 'pt'], ['amount', 'en'], ['value', 'en']],
  description: [['descricao', 'pt'], ['historico', 'pt'], ['description', 'en']],
  identifier: [['identificador', 'pt'], ['id', null], ['identifier', 'en']],
  name: [['nome', 'pt'], ['favorecido', 'pt'], ['nomefavorecido', 'pt'], ['nomedofavorecido', 'pt'], ['name', 'en']],
  document: [['documento', 'pt'], ['cpf', null], ['cnpj', null], ['cpfcnpj', null], ['document', 'en']],
};

const BY_NAME: ReadonlyMap<string, { field: SheetField; lang: Lang | null }> = new Map(
  SHEET_FIELDS.flatMap((field) => ALIASES[field].map(([name, lang]) => [name, { field, lang }] as const)),
);

/** The column name a template in `lang` uses for `field`. */
export function templateHeader(field: SheetField, lang: Lang): string {
  const pt: Record<SheetField, string> = {
    key: 'chave', keyType: 'tipo_chave', amount: 'valor', description: 'descricao',
    identifier: 'identificador', name: 'nome', document: 'documento',
  };
  const en: Record<SheetField, string> = {
    key: 'key', keyType: 'key_type', amount: 'amount', description: 'description',
    identifier: 'identifier', name: 'name', document: 'document',
  };
  return (lang === 'pt' ? pt : en)[field];
}

/**
 * Folds a header cell for comparison: accents, case, and everything but letters and digits are ignored, as is a
 * unit in parentheses: "Descrição" → "descricao", "Chave_PIX" → "chavepix", "CPF/CNPJ" → "cpfcnpj",
 * "Valor (R$)" → "valor".
 */
export function foldHeader(cell: string): string {
  return cell
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\([^)]*\)/g, '')
    .replace(/[^a-z0-9]/g, '');
}

/**
 * The field a header cell names, also when the cell came through a wrong decoding: UTF-8 read as Windows-1252
 * ("DescriÃ§Ã£o", a byte order mark as "ï»¿") is read back, and characters a converter replaced with "\uFFFD" or
 * "?" stand for one or two letters when exactly one column name fits. Invisible characters (a byte order mark,
 * zero-width spaces) are dropped by `foldHeader`.
 */
function aliasOf(cell: string): { field: SheetField; lang: Lang | null } | undefined {
  const exact = BY_NAME.get(foldHeader(cell));
  if (exact !== undefined) return exact;
  const bytes = /[\u0080-\uffff]/.test(cell) ? windows1252Bytes(cell) : null;
  if (bytes !== null && isUtf8(bytes)) {
    const repaired = BY_NAME.get(foldHeader(new TextDecoder('utf-8').decode(bytes)));
    if (repaired !== undefined) return repaired;
  }
  const known = cell.split(/[\ufffd?]+/).map(foldHeader);
  // Too few letters left to tell one column from another ("??" would fit "id").
  if (known.length < 2 || known.join('').length < 3) return undefined;
  const pattern = new RegExp(`^${known.join('[a-z]{0,2}')}$`);
  const fits = [...BY_NAME].filter(([name]) => pattern.test(name));
  const fields = new Set(fits.map(([, alias]) => alias.field));
  return fields.size === 1 ? fits[0]![1] : undefined;
}

/** A header cell paybatch does not read: named to the person, never dropped in silence. */
export interface IgnoredColumn {
  /** 1-based, as spreadsheets count columns. */
  readonly column: number;
  readonly name: string;
}

export interface HeaderMapping {
  columns: Partial<Record<SheetField, number>>;
  /** Why the header cannot be used; empty when it can. */
  problems: SheetFileReason[];
  /** Named columns that are no field (notes, totals, a misspelt name): shown in the confirmation and `--json`. */
  ignored: IgnoredColumn[];
  /** The language most recognized column names are in; ties (or none) go to `fallback`. */
  lang: Lang;
}

/** Maps header cells to fields by their aliases; reports missing required columns and fields named twice. */
export function mapHeader(header: readonly string[], fallback: Lang): HeaderMapping {
  const columns: Partial<Record<SheetField, number>> = {};
  const problems: SheetFileReason[] = [];
  const ignored: IgnoredColumn[] = [];
  let pt = 0;
  let en = 0;
  header.forEach((cell, index) => {
    const alias = aliasOf(cell);
    if (!alias) {
      if (cell.trim() !== '') ignored.push({ column: index + 1, name: cell.trim() });
      return;
    }
    if (alias.lang === 'pt') pt++;
    if (alias.lang === 'en') en++;
    const first = columns[alias.field];
    if (first === undefined) {
      columns[alias.field] = index;
    } else {
      problems.push({ code: 'column_twice', first: header[first]?.trim() ?? '', firstColumn: first + 1, second: cell.trim(), secondColumn: index + 1, field: alias.field });
    }
  });
  for (const field of REQUIRED_FIELDS) {
    if (columns[field] !== undefined) continue;
    problems.push({ code: 'column_missing', field, found: header.map((c) => c.trim()).filter((c) => c !== '') });
  }
  return { columns, problems, ignored, lang: pt > en ? 'pt' : en > pt ? 'en' : fallback };
}
