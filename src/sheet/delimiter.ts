export type SheetDelimiter = ';' | ',' | '\t';

const CANDIDATES: readonly SheetDelimiter[] = [';', '\t', ','];

/**
 * Detects the delimiter from the header: the first line with content, read up to its first line break outside
 * quotes. The most frequent of `;`, tab and `,` outside quotes wins; ties go to `;`, then tab, then `,`, because a
 * Brazilian sheet uses `,` as its decimal mark. A header with none of them (one column) gives `;`.
 * `text` has `\n` line breaks only.
 */
export function detectDelimiter(text: string): SheetDelimiter {
  const counts: Record<SheetDelimiter, number> = { ';': 0, '\t': 0, ',': 0 };
  let quoted = false;
  let seenContent = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      quoted = !quoted;
      seenContent = true;
    } else if (quoted) {
      continue;
    } else if (ch === '\n') {
      if (seenContent) break;
    } else if (ch === ';' || ch === '\t' || ch === ',') {
      counts[ch]++;
      seenContent = true;
    } else if (ch !== ' ' && ch !== '\r') {
      seenContent = true;
    }
  }
  let best: SheetDelimiter = ';';
  for (const candidate of CANDIDATES) if (counts[candidate] > counts[best]) best = candidate;
  return best;
}

const SEP_LINE = /^sep=(.)[ \t]*(?:\n|$)/i;

/**
 * Excel writes and honours a first line `sep=;` naming the delimiter. Returns that delimiter (when it is one we
 * read) and the text with the line blanked, so line numbers of the rest stay the same.
 */
export function takeSepLine(text: string): { delimiter: SheetDelimiter | null; text: string } {
  const match = SEP_LINE.exec(text);
  if (!match) return { delimiter: null, text };
  const ch = match[1];
  const delimiter = ch === ';' || ch === ',' || ch === '\t' ? ch : null;
  return { delimiter, text: (match[0].endsWith('\n') ? '\n' : '') + text.slice(match[0].length) };
}
