export { decodeText, type DecodedText, type SheetEncoding } from './decode-text.js';
export { detectDelimiter, type SheetDelimiter } from './delimiter.js';
export { foldHeader, SHEET_FIELDS, type SheetField } from './headers.js';
export { sheetLanguage } from './language.js';
export { readSheet, type ReadSheet, type SheetRow } from './read-sheet.js';
export { rejectedSheetCsv } from './rejected-csv.js';
export { templateCsv } from './template.js';
export {
  fieldLabels,
  MAX_DESCRIPTION_LENGTH,
  ROW_FIELD,
  validateRows,
  type RowProblem,
  type SheetValidation,
  type ValidRow,
} from './validate-rows.js';
