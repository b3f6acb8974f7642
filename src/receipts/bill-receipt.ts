import { join } from 'node:path';
import { formatBoletoLine } from '../domain/boleto.js';
import type { Locale } from '../words/locale.js';
import { localDateTime, localDay, zoneLabel } from '../words/local-time.js';
import { billReturnMeaningText } from '../words/payment-reasons.js';
import { formatBRL } from '../domain/money.js';
import { writePrivateFile } from '../private-files.js';
import { fileSafe, looksLikePdf } from './receipt-file.js';
import { loadPdfKit } from './pdfkit.js';

/** A bill's documents: the scheduling receipt, the payment receipt, the return notice; each its own file. */
export type BillDocumentKind = 'scheduling' | 'payment' | 'return';

/** What a bill document shows (the ledger's bill and the provider's answers). Amounts in centavos. */
export interface BillReceiptFacts {
  readonly kind: BillDocumentKind;
  readonly locale: Locale;
  /** The profile pays on the embedded sandbox: the document says so, and the sandbox's fast clock is not shown. */
  readonly sandbox: boolean;
  /** Paid, or to be paid on the scheduled date. */
  readonly amountCents: number;
  /** The bill's own amount, when the provider gives one. */
  readonly billAmountCents: number | null;
  /**
   * What the payment was made of, from the provider's details when it was paid (null each: not given): the bill's
   * original amount, the discount taken off, the interest and the fine added.
   */
  readonly originalCents: number | null;
  readonly discountCents: number | null;
  readonly interestCents: number | null;
  readonly fineCents: number | null;
  readonly payer: string | null;
  readonly payerDocument: string | null;
  readonly beneficiary: string | null;
  readonly beneficiaryDocument: string | null;
  readonly assignor: string | null;
  /** The 47/48-digit line and the 44-digit barcode. */
  readonly line: string;
  readonly barcode: string;
  /** Calendar days, `YYYY-MM-DD`. */
  readonly dueDate: string | null;
  readonly settleDate: string | null;
  /** When paybatch sent the payment. */
  readonly sentAt: Date;
  /** The provider's time of the payment: Unix seconds as text, or any text it sent. */
  readonly providerTime: string | null;
  readonly transactionId: string | null;
  readonly description: string | null;
  /** The bill's number in the ledger. */
  readonly billId: number;
  readonly forced: boolean;
  readonly returnReason: string | null;
  readonly returnMeaning: string | null;
  readonly returnedAt: Date | null;
}

const WORDS = {
  'pt-BR': {
    title: { scheduling: 'Comprovante de agendamento', payment: 'Comprovante de pagamento de boleto', return: 'Aviso de devolução de pagamento' },
    rendered: 'Emitido pelo paybatch a partir da resposta do provedor.',
    sandbox: 'SANDBOX - pagamento simulado, nenhum dinheiro foi movimentado',
    status: 'Situação',
    state: { scheduling: (day: string) => `Agendado para ${day}`, payment: () => 'Pago', return: () => 'Devolvido pelo beneficiário' },
    amount: { scheduling: 'Valor agendado', payment: 'Valor pago', return: 'Valor pago' },
    billAmount: 'Valor do documento',
    original: 'Valor original',
    discount: 'Desconto',
    interest: 'Juros',
    fine: 'Multa',
    payer: 'Pagador',
    beneficiary: 'Beneficiário',
    assignor: 'Cedente',
    line: 'Linha digitável',
    barcode: 'Código de barras',
    due: 'Vencimento',
    settle: { scheduling: 'Data agendada', payment: 'Data do pagamento', return: 'Data do pagamento' },
    sent: 'Data e hora do envio',
    providerTime: 'Data e hora no provedor',
    transaction: 'ID da transação',
    description: 'Descrição',
    returnReason: 'Motivo da devolução',
    returnMeaning: 'Significado',
    returnedAt: 'Data e hora da devolução',
    ledger: 'Registro no paybatch',
    forced: 'pago novamente com --force',
  },
  en: {
    title: { scheduling: 'Bill scheduling receipt', payment: 'Bill payment receipt', return: 'Bill payment return notice' },
    rendered: "Rendered by paybatch from the provider's answer.",
    sandbox: 'SANDBOX - simulated payment, no real money moved',
    status: 'Status',
    state: { scheduling: (day: string) => `Scheduled for ${day}`, payment: () => 'Paid', return: () => 'Returned by the beneficiary' },
    amount: { scheduling: 'Amount scheduled', payment: 'Amount paid', return: 'Amount paid' },
    billAmount: 'Amount of the bill',
    original: 'Original amount',
    discount: 'Discount',
    interest: 'Interest',
    fine: 'Fine',
    payer: 'Payer',
    beneficiary: 'Beneficiary',
    assignor: 'Assignor',
    line: 'Line',
    barcode: 'Barcode',
    due: 'Due date',
    settle: { scheduling: 'Scheduled date', payment: 'Settle date', return: 'Settle date' },
    sent: 'Sent at',
    providerTime: "Provider's time",
    transaction: 'Transaction id',
    description: 'Description',
    returnReason: 'Return reason',
    returnMeaning: 'Meaning',
    returnedAt: 'Returned at',
    ledger: 'Ledger bill',
    forced: 'paid again with --force',
  },
} as const;

