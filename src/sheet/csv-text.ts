import { csvCell } from './csv-cell.js';

/** The UTF-8 byte order mark as a character: Excel opens a CSV as UTF-8 only when the file starts with it. */
export const UTF8_BOM = '\uFEFF';

/** One CSV line (without its line break), each cell written by `csvCell` (quoted as needed, formulas neutralised). */
export function csvLine(cells: readonly string[], delimiter: string): string {
  return cells.map((cell) => csvCell(cell, delimiter)).join(delimiter);
}
