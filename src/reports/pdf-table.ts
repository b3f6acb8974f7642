import { loadPdfKit } from '../receipts/pdfkit.js';

type Pdf = PDFKit.PDFDocument;

/** A table column: its width in points and how its cells align (amounts and counts right). */
export interface PdfColumn {
  readonly width: number;
  readonly align?: 'left' | 'right';
}

const ROW = 13;
/** Space between columns, so that a right-aligned amount never touches the text after it. */
const GAP = 6;
/** Where a row's detail starts, under the row's first cells. */
const INDENT = 24;

/** An A4 landscape document (pdfkit's standard fonts) and the promise of its bytes once `end()` is called. */
export async function landscapePdf(title: string): Promise<{ readonly doc: Pdf; readonly bytes: Promise<Buffer> }> {
  const PDFDocument = loadPdfKit();
  const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: 40, info: { Title: title, Producer: 'paybatch', Creator: 'paybatch' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, bytes };
}

/**
 * A table drawn row by row at a fixed row height, cells cut with an ellipsis rather than wrapped, so every row takes
 * the same space; a row may carry a detail (reasons, lineage) in smaller type across the width, wrapped so nothing of
 * it is lost. A row that does not fit starts a new page, which repeats the heading.
 */
export function pdfTable(doc: Pdf, columns: readonly PdfColumn[], heading: readonly string[]) {
  const left = doc.page.margins.left;
  const width = columns.reduce((sum, c) => sum + c.width, 0);
  const draw = (cells: readonly string[], bold: boolean) => {
    const y = doc.y;
    let x = left;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8).fillColor('black');
    cells.forEach((cell, i) => {
      const col = columns[i]!;
      // A height of one line: pdfkit cuts with an ellipsis only text that would overflow a height.
      doc.text(cell, x, y, { width: col.width - GAP, height: ROW, align: col.align ?? 'left', ellipsis: true });
      x += col.width;
    });
    doc.x = left;
    doc.y = y + ROW;
  };
  const room = (height: number) => {
    if (doc.y + height <= doc.page.height - doc.page.margins.bottom) return;
    doc.addPage();
    draw(heading, true);
  };
  room(2 * ROW);
  draw(heading, true);
  return {
    row(cells: readonly string[], options: { readonly bold?: boolean; readonly detail?: string } = {}) {
      const detail = options.detail ? { text: options.detail, x: left + INDENT, width: width - INDENT - GAP } : null;
      doc.font('Helvetica').fontSize(7.5);
      const detailHeight = detail ? doc.heightOfString(detail.text, { width: detail.width }) + 2 : 0;
      room(ROW + detailHeight);
      draw(cells, options.bold ?? false);
      if (!detail) return;
      const y = doc.y - 2;
      doc.font('Helvetica').fontSize(7.5).fillColor('#444444').text(detail.text, detail.x, y, { width: detail.width });
      doc.fillColor('black');
      doc.x = left;
      doc.y = y + detailHeight + 1;
    },
    /** Space after the table, before what follows. */
    end() {
      doc.x = left;
      doc.y += ROW / 2;
    },
  };
}
