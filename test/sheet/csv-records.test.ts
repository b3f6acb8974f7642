import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvRecords, NeedsCsvParse } from '../../src/sheet/csv-records.js';

/** The records CsvRecords gives for `text` written in pieces of `size`, or 'csv-parse' when it leaves the text to it. */
function fastRecords(text: string, delimiter: string, size: number): string[][] | 'csv-parse' {
  const records: string[][] = [];
  const reader = new CsvRecords(delimiter, (r) => records.push(r));
  try {
    for (let at = 0; at < text.length; at += size) reader.write(text.slice(at, at + size));
    reader.end();
  } catch (e) {
    if (e instanceof NeedsCsvParse) return 'csv-parse';
    throw e;
  }
  return records;
}

const csvParse = (text: string, delimiter: string): string[][] =>
  parse(text, { delimiter, record_delimiter: '\n', relax_column_count: true, relax_quotes: true }) as string[][];

describe('CsvRecords', () => {
  it.each([
    ['a;b\n\nc;d\n', [['a', 'b'], [''], ['c', 'd']]],
    ['a;b', [['a', 'b']]],
    ['\n', [['']]],
    ['', []],
    [';;\n;', [['', '', ''], ['', '']]],
    ['x;"Reembolso; item 1";y\n', [['x', 'Reembolso; item 1', 'y']]],
    ['"Salário\nmarço";1\n"";"""q"" x"\n', [['Salário\nmarço', '1'], ['', '"q" x']]],
    ['a;"b"', [['a', 'b']]],
  ])('reads %j as csv-parse does, without it', (text, expected) => {
    for (const size of [1, 2, 5, 1000]) expect(fastRecords(text, ';', size)).toEqual(expected);
    expect(csvParse(text, ';')).toEqual(expected);
  });

  it.each([['a;b"c\n'], ['a;"b"c;d\n'], ['a; "b"\n'], ['a;"never closed\n'], ['a;"b""']])('leaves %j to csv-parse', (text) => {
    for (const size of [1, 3, 1000]) expect(fastRecords(text, ';', size)).toBe('csv-parse');
  });

  it('gives exactly the records csv-parse gives, whatever the text and its pieces, or leaves the text to it', () => {
    const text = fc.array(fc.constantFrom('a', 'b c', ';', ',', '\t', '"', '""', '\n', 'ç'), { maxLength: 40 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(text, fc.constantFrom(';', ',', '\t'), fc.integer({ min: 1, max: 12 }), (t, delimiter, size) => {
        const fast = fastRecords(t, delimiter, size);
        if (fast === 'csv-parse') return;
        expect(fast).toEqual(csvParse(t, delimiter));
      }),
      { numRuns: 3_000 },
    );
  });
});
