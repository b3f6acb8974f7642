/**
 * How a table fits a terminal of a given width: every column as wide as its content when that fits; else headers
 * wrapped at spaces and the widest columns cut down (cells truncated with an ellipsis, never wrapped mid-word) until
 * it fits; else one "field: value" block per row. Pure: Output draws what this decides.
 */
export type TableLayout = { readonly kind: 'columns'; readonly widths: readonly number[] } | { readonly kind: 'vertical' };

/**
 * Columns whose values are this short (ids, statuses, amounts, dates) are never cut: a cut amount or date is a wrong
 * one. Longer ones (names, keys, notes, ids of 36 characters) are cut, to no fewer than MIN_CUT characters.
 */
const SHORT_VALUES = 16;
const MIN_CUT = 6;

const ANSI = /\u001b\[[0-9;]*m/g;

/** Characters a cell takes on screen: ANSI colours take none. (Wide CJK characters are not expected in this data.) */
export function displayWidth(s: string): number {
  return Array.from(s.replace(ANSI, '')).length;
}


/**
 * The layout of a boxed table (cli-table3: one space of padding each side, a border between columns and at both
 * ends) in `columns` characters. `widths` are content widths, without padding. In order: every column as wide as
 * its header and values; headers wrapped at spaces; the long columns cut, the widest first, down to the next widest;
 * else vertical. A headless table (field/value pairs) is never cut: it goes vertical at once.
 */
export function fitTable(head: readonly string[], rows: readonly (readonly string[])[], columns: number): TableLayout {
  const room = columns - (3 * head.length + 1);
  const sum = (ws: readonly number[]) => ws.reduce((a, b) => a + b, 0);
  const values = head.map((_, i) => Math.max(0, ...rows.map((r) => longestLine(r[i] ?? ''))));
  const natural = head.map((h, i) => Math.max(displayWidth(h), values[i]!));
  if (sum(natural) <= room) return { kind: 'columns', widths: natural };
  if (!head.some((h) => h !== '')) return { kind: 'vertical' };
  const headWord = head.map((h) => Math.max(0, ...h.split(/\s+/).map(displayWidth)));
  const widths = head.map((_, i) => Math.max(headWord[i]!, values[i]!));
  const floor = widths.map((w, i) => (values[i]! <= SHORT_VALUES ? w : Math.max(headWord[i]!, MIN_CUT)));
  while (sum(widths) > room) {
    const cuttable = widths.map((_, i) => i).filter((i) => widths[i]! > floor[i]!);
    if (!cuttable.length) return { kind: 'vertical' };
    const widest = Math.max(...cuttable.map((i) => widths[i]!));
    const tied = cuttable.filter((i) => widths[i] === widest);
    const next = Math.max(0, ...widths.filter((w) => w < widest));
    // Down to the next widest, or as far as the excess needs, shared among the columns tied for widest.
    const cut = Math.max(1, Math.min(widest - next, Math.ceil((sum(widths) - room) / tied.length)));
    for (const i of tied) widths[i] = Math.max(floor[i]!, widest - cut);
  }
  return { kind: 'columns', widths };
}

/** The text cut to `width` characters, with an ellipsis when something was cut (a cut text loses its colours). */
export function truncate(s: string, width: number): string {
  if (displayWidth(s) <= width) return s;
  return `${Array.from(s.replace(ANSI, '')).slice(0, Math.max(0, width - 1)).join('')}…`;
}

/**
 * Rows as "field: value" blocks separated by a blank line, values wrapped at spaces to `columns` (a single word
 * longer than a line stays whole: cutting a key or an id would make it wrong). Headless tables are field/value pairs.
 */
export function verticalTable(head: readonly string[], rows: readonly (readonly string[])[], columns: number): string {
  const headed = head.some((h) => h !== '');
  const blocks = headed
    ? rows.map((r) => head.map((h, i) => [h, r[i] ?? ''] as const))
    : [rows.map((r) => [r[0] ?? '', r.slice(1).join(' ')] as const)];
  return blocks
    .map((pairs) =>
      pairs
        .filter(([, value]) => value !== '')
        .map(([field, value]) => {
          const label = field.trim() === '' ? '' : `${field.trim()}: `;
          const indent = ' '.repeat(field.length - field.trimStart().length);
          return `${indent}${label}${wrapWords(value, Math.max(20, columns - displayWidth(indent + label)), indent + '  ')}`;
        })
        .join('\n'),
    )
    .join('\n\n');
}

function wrapWords(text: string, width: number, continuation: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/ +/)) {
    if (line !== '' && displayWidth(line) + 1 + displayWidth(word) > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join(`\n${continuation}`);
}

function longestLine(s: string): number {
  return Math.max(...s.split('\n').map(displayWidth));
}
