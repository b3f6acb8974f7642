/**
 * How a table fits a terminal of a given width: every column as wide as its content when that fits; else headers
 * wrapped at spaces and the columns that matter least given up first (an expendable column — a provider's id — cut,
 * then left out), then the widest long columns cut down (cells truncated with an ellipsis, never wrapped mid-word)
 * until it fits; else one "field: value" block per row. Pure: Output draws what this decides.
 */
export type TableLayout =
  | {
      readonly kind: 'columns';
      /** Content widths of the columns shown (without padding), in order. */
      readonly widths: readonly number[];
      /** Columns left out (indices into the head), when giving up expendable ones made the rest fit; absent when none. */
      readonly dropped?: readonly number[];
    }
  | { readonly kind: 'vertical' };

/**
 * What a column is worth on a narrow screen: `text` (names, keys, notes) is cut when needed, `fixed` never (a status,
 * a date), `expendable` (an id people rarely read) is cut before any other and left out before a `text` column is cut.
 */
export type ColumnRole = 'text' | 'fixed' | 'expendable';

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

/** An amount of money, a count or a percentage: what reads right-aligned, digits under digits. */
const NUMBER = /^[-−+]?(R\$\s?)?[-−]?\d[\d.,]*\s?%?$/;

/** Whether column `i` holds numbers (amounts, counts) and nothing else: those are right-aligned. */
export function numericColumn(rows: readonly (readonly string[])[], i: number): boolean {
  const values = rows.map((r) => (r[i] ?? '').replace(ANSI, '').trim()).filter((v) => v !== '');
  return values.length > 0 && values.every((v) => NUMBER.test(v));
}

/**
 * The layout of a boxed table (cli-table3: one space of padding each side, a border between columns and at both
 * ends) in `columns` characters. `widths` are content widths, without padding. In order: every column as wide as
 * its header and values; headers wrapped at spaces; expendable columns cut, then left out; the long columns cut, the
 * widest first, down to the next widest; else vertical. A headless table (field/value pairs) is never cut: it goes
 * vertical at once.
 */
export function fitTable(head: readonly string[], rows: readonly (readonly string[])[], columns: number, roles: readonly ColumnRole[] = []): TableLayout {
  const sum = (ws: readonly number[]) => ws.reduce((a, b) => a + b, 0);
  const roomFor = (n: number) => columns - (3 * n + 1);
  const values = head.map((_, i) => Math.max(0, ...rows.map((r) => longestLine(r[i] ?? ''))));
  const natural = head.map((h, i) => Math.max(displayWidth(h), values[i]!));
  if (sum(natural) <= roomFor(head.length)) return { kind: 'columns', widths: natural };
  if (!head.some((h) => h !== '')) return { kind: 'vertical' };
  const role = (i: number): ColumnRole => roles[i] ?? 'text';
  const headWord = head.map((h) => Math.max(0, ...h.split(/\s+/).map(displayWidth)));
  const wrapped = head.map((_, i) => Math.max(headWord[i]!, values[i]!));
  // Short values (statuses, amounts, dates) are never cut, and neither is a fixed column: an expendable one of them is
  // left out whole.
  const floor = wrapped.map((w, i) => (role(i) === 'fixed' || values[i]! <= SHORT_VALUES ? w : Math.max(headWord[i]!, MIN_CUT)));
  const all = head.map((_, i) => i);
  // The expendable columns give way first, the others whole: cut, then left out one by one, the widest first.
  const leftOut = all.filter((i) => role(i) === 'expendable').sort((a, b) => wrapped[b]! - wrapped[a]!);
  const dropped: number[] = [];
  for (;;) {
    const kept = all.filter((i) => !dropped.includes(i));
    const widths = cutDown(
      kept.map((i) => wrapped[i]!),
      kept.map((i) => floor[i]!),
      kept.flatMap((i, k) => (role(i) === 'expendable' ? [k] : [])),
      roomFor(kept.length),
    );
    if (widths) return dropped.length ? { kind: 'columns', widths, dropped: [...dropped].sort((a, b) => a - b) } : { kind: 'columns', widths };
    const next = leftOut.shift();
    if (next === undefined) break;
    dropped.push(next);
  }
  // Then the long columns are cut, the widest first.
  const kept = all.filter((i) => !dropped.includes(i));
  const widths = cutDown(
    kept.map((i) => wrapped[i]!),
    kept.map((i) => floor[i]!),
    kept.map((_, k) => k),
    roomFor(kept.length),
  );
  if (!widths) return { kind: 'vertical' };
  return dropped.length ? { kind: 'columns', widths, dropped: [...dropped].sort((a, b) => a - b) } : { kind: 'columns', widths };
}

/**
 * `widths` with the columns `cuttable` cut, the widest first, down to the next widest (or as far as the excess
 * needs, shared among the columns tied for widest), never below their `floor`, until they fit `room`; null when they
 * cannot.
 */
function cutDown(start: readonly number[], floor: readonly number[], cuttable: readonly number[], room: number): number[] | null {
  const widths = [...start];
  const sum = () => widths.reduce((a, b) => a + b, 0);
  while (sum() > room) {
    const open = cuttable.filter((i) => widths[i]! > floor[i]!);
    if (!open.length) return null;
    const widest = Math.max(...open.map((i) => widths[i]!));
    const tied = open.filter((i) => widths[i] === widest);
    const next = Math.max(0, ...widths.filter((w) => w < widest));
    const cut = Math.max(1, Math.min(widest - next, Math.ceil((sum() - room) / tied.length)));
    for (const i of tied) widths[i] = Math.max(floor[i]!, widest - cut);
  }
  return widths;
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
