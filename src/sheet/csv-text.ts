/** The UTF-8 byte order mark as a character: Excel opens a CSV as UTF-8 only when the file starts with it. */
export const UTF8_BOM = '\uFEFF';

/** One CSV line (without its line break): cells with the delimiter, a quote or a line break are quoted. */
export function csvLine(cells: readonly string[], delimiter: string): string {
  return cells.map((cell) => quoteCell(cell, delimiter)).join(delimiter);
}

function quoteCell(cell: string, delimiter: string): string {
  const needsQuotes = cell.includes(delimiter) || cell.includes('"') || cell.includes('\n') || cell.includes('\r');
  return needsQuotes ? `"${cell.replaceAll('"', '""')}"` : cell;
}
