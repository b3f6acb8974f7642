import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { said } from './said.js';
import yazl from 'yazl';
import { streamSheetFile } from '../../src/sheet/sheet-file.js';
import type { Locale } from '../../src/words/locale.js';
import { saySheet } from '../../src/words/sheet.js';
import type { TableRecord } from '../../src/sheet/table.js';
import { XLSX_LIMITS, type XlsxLimits } from '../../src/sheet/xlsx-limits.js';
import { streamXlsxTable } from '../../src/sheet/xlsx-table.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();

// Workbooks written part by part, as a hostile one would be: each part deflated, so a part of megabytes of one
// repeated character takes kilobytes in the file.
const MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PARTS = {
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>',
  'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8"?><workbook ${MAIN} xmlns:r="${REL}"><sheets><sheet name="Pagamentos" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  'xl/_rels/workbook.xml.rels':
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
};

const sst = (...items: string[]): string => `<?xml version="1.0" encoding="UTF-8"?><sst ${MAIN}>${items.join('')}</sst>`;
const si = (text: string): string => `<si><t>${text}</t></si>`;
const worksheet = (...rows: string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?><worksheet ${MAIN}><sheetData>${rows.join('')}</sheetData></worksheet>`;
/** A row of cells: a number is the index of a shared string, a string is inline text. */
const row = (r: number, ...cells: (number | string)[]): string =>
  `<row r="${r}">${cells
    .map((cell, i) => {
      const ref = `${String.fromCharCode(65 + i)}${r}`;
      return typeof cell === 'number' ? `<c r="${ref}" t="s"><v>${cell}</v></c>` : `<c r="${ref}" t="inlineStr"><is><t>${cell}</t></is></c>`;
    })
    .join('')}</row>`;
const HEADER = row(1, 'chave', 'valor');

async function workbook(parts: { sheet: string; sharedStrings?: string; styles?: string }): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const add = (name: string, xml: string) => zip.addBuffer(Buffer.from(xml), name, { compressionLevel: 9 });
  for (const [name, xml] of Object.entries(PARTS)) add(name, xml);
  if (parts.styles !== undefined) add('xl/styles.xml', parts.styles);
  if (parts.sharedStrings !== undefined) add('xl/sharedStrings.xml', parts.sharedStrings);
  add('xl/worksheets/sheet1.xml', parts.sheet);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function read(book: Buffer, o: { limits?: Partial<XlsxLimits>; locale?: Locale } = {}) {
  const records: TableRecord[] = [];
  const sink = () => ({ header: () => {}, record: (r: TableRecord) => void records.push(r) });
  const out = await streamXlsxTable(async function* () { yield book; }, sink, o);
  return { ...out, records, reasons: out.problems.map((p) => saySheet(p.reason, o.locale ?? 'en')) };
}

const refusal = (what: string) => `the workbook is too large to read as .xlsx: ${what}; save the sheet as CSV and import the CSV file instead`;

describe('XLSX workbooks past a limit', () => {
  it('refuses a shared string longer than a cell may be (32,767 characters) before reading on, in English or Portuguese', async () => {
    const book = await workbook({ sharedStrings: sst(si('a'.repeat(4_000_000))), sheet: worksheet(HEADER, row(2, 0, '10')) });
    const r = await read(book);
    expect(r.reasons).toEqual([refusal('a cell holds more than 32,767 characters, the most a cell may hold (as in Excel)')]);
    expect(r.headerLine).toBe(0);
    expect(r.records).toEqual([]);
    expect(r.sha256).toBe(createHash('sha256').update(book).digest('hex'));
    expect((await read(book, { locale: 'pt-BR' })).reasons).toEqual([
      'a pasta de trabalho é grande demais para ler como .xlsx: uma célula tem mais de 32.767 caracteres, o máximo de uma célula ' +
        '(como no Excel); salve a planilha como CSV e importe o arquivo CSV',
    ]);
  });

  it('refuses a workbook past a limit when a payment sheet file is read (the import), naming the limit', async () => {
    const file = join(tempDir(), 'pagamentos.xlsx');
    writeFileSync(file, await workbook({ sheet: worksheet(HEADER, row(2, 'c'.repeat(4_000_000), '10')) }));
    const rows: unknown[] = [];
    const r = await streamSheetFile(file, () => (row) => void rows.push(row));
    expect(r.head.problems.map((p) => said(p, 'pt-BR'))).toEqual([
      {
        file,
        reason:
          'a pasta de trabalho é grande demais para ler como .xlsx: uma célula tem mais de 32.767 caracteres, o máximo de uma célula ' +
          '(como no Excel); salve a planilha como CSV e importe o arquivo CSV',
      },
    ]);
    expect(rows).toEqual([]);
  });

  it('reads cells of exactly 32,767 characters, counted as Excel does (UTF-16 units, an entity as its character), shared or inline', async () => {
    const longest = 'ã'.repeat(XLSX_LIMITS.cellChars - 2) + '😀';
    const escaped = '&amp;'.repeat(XLSX_LIMITS.cellChars);
    const r = await read(await workbook({ sharedStrings: sst(si(longest)), sheet: worksheet(HEADER, row(2, 0, longest), row(3, escaped, '1')) }));
    expect(r.problems).toEqual([]);
    expect(r.records.map((c) => c.cells)).toEqual([[longest, longest], ['&'.repeat(XLSX_LIMITS.cellChars), '1']]);
    const past = await read(await workbook({ sheet: worksheet(HEADER, row(2, `${longest}a`, '1')) }));
    expect(past.reasons).toEqual([refusal('a cell holds more than 32,767 characters, the most a cell may hold (as in Excel)')]);
  });

  it('passes on a character whose bytes the inflating splits whole (exceljs decodes each piece on its own)', async () => {
    // Pieces of inflated bytes end every 16 KiB: one of the two strings has a two-byte character across each end.
    const texts = ['x' + 'ãé'.repeat(16_000), 'xy' + 'ãé'.repeat(16_000)];
    const r = await read(await workbook({ sharedStrings: sst(...texts.map(si)), sheet: worksheet(HEADER, row(2, 0, 1)) }));
    expect(r.records[0]?.cells.join('').match(/\uFFFD/g)).toBeNull();
    expect(r.records.map((c) => c.cells)).toEqual([texts]);
  });

  it('refuses an inline cell past the limit, and text between cells past it (a parser holds either whole)', async () => {
    const cell = await read(await workbook({ sheet: worksheet(HEADER, row(2, 'ana@example.com', '10'), row(3, 'b'.repeat(40_000), '10')) }));
    expect(cell.reasons).toEqual([refusal('a cell holds more than 32,767 characters, the most a cell may hold (as in Excel)')]);
    expect(cell.records.filter((c) => c.line > 2)).toEqual([]);
    const between = await read(await workbook({ sheet: worksheet(HEADER, ' '.repeat(40_000), row(2, 'ana@example.com', '10')) }));
    expect(between.reasons).toEqual(cell.reasons);
  });

  it('refuses shared strings past their total, and reads them at exactly the total', async () => {
    const strings = sst(...Array.from({ length: 1000 }, (_, i) => si(`Favorecido ${i} `.repeat(20))));
    const book = await workbook({ sharedStrings: strings, sheet: worksheet(HEADER, row(2, 999, '10')) });
    const size = Buffer.byteLength(strings);
    expect((await read(book, { limits: { sharedStringsBytes: size } })).records.map((c) => c.cells)).toEqual([['Favorecido 999 '.repeat(20), '10']]);
    const past = await read(book, { limits: { sharedStringsBytes: size - 1 } });
    expect(past.reasons).toEqual([
      refusal(
        `its shared strings (xl/sharedStrings.xml, the text of the cells) take more than ${(size - 1).toLocaleString('en')} bytes ` +
          'uncompressed, the most paybatch keeps in memory',
      ),
    ]);
    expect(past.records).toEqual([]);
  });

  it('refuses a shared string of more runs of rich text than a cell may have characters', async () => {
    const runs = (n: number) => `<si>${'<r><t>a</t></r>'.repeat(n)}</si>`;
    const many = await read(await workbook({ sharedStrings: sst(runs(10_000)), sheet: worksheet(HEADER, row(2, 0, '1')) }));
    expect(many.records[0]?.cells[0]).toBe('a'.repeat(10_000));
    expect((await read(await workbook({ sharedStrings: sst('<si>' + '<r/>'.repeat(40_000) + '</si>'), sheet: worksheet(HEADER) }))).reasons).toEqual([
      refusal('a cell holds more than 32,767 characters, the most a cell may hold (as in Excel)'),
    ]);
  });

  it('keeps shared strings whole however many: plain, rich text (runs), empty, across pages of the table', async () => {
    const texts = Array.from({ length: 20_000 }, (_, i) => (i % 7 === 0 ? '' : `${'ç'.repeat(i % 50)}${i}`));
    const rich = (t: string) => `<si><r><t>${t.slice(0, 3)}</t></r><r><rPr><b/></rPr><t>${t.slice(3)}</t></r></si>`;
    const items = texts.map((t, i) => (t === '' ? '<si/>' : i % 5 === 0 ? rich(t) : si(t)));
    const picks = [19_999, 0, 5, 7, 12_345, 4_096, 4_095, 1];
    const r = await read(await workbook({ sharedStrings: sst(...items), sheet: worksheet(HEADER, ...picks.map((p, i) => row(i + 2, p, `${p}`))) }));
    expect(r.problems).toEqual([]);
    expect(r.records.map((c) => c.cells[0])).toEqual(picks.map((p) => texts[p]));
  });

  it('refuses more rows than the limit (the sink gets none past it), and reads exactly as many', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => row(i + 2, `pessoa${i}@example.com`, `${i + 1}`));
    const book = await workbook({ sheet: worksheet(HEADER, ...rows) });
    expect((await read(book, { limits: { rows: 301 } })).records).toHaveLength(300);
    const past = await read(book, { limits: { rows: 300 } });
    expect(past.reasons).toEqual([refusal('the worksheet has more than 300 rows, the most paybatch reads from a workbook')]);
    expect(past.records.filter((c) => c.line > 300)).toEqual([]);
  });

  it('refuses a row whose cells hold too much text in all, and column descriptions past the limit', async () => {
    const wide = await workbook({ sheet: worksheet(HEADER, row(2, ...Array.from({ length: 8 }, () => 'x'.repeat(30_000)))) });
    expect((await read(wide, { limits: { rowChars: 240_000 } })).problems).toEqual([]);
    expect((await read(wide, { limits: { rowChars: 239_999 } })).reasons).toEqual([
      refusal('the cells of a row hold more than 239,999 characters in all, the most a row may hold'),
    ]);
    const cols = `<?xml version="1.0"?><worksheet ${MAIN}><cols>${'<col min="1" max="1" width="9"/>'.repeat(20)}</cols>` +
      `<sheetData>${HEADER}</sheetData></worksheet>`;
    expect((await read(await workbook({ sheet: cols }), { limits: { columns: 20 } })).problems).toEqual([]);
    expect((await read(await workbook({ sheet: cols }), { limits: { columns: 19 } })).reasons).toEqual([
      refusal('the worksheet describes more than 19 columns, the most a worksheet may have (as in Excel)'),
    ]);
  });

  it('stops inflating a worksheet or another part past its size (a ZIP bomb)', async () => {
    const bomb = await workbook({ sheet: worksheet(HEADER, '<x/>'.repeat(20_000_000)) });
    expect(bomb.length).toBeLessThan(200_000);
    expect((await read(bomb, { limits: { worksheetBytes: 4 * 1024 * 1024 } })).reasons).toEqual([
      refusal('the worksheet takes more than 4 MiB uncompressed, the most paybatch reads of a worksheet'),
    ]);
    const xfs = '<xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>'.repeat(200_000);
    const styles = `<?xml version="1.0"?><styleSheet ${MAIN}><cellXfs>${xfs}</cellXfs></styleSheet>`;
    const r = await read(await workbook({ styles, sheet: worksheet(HEADER) }));
    expect(r.reasons).toEqual([
      refusal('a part of it (the workbook, its relationships or its styles) takes more than 8 MiB uncompressed, the most paybatch reads of one'),
    ]);
  });

  it('refuses a DTD, which Office Open XML does not allow (its entities could expand past any count)', async () => {
    const sheet = `<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY a "aaaa">]><worksheet ${MAIN}><sheetData>${HEADER}</sheetData></worksheet>`;
    expect((await read(await workbook({ sheet }))).reasons).toEqual([
      'the workbook holds a DTD (<!DOCTYPE), which no spreadsheet writes in an .xlsx file; open it in the spreadsheet and save it again as .xlsx, or as CSV',
    ]);
  });

  it('reads past comments, CDATA, processing instructions, entities and ">" in attributes as the parser does', async () => {
    const sheet = `<?xml version="1.0"?><!-- a > b --><worksheet ${MAIN}><sheetData>${HEADER}` +
      `<row r="2"><c r="A2" t="inlineStr"><is><t>a&amp;b&#233;</t></is></c><c r="B2" t="str" a=">"><v><![CDATA[1>0]]></v></c></row></sheetData></worksheet>`;
    const r = await read(await workbook({ sheet }));
    expect(r.problems).toEqual([]);
    expect(r.records.map((c) => c.cells)).toEqual([['a&bé', '']]);
  });
});
