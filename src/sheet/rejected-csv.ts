import { formatProblem, type InputProblem } from '../errors.js';
import { csvLine, UTF8_BOM } from './csv-text.js';
import type { ReadSheet, SheetRow } from './read-sheet.js';

/**
 * The rejected rows as a CSV to fix and import again: the sheet's header plus a reason column ("motivo" for a
 * Portuguese header, else "reason"), the same delimiter, each row's cells as they were read followed by its
 * problems, already in words ("field: reason", joined by " | "); a workbook's rows with `;` (Portuguese header) or `,`. Starts
 * with a UTF-8 BOM and uses CRLF line breaks, so Excel opens it with accents intact whatever the sheet's own encoding
 * was.
 */
export function rejectedSheetCsv(sheet: ReadSheet, rejected: readonly { row: SheetRow; problems: readonly InputProblem[] }[]): string {
  const reasonColumn = sheet.language === 'pt' ? 'motivo' : 'reason';
  const width = sheet.header.length;
  // A workbook's rejected rows are written as the CSV Excel opens in the sheet's language.
  const delimiter = sheet.format.kind === 'csv' ? sheet.format.delimiter : sheet.language === 'pt' ? ';' : ',';
  const lines = [csvLine([...sheet.header, reasonColumn], delimiter)];
  for (const { row, problems } of rejected) {
    // Pad short rows so the reason always lands in its own column.
    const cells = row.raw.length >= width ? row.raw : [...row.raw, ...Array<string>(width - row.raw.length).fill('')];
    const reason = problems.map((p) => formatProblem({ field: p.field, reason: p.reason })).join(' | ');
    lines.push(csvLine([...cells, reason], delimiter));
  }
  return UTF8_BOM + lines.join('\r\n') + '\r\n';
}
