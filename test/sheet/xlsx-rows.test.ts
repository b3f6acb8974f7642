import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import type { TableRecord } from '../../src/sheet/table.js';
import { cellText } from '../../src/sheet/xlsx-cell-text.js';
import { streamXlsxTable } from '../../src/sheet/xlsx-table.js';

// Workbooks written part by part, so each cell is exactly as a test needs it.
const MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const WORKBOOK =
  `<?xml version="1.0" encoding="UTF-8"?><workbook ${MAIN} xmlns:r="${REL}"><sheets><sheet name="Pagamentos" sheetId="1" r:id="rId1"/>` +
  '<sheet name="Notas" sheetId="2" r:id="rId3"/></sheets></workbook>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` +
  `<Relationship Id="rId3" Type="${REL}/worksheet" Target="worksheets/sheet2.xml"/></Relationships>`;
const SHARED =
  `<?xml version="1.0" encoding="UTF-8"?><sst ${MAIN}><si><t>chave</t></si><si><t>valor</t></si><si><t>ana@exemplo.com</t></si>` +
  '<si><r><t>Jo</t></r><r><rPr><b/></rPr><t>ão</t></r></si><si><t/></si><si><t xml:space="preserve"> 12,50 </t></si></sst>';
// Style 1: a date (dd/mm/yyyy), 2: year first, 3: zero padding (a CPF), 4: two decimals, 5: General.
const STYLES =
  `<?xml version="1.0" encoding="UTF-8"?><styleSheet ${MAIN}><numFmts count="3"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/>` +
  '<numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm"/><numFmt numFmtId="166" formatCode="000\\.000\\.000\\-00"/></numFmts>' +
  '<fonts count="1"><font><sz val="11"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills>' +
  '<borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="6"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" applyNumberFormat="1"/>' +
  '<xf numFmtId="165" applyNumberFormat="1"/><xf numFmtId="166" applyNumberFormat="1"/><xf numFmtId="2" applyNumberFormat="1"/>' +
  '<xf numFmtId="0"/></cellXfs></styleSheet>';

/**
 * A workbook whose first tab holds `rows` (and a second, `notes`); `sheetFirst` puts the worksheets before the parts
 * they need, as exceljs writes.
 */