/** Where the amounts column ends, from the left margin, and how wide it is (points). */
const AMOUNT_COLUMN_RIGHT = 300;
const AMOUNT_COLUMN_WIDTH = 120;

/** A calendar day as the document's language writes it (`YYYY-MM-DD` in the ledger), or "-". */
const receiptDay = (ymd: string | null, locale: Locale): string => (ymd && /^\d{4}-\d{2}-\d{2}$/.test(ymd) ? localDay(ymd, locale) : dash(ymd));

const dash = (text: string | null | undefined): string => (text === null || text === undefined || text === '' ? '-' : text);

/**
 * The amounts of a bill document, label and amount, in the order they add up: the original amount, less the
 * discount, plus interest and fine, then what was paid (or scheduled). A charge the provider did not give is "-". A
 * bill paid before paybatch kept its charges shows what was paid, and the bill's own amount when it differs.
 */
function billAmountRows(f: BillReceiptFacts): [string, string][] {
  const w = WORDS[f.locale];
  const paid: [string, string] = [w.amount[f.kind], formatBRL(f.amountCents)];
  const charges = [f.originalCents, f.discountCents, f.interestCents, f.fineCents];
  if (charges.every((c) => c === null)) {
    return [paid, ...(f.billAmountCents !== null && f.billAmountCents !== f.amountCents ? [[w.billAmount, formatBRL(f.billAmountCents)] as [string, string]] : [])];
  }
  const signed = (sign: '-' | '+', cents: number | null) => (cents === null ? '-' : `${sign} ${formatBRL(cents)}`);
  return [
    [w.original, f.originalCents === null ? '-' : formatBRL(f.originalCents)],
    [w.discount, signed('-', f.discountCents)],
    [w.interest, signed('+', f.interestCents)],
    [w.fine, signed('+', f.fineCents)],
    paid,
  ];
}

/** The label/value rows of a bill document after its amounts, in order, in its locale; times are São Paulo's, labelled. */
function billReceiptRows(f: BillReceiptFacts): [string, string][] {
  const w = WORDS[f.locale];
  const day = (ymd: string | null) => receiptDay(ymd, f.locale);
  const time = (at: Date) => `${localDateTime(at, f.locale)} (${zoneLabel(f.locale)})`;
  const providerTime = f.providerTime === null || f.providerTime === '' ? null : /^\d+$/.test(f.providerTime) ? time(new Date(Number(f.providerTime) * 1000)) : f.providerTime;
  const party = (name: string | null, document: string | null) => [name, document].filter((t) => t !== null && t !== '').join(' - ') || '-';
  const row = (label: string, value: string): [string, string] => [label, value];
  return [
    row(w.payer, party(f.payer, f.payerDocument)),
    row(w.beneficiary, party(f.beneficiary, f.beneficiaryDocument)),
    row(w.assignor, dash(f.assignor)),
    row(w.line, formatBoletoLine(f.line)),
    row(w.barcode, dash(f.barcode)),
    row(w.due, day(f.dueDate)),
    row(w.settle[f.kind], day(f.settleDate)),
    row(w.sent, time(f.sentAt)),
    // The embedded sandbox's clock runs fast (60× by default): its time of the payment is not a real one.
    ...(providerTime === null || f.sandbox ? [] : [row(w.providerTime, providerTime)]),
    row(w.transaction, dash(f.transactionId)),
    row(w.description, dash(f.description)),
    ...(f.kind === 'return'
      ? [row(w.returnReason, dash(f.returnReason)), row(w.returnMeaning, dash(billReturnMeaningText(f.returnReason, f.returnMeaning, f.locale))), row(w.returnedAt, f.returnedAt ? time(f.returnedAt) : '-')]
      : []),
    row(w.ledger, `#${f.billId}${f.forced ? ` (${w.forced})` : ''}`),
  ];
}

