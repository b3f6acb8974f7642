import type { InputProblem } from '../../errors.js';
import type { SheetProblem } from '../../domain/sheet-reason.js';
import type { Locale } from '../../words/locale.js';
import { saySheet } from '../../words/sheet.js';

/** The refusals of `paybatch import` (and `--check`) and the reasons the provider's answers give rows, in English. */
const en = {
  /** Ends a refusal sentence: `imported` when an import was refused (nothing was written), false for `--check`. */
  refused: (sentence: string, imported: boolean) => `${sentence}${imported ? '; nothing was imported' : ''}.`,
  nothingImported: 'nothing was imported',
  cannotRead: (file: string) => `${file} cannot be read as a payment sheet`,
  noRows: (file: string) => `${file} has no payment rows`,
  sheetChanged: (file: string) => `${file} changed while it was being imported; nothing was imported. Run the import again.`,
  rowsInvalid: (file: string, rejected: number, rows: number) => `${file}: ${rejected} of ${rows} ${rows === 1 ? 'row' : 'rows'} ${rejected === 1 ? 'is' : 'are'} invalid`,
  fixOrSkipInvalid: (rejectedFile: string) =>
    `Fix the sheet, or pass --skip-invalid to import the valid rows and write the others to ${rejectedFile}.`,
  providerRulesOut: (file: string, rows: number) => `${file}: the provider rules out ${rows} ${rows === 1 ? 'row' : 'rows'}`,
  fixOrSkipRuledOut: (rejectedFile: string) =>
    `Fix the sheet, or pass --skip-invalid to import the other rows and write these to ${rejectedFile}.`,
  noRowPayable: (file: string) => `${file}: no row can be paid`,
  aboveBatchTotal: (file: string, total: string, limit: string) => `${file}: the total ${total} is above the profile's maxBatchTotal of ${limit}`,
  splitOrRaise: "Split the sheet, or raise the limit with 'paybatch config set maxBatchTotal <R$>'.",
  duplicates: (source: string, rows: number, days: number) =>
    `${source}: ${rows} ${rows === 1 ? 'row pays' : 'rows pay'} a key the same amount it was paid in the last ${days} days`,
  paidBefore: (key: string, amount: string, batchName: string, date: string) => `${key} was paid ${amount} in batch "${batchName}" on ${date}`,
  allowDuplicates: 'If these are meant to be paid again, pass --allow-duplicates.',
  unknownKey: 'the provider does not know this Pix key',
  refusedKey: (message: string) => `the provider refused this key: ${message}`,
  keyNotLookedUp: 'the key was not looked up',
  documentMismatch: (shown: string, given: string) => `the key belongs to document ${shown}, not ${given}`,
  noDocumentShown: 'the provider shows no document for this key, so it cannot be checked',
};

export type ImportWords = typeof en;

const ptBR: ImportWords = {
  refused: (sentence, imported) => `${sentence}${imported ? '; nada foi importado' : ''}.`,
  nothingImported: 'nada foi importado',
  cannotRead: (file) => `${file} não pode ser lido como planilha de pagamentos`,
  noRows: (file) => `${file} não tem linhas de pagamento`,
  sheetChanged: (file) => `${file} mudou enquanto era importado; nada foi importado. Rode a importação de novo.`,
  rowsInvalid: (file, rejected, rows) => `${file}: ${rejected} de ${rows} ${rows === 1 ? 'linha' : 'linhas'} ${rejected === 1 ? 'é inválida' : 'são inválidas'}`,
  fixOrSkipInvalid: (rejectedFile) =>
    `Corrija a planilha, ou use --skip-invalid para importar as linhas válidas e gravar as outras em ${rejectedFile}.`,
  providerRulesOut: (file, rows) => `${file}: o provedor recusa ${rows} ${rows === 1 ? 'linha' : 'linhas'}`,
  fixOrSkipRuledOut: (rejectedFile) =>
    `Corrija a planilha, ou use --skip-invalid para importar as outras linhas e gravar estas em ${rejectedFile}.`,
  noRowPayable: (file) => `${file}: nenhuma linha pode ser paga`,
  aboveBatchTotal: (file, total, limit) => `${file}: o total ${total} passa do maxBatchTotal do perfil, de ${limit}`,
  splitOrRaise: "Divida a planilha, ou aumente o limite com 'paybatch config set maxBatchTotal <R$>'.",
  duplicates: (source, rows, days) =>
    `${source}: ${rows} ${rows === 1 ? 'linha paga' : 'linhas pagam'} a uma chave o mesmo valor já pago a ela nos últimos ${days} dias`,
  paidBefore: (key, amount, batchName, date) => `${key} recebeu ${amount} no lote "${batchName}" em ${date}`,
  allowDuplicates: 'Se é para pagar de novo, use --allow-duplicates.',
  unknownKey: 'o provedor não conhece esta chave Pix',
  refusedKey: (message) => `o provedor recusou esta chave: ${message}`,
  keyNotLookedUp: 'a chave não foi consultada',
  documentMismatch: (shown, given) => `a chave pertence ao documento ${shown}, não a ${given}`,
  noDocumentShown: 'o provedor não mostra documento para esta chave, então não dá para conferir',
};

/** The engine's import words per locale (the CLI passes 'en' under `--json`). */
export const IMPORT_WORDS: Readonly<Record<Locale, ImportWords>> = { en, 'pt-BR': ptBR };

/** A sheet's problem in `locale`'s words, with its reason's stable code beside them. */
export function sheetProblemIn<P extends SheetProblem>(p: P, locale: Locale): Omit<P, 'reason'> & InputProblem {
  return { ...p, reason: saySheet(p.reason, locale), code: p.reason.code };
}
