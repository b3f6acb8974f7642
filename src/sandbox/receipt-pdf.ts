import { saoPauloDateTime } from '../domain/bank-calendar.js';
import { formatBRL } from '../domain/money.js';
import type { Destination } from '../domain/destination.js';
import type { Payer } from './payer.js';

/** What a Pix receipt shows. Amount in centavos; `at` in simulated ms. */
export interface ReceiptFacts {
  readonly kind: 'payment' | 'refund';
  readonly pixId: string;
  readonly amount: number;
  readonly at: number;
  readonly payer: Payer;
  readonly payee: Destination;
  readonly endToEndId: string;
  readonly transactionId: string;
  readonly identifier: string;
  readonly description: string;
  readonly reason: string | null;
}

/** One line of text describing a receipt (the `description` of the receipt object). */
export function receiptDescription(f: ReceiptFacts): string {
  const what = f.kind === 'refund' ? `Pix refund of ${formatBRL(f.amount)} from` : `Pix receipt: ${formatBRL(f.amount)} to`;
  return `${what} ${f.payee.name} on ${saoPauloDateTime(new Date(f.at))} (end-to-end id ${f.endToEndId})`;
}

/** Renders a Pix receipt as a PDF (pdfkit, loaded on first use) and returns its bytes. */
export async function renderReceiptPdf(f: ReceiptFacts): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: 'Pix receipt', Producer: 'paybatch sandbox', Creator: 'paybatch sandbox', CreationDate: new Date(f.at) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(18).text(f.kind === 'refund' ? 'Pix refund receipt' : 'Pix receipt');
  doc.font('Helvetica').fontSize(10).fillColor('#b00').text('SANDBOX - simulated payment, no real money moved').fillColor('black').moveDown();
  const rows: [string, string][] = [
    ['Amount', formatBRL(f.amount)],
    ['Date and time', `${saoPauloDateTime(new Date(f.at))} (America/Sao_Paulo)`],
    ['Payer', `${f.payer.name} - ${f.payer.document}`],
    ['Payer institution', `${f.payer.institutionName} (${f.payer.institution}), branch ${f.payer.branch}, account ${f.payer.accountNumber}`],
    ['Payee', `${f.payee.name} - ${f.payee.document}`],
    ['Payee institution', `${f.payee.institutionName} (${f.payee.institution}), branch ${f.payee.branch}, account ${f.payee.accountNumber}`],
    ['Pix key', `${f.payee.key} (${f.payee.type})`],
    ['End-to-end id', f.endToEndId],
    ['Identifier', f.identifier],
    ['Transaction id', f.transactionId],
    ['Pix id', f.pixId],
    ['Description', f.description || '-'],
    ...(f.reason ? [['Reason', f.reason] as [string, string]] : []),
  ];
  for (const [label, value] of rows) {
    doc.font('Helvetica-Bold').fontSize(11).text(label);
    doc.font('Helvetica').fontSize(11).text(value).moveDown(0.5);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
