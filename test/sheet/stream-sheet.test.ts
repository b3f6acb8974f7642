import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { said } from './said.js';
import { readSheet, streamSheet } from '../../src/sheet/read-sheet.js';
import { rowValidator, validateRows } from '../../src/sheet/validate-rows.js';
import { cp1252, utf8, utf8Bom } from './sheet-bytes.js';

/** The bytes in chunks of `size` (the last may be shorter), as a file stream would give them. */
const chunked = (bytes: Uint8Array, size: number) => async function* (): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
};

/** What readSheet + validateRows tell about a sheet, as data. */
function whole(bytes: Uint8Array) {
  const sheet = readSheet(bytes, 'p.csv');
  const v = validateRows(sheet, { maxItemAmountCents: 500_000 });
  return { problems: sheet.problems, format: sheet.format, language: sheet.language, rows: sheet.rows.length, valid: v.valid, rowProblems: v.problems };
}

/** The same, from streamSheet + rowValidator. */
async function streamed(bytes: Uint8Array, size: number) {
  let valid: unknown[] = [];
  let rowProblems: unknown[] = [];
  const r = await streamSheet(chunked(bytes, size), 'p.csv', (head) => {
    valid = [];
    rowProblems = [];
    const validate = rowValidator(head, { maxItemAmountCents: 500_000 });
    return (row) => {
      const outcome = validate?.(row);
      if (outcome === undefined) return;
      if (outcome.valid !== null) valid.push(outcome.valid);
      else rowProblems.push(...outcome.problems);
    };
  });
  return { problems: r.head.problems, format: r.head.format, language: r.head.language, rows: r.rowCount, valid, rowProblems, sha256: r.sha256 };
}

const PIECES = [
  'chave;valor;descricao;identificador', 'key,amount,description', 'sep=,', 'sep=;', '', ';;', '\t',
  'ana@exemplo.com;10,00;Aluguel', 'ana@exemplo.com;10,00;ALUGUEL', 'ana@exemplo.com,10.00,rent', 'bia@exemplo.com;1.234;x',
  'not-a-key;-5;neg', '529.982.247-25;1.250,00;"Salário\nmarço"', 'x@y.com;"2,00";"a;b"', 'x@y.com;3;"sem fim',
  'x@y.com;4;a;b;c', 'x@y.com', '123e4567-e89b-42d3-a456-426614174001;5;evp;123e4567-e89b-42d3-a456-426614174001',
  'c@d.com;1;Ação ção é', 'c@d.com;9999999,99;big', '"quoted ""x""";1;y', '€ e ç;1;z',
];

describe('streamSheet + rowValidator', () => {
  it('tells exactly what readSheet + validateRows tell, whatever the chunk boundaries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.constantFrom('utf-8', 'utf-8-bom', 'windows-1252', 'windows-1252-bom', 'mixed'),
        fc.boolean(),
        fc.integer({ min: 1, max: 40 }),
        async (lines, eol, encoding, finalEol, size) => {
          const text = lines.join(eol) + (finalEol ? eol : '');
          const half = lines.slice(0, lines.length >> 1).join(eol);
          const bytes =
            encoding === 'utf-8' ? utf8(text)
            : encoding === 'utf-8-bom' ? utf8Bom(text)
            : encoding === 'windows-1252' ? cp1252(text)
            : encoding === 'windows-1252-bom' ? new Uint8Array([0xef, 0xbb, 0xbf, ...cp1252(text)])
            // Lines pasted from a UTF-8 export before lines from a Windows-1252 one.
            : new Uint8Array([...utf8(half), ...cp1252(text.slice(half.length))]);
          const { sha256, ...got } = await streamed(bytes, size);
          expect(got).toEqual(whole(bytes));
          expect(sha256).toMatch(/^[0-9a-f]{64}$/);
        },
      ),
      { numRuns: 400 },
    );
  });

  it.each(['pagamentos-exemplo.csv', 'pagamentos-com-erros.csv', 'payments-en.csv'])('reads fixture %s as readSheet does', async (name) => {
    const bytes = new Uint8Array(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url)));
    for (const size of [3, 1000, 1 << 20]) {
      const { sha256, ...got } = await streamed(bytes, size);
      expect(got).toEqual(whole(bytes));
      expect(sha256).toBe((await import('node:crypto')).createHash('sha256').update(bytes).digest('hex'));
    }
  });

  it('reports binary files and late NUL bytes as readSheet does', async () => {
    for (const bytes of [new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1]), new Uint8Array([0xff, 0xfe, 0x41, 0]), utf8('chave;valor\na@b.com;1\n\0')]) {
      const { sha256, ...got } = await streamed(bytes, 4);
      expect(got).toEqual(whole(bytes));
    }
  });
});

describe('duplicates in a long sheet', () => {
  it('names the first line of every repeated payment, past the growth of the table that remembers them', () => {
    const lines = ['chave;valor;descricao'];
    for (let i = 0; i < 5_000; i++) lines.push(`p${i}@exemplo.com;${1 + (i % 7)},00;Pagamento ${i % 3}`);
    for (let i = 0; i < 5_000; i += 7) lines.push(`P${i}@exemplo.com;${1 + (i % 7)},00;PAGAMENTO  ${i % 3}`);
    const v = validateRows(readSheet(utf8(lines.join('\n')), 'p.csv'), { maxItemAmountCents: null });
    expect(v.valid).toHaveLength(5_000);
    expect(v.problems).toHaveLength(Math.ceil(5_000 / 7));
    v.problems.forEach((p, n) => {
      expect(said(p)).toEqual({ file: 'p.csv', line: 5_002 + n, field: 'row', reason: `duplicate: same as line ${n * 7 + 2} (same key, amount and description)` });
    });
  });
});

describe('the sheet hash', () => {
  it('covers every byte, also of a file that is not text or not valid CSV', async () => {
    const { createHash } = await import('node:crypto');
    for (const bytes of [utf8('chave;valor\na@b.com;1\n\0tail after the NUL'), utf8('chave;valor\na@b.com;"1\nb@b.com;2\n'), cp1252('chave;valor\nção;1\n')]) {
      const r = await streamed(bytes, 5);
      expect(r.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });
});