/** Renders a bill document as a PDF with pdfkit (loaded on first use) and returns its bytes. */
export async function renderBillReceipt(f: BillReceiptFacts): Promise<Buffer> {
  const PDFDocument = loadPdfKit();
  const w = WORDS[f.locale];
  const title = w.title[f.kind];
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: title, Producer: 'paybatch', Creator: 'paybatch' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  doc.font('Helvetica-Bold').fontSize(18).text(title);
  if (f.sandbox) doc.font('Helvetica').fontSize(10).fillColor('#b00').text(w.sandbox);
  doc.font('Helvetica').fontSize(9).fillColor('#555').text(w.rendered).fillColor('black').moveDown();
  doc.font('Helvetica-Bold').fontSize(11).text(w.status);
  doc.font('Helvetica').fontSize(11).text(w.state[f.kind](receiptDay(f.settleDate, f.locale))).moveDown(0.5);
  // Amounts in a column of their own, right-aligned, so that they are read (and added up) digit under digit.
  const left = doc.page.margins.left;
  for (const [label, value] of billAmountRows(f)) {
    const y = doc.y;
    doc.font('Helvetica-Bold').fontSize(11).text(label, left, y, { width: AMOUNT_COLUMN_RIGHT - AMOUNT_COLUMN_WIDTH });
    doc.font('Helvetica').fontSize(11).text(value, left, y, { width: AMOUNT_COLUMN_RIGHT, align: 'right' });
    doc.moveDown(0.5);
  }
  doc.moveDown(0.5);
  for (const [label, value] of billReceiptRows(f)) {
    doc.font('Helvetica-Bold').fontSize(11).text(label);
    doc.font('Helvetica').fontSize(11).text(value).moveDown(0.5);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/**
 * Renders and writes a bill document atomically and privately (0600, folders 0700) as
 * `<receiptsDir>/bills/<settle date>-<beneficiary>-<transaction id>-<kind>.pdf` (parts made file-name safe), so the
 * scheduling receipt, the payment receipt and the return notice of one bill are three files; returns its path.
 */
export async function writeBillReceipt(receiptsDir: string, f: BillReceiptFacts): Promise<string> {
  const pdf = await renderBillReceipt(f);
  if (!looksLikePdf(pdf)) throw new Error('the rendered receipt is not a complete PDF');
  const date = f.settleDate && /^\d{4}-\d{2}-\d{2}$/.test(f.settleDate) ? f.settleDate : 'undated';
  const name = `${date}-${fileSafe(f.beneficiary || 'beneficiary', 40)}-${fileSafe(f.transactionId || `bill-${f.billId}`, 60)}-${f.kind}.pdf`;
  const path = join(receiptsDir, 'bills', name);
  await writePrivateFile(path, pdf);
  return path;
}

/** What a bill document shows of the ledger's bill: its facts without the language and the sandbox mark. */
export type BillDocumentData = Omit<BillReceiptFacts, 'locale' | 'sandbox'>;

/** Writes a bill's document and returns its path: bound at the edge to a folder, a language and the sandbox mark. */
export type BillDocumentWriter = (data: BillDocumentData) => Promise<string>;

/** Documents under `receiptsDir`/bills in `locale`, marked SANDBOX on the embedded sandbox. */
export function billDocumentWriter(o: { readonly receiptsDir: string; readonly locale: Locale; readonly sandbox: boolean }): BillDocumentWriter {
  return (data) => writeBillReceipt(o.receiptsDir, { ...data, locale: o.locale, sandbox: o.sandbox });
}
