import { mapHeader } from './headers.js';
import type { ReadSheet } from './read-sheet.js';

/**
 * The language of a sheet, for messages and the rejected-rows file: the language most of its recognized column
 * names are written in; with a tie, Portuguese for `;` sheets and English otherwise.
 */
export function sheetLanguage(sheet: Pick<ReadSheet, 'header' | 'delimiter'>): 'pt' | 'en' {
  return mapHeader(sheet.header, sheet.delimiter === ';' ? 'pt' : 'en').lang;
}
