import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSheet } from '../../src/sheet/read-sheet.js';
import { validateRows } from '../../src/sheet/validate-rows.js';
import { cp1252, utf8, utf8Bom } from './sheet-bytes.js';

// Text people type: Latin-1 letters (so Windows-1252 can hold it), spaces, digits and the characters that CSV
// must quote: both delimiters, the quote and a line break.
const TEXT_CHARS = 'aãbçdeéfgiíjmnoõpsuúzAÇÉÕ 09;,"\n\t-/';
const text = fc.array(fc.constantFrom(...TEXT_CHARS), { maxLength: 40 }).map((cs) => cs.join(''));

const row = fc.record({
  cents: fc.integer({ min: 1, max: 1_000_000_000 }),
  grouped: fc.boolean(),
  description: text,
  name: text,
  blankLinesBefore: fc.nat({ max: 2 }),
});

const layout = fc.record({
  delimiter: fc.constantFrom(';', ',', '\t'),
  eol: fc.constantFrom('\n', '\r\n', '\r'),
  encoding: fc.constantFrom('utf-8', 'utf-8-bom', 'windows-1252'),
  quoteAll: fc.boolean(),
  blankLinesBeforeHeader: fc.nat({ max: 2 }),
  finalEol: fc.boolean(),
});

function cell(value: string, delimiter: string, quoteAll: boolean): string {
  const quote = quoteAll || /["\n\r]/.test(value) || value.includes(delimiter) || value !== value.trim();
  return quote ? `"${value.replaceAll('"', '""')}"` : value;
}

function amountText(cents: number, grouped: boolean, brazilian: boolean): string {
  const whole = String(Math.floor(cents / 100));
  const fraction = String(cents % 100).padStart(2, '0');
  const [group, decimal] = brazilian ? ['.', ','] : [',', '.'];
  return `${grouped ? whole.replace(/\B(?=(\d{3})+$)/g, group) : whole}${decimal}${fraction}`;
}

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();

describe('readSheet + validateRows (property)', () => {
  it('reads back every row, value and physical line, whatever the encoding, delimiter, line break and quoting', () => {
    fc.assert(
      fc.property(layout, fc.array(row, { minLength: 1, maxLength: 25 }), (l, rows) => {
        const d = l.delimiter;
        const lines: string[] = [];
        for (let i = 0; i < l.blankLinesBeforeHeader; i++) lines.push('');
        lines.push(['chave', 'valor', 'descricao', 'nome'].map((h) => cell(h, d, l.quoteAll)).join(d));
        let line = lines.length + 1;
        const expected: { line: number; key: string; cents: number; description: string; name: string | null }[] = [];
        rows.forEach((r, i) => {
          for (let b = 0; b < r.blankLinesBefore; b++) lines.push('');
          line += r.blankLinesBefore;
          const key = `pessoa.${i}@exemplo.com.br`;
          const amount = amountText(r.cents, r.grouped, d !== ',' || i % 2 === 0);
          lines.push([key, amount, r.description, r.name].map((c) => cell(c, d, l.quoteAll)).join(d));
          expected.push({ line, key, cents: r.cents, description: collapse(r.description), name: collapse(r.name) || null });
          line += 1 + (r.description.match(/\n/g)?.length ?? 0) + (r.name.match(/\n/g)?.length ?? 0);
        });
        // Line breaks inside cells stay "\n", as Excel writes them, whatever the rows end with.
        const body = lines.join(l.eol) + (l.finalEol ? l.eol : '');
        const bytes = l.encoding === 'utf-8' ? utf8(body) : l.encoding === 'utf-8-bom' ? utf8Bom(body) : cp1252(body);

        const sheet = readSheet(bytes, 'p.csv');
        expect(sheet.problems).toEqual([]);
        expect(sheet.format.delimiter).toBe(d);
        const v = validateRows(sheet, { maxItemAmountCents: null });
        expect(v.problems).toEqual([]);
        expect(v.valid.map((r) => ({ line: r.line, key: r.key, cents: r.amountCents, description: r.description, name: r.name })))
          .toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