async function workbook(rows: string, o: { sheetFirst?: boolean; shared?: boolean; notes?: string } = {}): Promise<Buffer> {
  const xml = (data: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<worksheet ${MAIN}><sheetData>${data}</sheetData></worksheet>`;
  const sheets: [string, string][] = [['xl/worksheets/sheet1.xml', xml(rows)], ['xl/worksheets/sheet2.xml', xml(o.notes ?? '')]];
  const parts: [string, string][] = [
    ['xl/workbook.xml', WORKBOOK],
    ['xl/_rels/workbook.xml.rels', RELS],
    ['xl/styles.xml', STYLES],
    ...(o.shared === false ? [] : ([['xl/sharedStrings.xml', SHARED]] as [string, string][])),
  ];
  const zip = new yazl.ZipFile();
  const ordered = o.sheetFirst ? [...sheets, ...parts] : [...parts, ...sheets];
  for (const [name, xml] of ordered) zip.addBuffer(Buffer.from(xml), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The rows as paybatch reads them: after the header, each record's line, cells and numeric cells. */
async function paybatchRows(book: Buffer) {
  const rows: { line: number; cells: string[]; numeric: readonly number[] }[] = [];
  let header: string[] = [];
  const sink = () => ({
    header: (cells: string[]) => void (header = cells),
    record: (r: TableRecord) => void rows.push({ line: r.line, cells: r.cells, numeric: r.numeric ?? [] }),
  });
  // The bytes in small pieces: tags, entities and characters split between them.
  const out = await streamXlsxTable(async function* () { for (let i = 0; i < book.length; i += 7) yield book.subarray(i, i + 7); }, sink, {});
  return { problems: out.problems.map((p) => p.reason.code), header, rows };
}

/**
 * The same rows as exceljs's own streaming reader gives them (how paybatch read them before xlsx-rows.ts); an error
 * is the refusal streamXlsxTable makes of it.
 */
async function exceljsRows(book: Buffer) {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([book]), {
    worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore',
  });
  // Shared strings kept as paybatch keeps them (xlsx-limits.ts): runs of rich text joined, an empty one as "".
  let table: string[] | undefined;
  Object.defineProperty(reader, 'sharedStrings', {
    get: () => table,
    set: () => {
      const strings: string[] = [];
      const push = (value: string | null | { richText: { text: string }[] }) =>
        Array.prototype.push.call(strings, typeof value === 'string' ? value : (value?.richText ?? []).map((r) => r.text ?? '').join(''));
      table = Object.assign(strings, { push });
    },
  });
  const rows: { line: number; cells: string[]; numeric: number[] }[] = [];
  let header: string[] | null = null;
  const problems: string[] = [];
  try {
    for await (const worksheet of reader) {
      for await (const row of worksheet as unknown as AsyncIterable<ExcelJS.Row>) {
        const cells: string[] = [];
        const numeric: number[] = [];
        row.eachCell((cell, col) => {
          while (cells.length < col - 1) cells.push('');
          const shown = cellText(cell.value, cell.numFmt);
          cells[col - 1] = shown.text;
          if (shown.numeric) numeric.push(col - 1);
        });
        if (cells.every((c) => c.trim() === '')) continue;
        if (header === null) {
          header = cells;
          continue;
        }
        while (cells.length < header.length) cells.push('');
        rows.push({ line: row.number, cells, numeric });
      }
    }
  } catch {
    problems.push('xlsx_damaged');
  }
  return { problems, header: header ?? [], rows };
}

const HEADER = '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>data</t></is></c></row>';

describe('worksheet rows read from the XML (xlsx-rows.ts)', () => {
  it.each([
    ['shared and inline strings, a number amount, blank and missing cells', HEADER +
      '<row r="2" spans="1:3"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>6825.84</v></c><c r="C2" t="inlineStr"><is><t>a&amp;b &#233; &lt;x&gt;</t></is></c></row>' +
      '<row r="3"><c r="A3" t="s"><v>3</v></c><c r="B3" t="s"><v>5</v></c></row>' +
      '<row r="5"><c r="B5"><v>0.1</v></c><c r="C5" t="s"><v>4</v></c></row>' +
      '<row r="6"><c r="A6" t="s"><v>4</v></c><c r="B6" t="inlineStr"><is><t></t></is></c></row>' +
      '<row r="7"><c r="C7" t="s"><v>99</v></c><c r="A7"/></row>' +
      '<row r="8"><c r="A8" t="inlineStr"><is><r><t>pri</t></r><r><rPr><b/></rPr><t>meiro</t></r></is></c><c r="B8"><v>1E-3</v></c><c r="C8"><v>30000000000000000000000</v></c></row>'],
    ['number formats: dates, year first, zero padding, decimals, a row style, style 0', HEADER +
      '<row r="2"><c r="A2" s="1"><v>46361</v></c><c r="B2" s="2"><v>46361.5</v></c><c r="C2" s="3"><v>1234567890</v></c></row>' +
      '<row r="3" s="1" customFormat="1"><c r="A3"><v>46000</v></c><c r="B3" s="4"><v>12.5</v></c><c r="C3" s="0"><v>7</v></c></row>' +
      '<row r="4"><c r="A4" s="5"><v>3</v></c><c r="B4" s="9"><v>4</v></c><c r="C4" s="3"><v>12.5</v></c></row>'],
    ['formulas, booleans, errors, typed strings', HEADER +
      '<row r="2"><c r="A2"><f>B2*2</f><v>25</v></c><c r="B2"><f>0*1</f><v>0</v></c><c r="C2" t="str"><f>"a"&amp;"b"</f><v>a&amp;amp;b</v></c></row>' +
      '<row r="3"><c r="A3"><f t="shared" si="0"/><v>5</v></c><c r="B3" t="b"><v>1</v></c><c r="C3" t="e"><v>#N/A</v></c></row>' +
      '<row r="4"><c r="A4" t="b"><v>0</v></c><c r="B4" t="str"><v> 1,5 </v></c><c r="C4" t="n"><v>-2</v></c></row>' +
      '<row r="5"><c r="A5" t="d"><v>2026-01-02</v></c><c r="B5"><f>NOW()</f></c><c r="C5" t="s"><v>x</v></c></row>'],
    ['XML as a writer may lay it out: line breaks, spaces, quotes, comments, CDATA, a column twice', HEADER +
      '\r\n<row r="2">\r\n  <c r="A2" t="inlineStr">\r\n    <is><t>linha\r\num&#13;</t></is>\r\n  </c>\r\n  <c r=\'B2\' s = "1" ><v>46361</v></c>\n</row>' +
      '<!-- a comment <row r="9"> --><row r="3"><c r="A3" t="inlineStr"><is><t><![CDATA[dropped]]>kept</t></is></c><c r="B3"><v>1</v></c><c r="B3" t="s"><v>2</v></c></row>' +
      '<row r="4"><c r="$C$4"><v>2</v></c><c r="A4" t="s"><v>2</v></c></row>'],
  ])('gives exactly the rows exceljs gives: %s', async (_, rows) => {
    // exceljs reads a worksheet stored before the shared strings with them or without them, as its streams happen to
    // run (a header of "" now and then): its reading of the parts in order is the reference, for both orders.
    const reference = await exceljsRows(await workbook(rows));
    for (const sheetFirst of [false, true]) expect(await paybatchRows(await workbook(rows, { sheetFirst }))).toEqual(reference);
  });

  it('gives exactly the rows exceljs gives for any mix of cells, styles and gaps', async () => {
    const text = fc.stringMatching(/^[a-zé 0-9,.]{0,6}$/).map((t) => t.replace(/a/g, '&amp;'));
    const value = fc.oneof(
      fc.integer({ min: 0, max: 6 }).map((i) => ({ t: ' t="s"', inner: `<v>${i === 6 ? 99 : i}</v>` })),
      text.map((t) => ({ t: ' t="inlineStr"', inner: `<is><t>${t}</t></is>` })),
      fc.oneof(fc.integer({ min: -1e6, max: 1e12 }), fc.double({ min: -1e6, max: 1e6, noNaN: true })).map((n) => ({ t: '', inner: `<v>${n}</v>` })),
      fc.constantFrom('0', '1').map((b) => ({ t: ' t="b"', inner: `<v>${b}</v>` })),
      fc.constantFrom('#N/A', '#DIV/0!').map((e) => ({ t: ' t="e"', inner: `<v>${e}</v>` })),
      fc.integer({ min: 0, max: 3 }).map((n) => ({ t: '', inner: `<f>A1*${n}</f><v>${n}</v>` })),
      text.map((t) => ({ t: ' t="str"', inner: `<f>B1</f><v>${t}</v>` })),
      fc.constant({ t: '', inner: '' }),
    );
    const cell = fc.record({ col: fc.integer({ min: 0, max: 4 }), s: fc.option(fc.integer({ min: 0, max: 6 })), value });
    const rows = fc.array(fc.record({ gap: fc.integer({ min: 1, max: 2 }), s: fc.option(fc.integer({ min: 0, max: 5 })), cells: fc.array(cell, { maxLength: 6 }) }), { maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(rows, async (spec) => {
        let r = 1;
        const xml = spec.map((row) => {
          r += row.gap;
          const cells = row.cells.map((c) => {
            const s = c.s === null ? '' : ` s="${c.s}"`;
            const ref = `${String.fromCharCode(65 + c.col)}${r}`;
            return c.value.inner === '' ? `<c r="${ref}"${s}/>` : `<c r="${ref}"${s}${c.value.t}>${c.value.inner}</c>`;
          });
          return `<row r="${r}"${row.s === null ? '' : ` s="${row.s}" customFormat="1"`}>${cells.join('')}</row>`;
        });
        // The worksheet after the parts it needs: exceljs, parking a worksheet met first in a temporary file, now and
        // then fails to read it back (the parsing is the same either way; the cases above read both orders).
        const book = await workbook(HEADER + xml.join(''));
        expect(await paybatchRows(book)).toEqual(await exceljsRows(book));
      }),
      { numRuns: 60 },
    );
  });

  it('reads the cells of a hand-built sheet as the sheet shows them', async () => {
    const book = await workbook(HEADER +
      '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>6825.84</v></c><c r="C2" s="1"><v>46361</v></c></row>' +
      '<row r="4"><c r="A4" t="inlineStr"><is><t>bia@exemplo.com</t></is></c><c r="B4" t="s"><v>5</v></c></row>' +
      '<row r="5"><c r="B5" t="s"><v>3</v></c></row>');
    expect(await paybatchRows(book)).toEqual({
      problems: [],
      header: ['chave', 'valor', 'data'],
      rows: [
        { line: 2, cells: ['ana@exemplo.com', '6825.84', '05/12/2026'], numeric: [1] },
        { line: 4, cells: ['bia@exemplo.com', ' 12,50 ', ''], numeric: [] },
        { line: 5, cells: ['', 'João', ''], numeric: [] },
      ],
    });
  });

  it('reads shared-string cells of a workbook without shared strings as blank, as exceljs does', async () => {
    const book = await workbook('<row r="1"><c r="A1" t="inlineStr"><is><t>chave</t></is></c><c r="B1" t="s"><v>0</v></c></row>', { shared: false });
    expect(await paybatchRows(book)).toEqual(await exceljsRows(book));
    expect((await paybatchRows(book)).header).toEqual(['chave', '']);
  });

  it('refuses a workbook whose other tab is damaged XML, as exceljs does', async () => {
    for (const sheetFirst of [false, true]) {
      const book = await workbook(HEADER, { sheetFirst, notes: '<row r="1"><c r="A1"><v>1</v></row></c>' });
      expect((await paybatchRows(book)).problems).toEqual(['xlsx_damaged']);
      expect((await exceljsRows(book)).problems).toEqual(['xlsx_damaged']);
    }
  });

  it.each([
    ['a tag closed that was not open', '<row r="2"><c r="A2"><v>1</v></row></c>'],
    ['an entity XML does not know', '<row r="2"><c r="A2" t="inlineStr"><is><t>&nbsp;</t></is></c></row>'],
    ['a cell without its reference', '<row r="2"><c t="inlineStr"><is><t>x</t></is></c></row>'],
    ['a cell reference without a column letter (exceljs reads capitals only)', '<row r="2"><c r="a2"><v>1</v></c></row>'],
  ])('refuses a damaged worksheet, as exceljs does: %s', async (_, rows) => {
    const book = await workbook(HEADER + rows);
    expect((await paybatchRows(book)).problems).toEqual(['xlsx_damaged']);
    expect((await exceljsRows(book)).problems).toEqual(['xlsx_damaged']);
  });
});
