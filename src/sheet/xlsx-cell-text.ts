/** What a workbook's cell shows: the text of the value exceljs 4.4 gives for it (xlsx-rows.ts), through its number format. */

/** A cell's text as the sheet shows it; `numeric` when it is a number shown without zero padding. */
export function cellText(value: unknown, numFmt: string | undefined): { text: string; numeric: boolean } {
  if (value === null || value === undefined) return { text: '', numeric: false };
  if (typeof value === 'string') return { text: value, numeric: false };
  if (typeof value === 'number') {
    if (numFmt !== undefined && isDateFormat(numFmt)) return { text: dateText(serialDate(value), numFmt), numeric: false };
    const padded = numFmt === undefined ? null : zeroPadded(value, numFmt);
    return padded === null ? { text: plainNumber(value), numeric: true } : { text: padded, numeric: false };
  }
  if (typeof value === 'boolean') return { text: value ? 'TRUE' : 'FALSE', numeric: false };
  if (value instanceof Date) return { text: dateText(value, numFmt ?? ''), numeric: false };
  const v = value as { richText?: { text: string }[]; result?: unknown; formula?: string; text?: unknown; error?: string };
  if (Array.isArray(v.richText)) return { text: v.richText.map((r) => r.text).join(''), numeric: false };
  if ('formula' in v || 'sharedFormula' in v) return cellText(v.result, numFmt);
  if (typeof v.error === 'string') return { text: v.error, numeric: false };
  if (typeof v.text === 'string') return { text: v.text, numeric: false };
  return { text: '', numeric: false };
}

/** A number as Excel keeps it: at most 15 significant digits (so 0.1 + 0.2 is 0.3), never in exponent form below 1e21. */
function plainNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  // Most amounts (6825.84) already have at most 15 significant digits: their shortest text is the 15-digit one.
  const shortest = String(value);
  if (shortest.length <= 16 && !shortest.includes('e')) return shortest;
  return String(Number(value.toPrecision(15)));
}

/** An Excel date serial (days since 1899-12-30, the time of day as the fraction) as a UTC wall clock. */
function serialDate(serial: number): Date {
  return new Date(Math.round((serial - 25569) * 86_400_000));
}

/** A date cell's wall date (exceljs gives it as UTC), day first unless the format puts the year first. */
function dateText(date: Date, numFmt: string): string {
  const minute = new Date(Math.round(date.getTime() / 60_000) * 60_000).toISOString();
  const ymd = minute.slice(0, 10);
  const hm = minute.slice(11, 16);
  // The cell's text as the workbook shows it: 2026-11-23 or 23/11/2026 (not words for people: data read from the sheet).
  const day = /^y/i.test(formatCodes(numFmt).trim()) ? ymd : ymd.split('-').reverse().join('/');
  return hm === '00:00' ? day : `${day} ${hm}`;
}

/** A number format without its literal text ("…", \x) and its [colour]/[$R$-416] sections. */
function formatCodes(numFmt: string): string {
  return numFmt.replace(/"[^"]*"|\\.|\[[^\]]*\]/g, '');
}

function isDateFormat(numFmt: string): boolean {
  return /[dmy]/i.test(formatCodes(numFmt));
}

/**
 * A whole number through a format made only of `0` placeholders and literal text (`00000000000`,
 * `000.000.000-00`, `000\.000\.000\-00`, `00000"-"000`): the digits, zero padded, as the sheet shows them; null for
 * any other format (`#` drops zeros, `,` groups thousands, a single `.` without `-` or `/` is a decimal mark as in
 * `0.00`) or a number that does not fit.
 */
function zeroPadded(value: number, numFmt: string): string | null {
  if (!Number.isInteger(value) || value < 0 || !/^(?:0|\\.|"[^"]*"|[-/(). ])+$/.test(numFmt)) return null;
  const literal = numFmt.replace(/"[^"]*"|\\./g, '');
  if ((literal.match(/\./g) ?? []).length === 1 && !/[-/]/.test(literal)) return null;
  const placeholders = literal.replace(/[^0]/g, '').length;
  const digits = String(value);
  if (placeholders < 2 || digits.length > placeholders) return null;
  const padded = digits.padStart(placeholders, '0');
  let at = 0;
  return numFmt.replace(/"([^"]*)"|\\(.)|0|./g, (token, quoted: string | undefined, escaped: string | undefined) => {
    if (quoted !== undefined) return quoted;
    if (escaped !== undefined) return escaped;
    return token === '0' ? (padded[at++] as string) : token;
  });
}
