import { SHEET_WORDS, type SheetWords } from './sheet-words.js';

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

export interface HeaderMapping {
  columns: Partial<Record<SheetField, number>>;
  /** Why the header cannot be used; empty when it can. Unknown columns are not problems: they are ignored. */
  problems: string[];
  /** The language most recognized column names are in; ties (or none) go to `fallback`. */
  lang: Lang;
}

/** Maps header cells to fields by their aliases; reports missing required columns and fields named twice, in the words of `w`. */
export function mapHeader(header: readonly string[], fallback: Lang, w: SheetWords = SHEET_WORDS.en): HeaderMapping {
  const columns: Partial<Record<SheetField, number>> = {};
  const problems: string[] = [];
  let pt = 0;
  let en = 0;
  header.forEach((cell, index) => {
    const alias = BY_NAME.get(foldHeader(cell));
    if (!alias) return;
    if (alias.lang === 'pt') pt++;
    if (alias.lang === 'en') en++;
    const first = columns[alias.field];
    if (first === undefined) {
      columns[alias.field] = index;
    } else {
      problems.push(w.columnTwice(header[first]?.trim() ?? '', first + 1, cell.trim(), index + 1, alias.field));
    }
  });
  for (const field of REQUIRED_FIELDS) {
    if (columns[field] !== undefined) continue;
    const found = header.filter((c) => c.trim() !== '').map((c) => `"${c.trim()}"`).join(', ');
    problems.push(w.columnMissing(field, found));
  }
  return { columns, problems, lang: pt > en ? 'pt' : en > pt ? 'en' : fallback };
}
