import { join } from 'node:path';
import { saoPauloDateTime } from '../domain/bank-calendar.js';
import { formatBoletoLine } from '../domain/boleto.js';
import { formatBRL } from '../domain/money.js';
import { writePrivateFile } from '../private-files.js';
import { fileSafe, looksLikePdf } from './receipt-file.js';
import { loadPdfKit } from './pdfkit.js';

/** What a bill receipt shows (the provider's payment result and the ledger's bill). Amounts in centavos. */
export interface BillReceiptFacts {
  /** The provider's word: `paid`, `scheduled`, … */
  readonly status: string;
  readonly amountPaidCents: number;
  /** The bill's own amount, when the provider gives one. */
  readonly billAmountCents: number | null;
  readonly payer: string;
  readonly payerDocument: string;
  readonly beneficiary: string;
  readonly beneficiaryDocument: string;
  readonly assignor: string;
  /** The 47/48-digit line and the 44-digit barcode. */
  readonly line: string;
  readonly barcode: string;
  readonly dueDate: string;
  readonly settleDate: string;
  /** The provider's timestamp: Unix seconds as text, or any text it sent. */
  readonly timestamp: string;
  readonly transactionId: string;
  readonly description: string | null;
  /** The bill's number in the ledger. */
  readonly billId: number;
  readonly forced: boolean;
}

const dash = (text: string | null | undefined): string => (text === null || text === undefined || text === '' ? '-' : text);

/** The label/value rows of a bill receipt, in order (also what tests read back). */
export function billReceiptRows(f: BillReceiptFacts): [string, string][] {
  const timestamp = /^\d+$/.test(f.timestamp) ? `${saoPauloDateTime(new Date(Number(f.timestamp) * 1000))} (America/Sao_Paulo)` : dash(f.timestamp);
  return [
    ['Status', f.status === 'scheduled' ? `scheduled for ${dash(f.settleDate)}` : dash(f.status)],
    ['Amount paid', formatBRL(f.amountPaidCents)],
    ...(f.billAmountCents !== null && f.billAmountCents !== f.amountPaidCents ? [['Amount of the bill', formatBRL(f.billAmountCents)] as [string, string]] : []),
    ['Payer', `${dash(f.payer)} - ${dash(f.payerDocument)}`],
    ['Beneficiary', `${dash(f.beneficiary)} - ${dash(f.beneficiaryDocument)}`],
    ['Assignor', dash(f.assignor)],
    ['Line', formatBoletoLine(f.line)],
    ['Barcode', dash(f.barcode)],
    ['Due date', dash(f.dueDate)],
    ['Settle date', dash(f.settleDate)],
    ['Date and time of the payment', timestamp],
    ['Transaction id', dash(f.transactionId)],
    ['Description', dash(f.description)],
    ['Ledger bill', `#${f.billId}${f.forced ? ' (paid again with --force)' : ''}`],
  ];
}

/** Renders a bill receipt as a PDF with pdfkit (loaded on first use) and returns its bytes. */
export async function renderBillReceipt(f: BillReceiptFacts): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: 'Bill payment receipt', Producer: 'paybatch', Creator: 'paybatch' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  doc.font('Helvetica-Bold').fontSize(18).text('Bill payment receipt');
  doc.font('Helvetica').fontSize(9).fillColor('#555').text("Rendered by paybatch from the provider's payment result.").fillColor('black').moveDown();
  for (const [label, value] of billReceiptRows(f)) {
    doc.font('Helvetica-Bold').fontSize(11).text(label);
    doc.font('Helvetica').fontSize(11).text(value).moveDown(0.5);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/**
 * Renders and writes the receipt atomically and privately (0600, folders 0700) as
 * `<receiptsDir>/bills/<settle date>-<beneficiary>-<transaction id>.pdf` (parts made file-name safe); returns its path.
 */
export async function writeBillReceipt(receiptsDir: string, f: BillReceiptFacts): Promise<string> {
  const pdf = await renderBillReceipt(f);
  if (!looksLikePdf(pdf)) throw new Error('the rendered receipt is not a complete PDF');
  const date = /^\d{4}-\d{2}-\d{2}$/.test(f.settleDate) ? f.settleDate : 'undated';
  const name = `${date}-${fileSafe(f.beneficiary || 'beneficiary', 40)}-${fileSafe(f.transactionId || `bill-${f.billId}`, 60)}.pdf`;
  const path = join(receiptsDir, 'bills', name);
  await writePrivateFile(path, pdf);
  return path;
}
