/**
 * First characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"): `=`, `+`, `-`, `@`,
 * tab and carriage return. A sheet paybatch writes back (rejected rows) holds cells typed by whoever made the sheet,
 * so `=HYPERLINK(…)` or `+cmd|…` must reach the person who opens it as text, not as something Excel runs.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell as paybatch writes it: a cell that would start a formula gets a `'` in front (the OWASP advice; a
 * spreadsheet then shows it as text) and is quoted; any cell with the delimiter, a quote or a line break is quoted.
 * This also prefixes legitimate values such as a negative amount (`-10,00` → `'-10,00`): the sheet reader takes
 * the `'` off again (`withoutFormulaGuard`), so a written file imports with the values it had.
 */
export function csvCell(cell: string, delimiter: string): string {
  const guarded = FORMULA_START.test(cell);
  const text = guarded ? `'${cell}` : cell;
  const needsQuotes = guarded || text.includes(delimiter) || text.includes('"') || text.includes('\n') || text.includes('\r');
  return needsQuotes ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A cell read from a sheet without the `'` that `csvCell` (or a person in Excel) put before a formula character. */
export function withoutFormulaGuard(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}
