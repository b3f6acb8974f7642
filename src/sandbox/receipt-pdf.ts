import { createRequire } from 'node:module';
import { localDateTime, zoneLabel } from '../words/local-time.js';
import { shownDocument } from '../domain/document.js';
import { maskPixKey } from '../domain/masked-key.js';
import { formatBRL } from '../domain/money.js';
import type { Destination } from '../domain/destination.js';
import type { PixKeyType } from '../domain/pix-key.js';
import type { Payer } from './payer.js';

// pdfkit is required, not imported: the bundle is CommonJS files run by bin/bundle-loader.js, which gives them no
// import().
const require = createRequire(import.meta.url);

/** What a Pix receipt shows. Amount in centavos; `at`: the real instant of the payment, ms since the epoch. */
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

const KEY_TYPE_WORDS: Record<PixKeyType, string> = { cpf: 'CPF', cnpj: 'CNPJ', phone: 'celular', email: 'e-mail', evp: 'chave aleatória' };
const ACCOUNT_TYPE_WORDS: Record<string, string> = { checkingAccount: 'conta corrente', savingsAccount: 'conta poupança', paymentAccount: 'conta de pagamento' };

/**
 * The real instant of a simulated one. The sandbox's clock runs `speed` times faster than real time (60× by default),
 * so its timestamps race ahead; a receipt shows when the payment really happened. Read through the clock's current
 * speed: exact unless the speed changed or the clock was moved by hand (tests) since the payment.
 */
export function realInstant(simAt: number, clock: { simNow: number; realNow: number; speed: number }): number {
  return Math.round(clock.realNow - (clock.simNow - simAt) / clock.speed);
}

/** When, as a Brazilian provider writes it: `23/11/2026 14:05 (horário de São Paulo)`. */
const when = (f: ReceiptFacts): string => `${localDateTime(new Date(f.at), 'pt-BR')} (${zoneLabel('pt-BR')})`;

/** One line of text describing a receipt (the `description` of the receipt object), in Portuguese. */
export function receiptDescription(f: ReceiptFacts): string {
  const what = f.kind === 'refund' ? `Devolução Pix de ${formatBRL(f.amount)} de` : `Pagamento Pix de ${formatBRL(f.amount)} para`;
  return `${what} ${f.payee.name} em ${when(f)} (ID E2E ${f.endToEndId})`;
}

/**
 * The label/value rows of a Pix receipt, in order, as a Brazilian provider writes them: in Portuguese, the payee's
 * Pix key masked (domain/masked-key.ts), or the type of account of a Pix by account data, São Paulo time. The
 * payee's document as statements show it (a key directory's comes masked already).
 */
function receiptRows(f: ReceiptFacts): [string, string][] {
  const institution = (p: { institutionName: string; institution: string; branch: string; accountNumber: string }) => {
    // An account may be given by its bank's 3-digit COMPE code instead of the ISPB, and without the bank's name.
    const code = `${p.institution.length === 3 ? 'COMPE' : 'ISPB'} ${p.institution}`;
    return `${p.institutionName === '' ? code : `${p.institutionName} (${code})`}, agência ${p.branch}, conta ${p.accountNumber}`;
  };
  const keyType = KEY_TYPE_WORDS[f.payee.type as PixKeyType] as string | undefined;
  const destination: [string, string] =
    f.payee.key === '' ? ['Tipo de conta', ACCOUNT_TYPE_WORDS[f.payee.accountType] ?? f.payee.accountType]
    : ['Chave Pix', keyType ? `${maskPixKey(f.payee.key, f.payee.type as PixKeyType)} (${keyType})` : '***'];
  return [
    ['Valor', formatBRL(f.amount)],
    ['Data e hora', when(f)],
    ['Pagador', `${f.payer.name} - CNPJ ${f.payer.document}`],
    ['Instituição do pagador', institution(f.payer)],
    ['Recebedor', [f.payee.name, shownDocument(f.payee.document)].filter(Boolean).join(' - ')],
    ['Instituição do recebedor', institution(f.payee)],
    destination,
    ['ID da transação (E2E)', f.endToEndId],
    ['Identificador', f.identifier],
    ['Código da transação', f.transactionId],
    ['ID do Pix', f.pixId],
    ['Descrição', f.description || '-'],
    ...(f.reason ? [['Motivo da devolução', f.reason] as [string, string]] : []),
  ];
}

/** Renders a Pix receipt as a PDF (pdfkit, loaded on first use) and returns its bytes. */
export async function renderReceiptPdf(f: ReceiptFacts): Promise<Buffer> {
  const PDFDocument = require('pdfkit') as typeof import('pdfkit');
  const title = f.kind === 'refund' ? 'Comprovante de devolução Pix' : 'Comprovante de pagamento Pix';
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: title, Producer: 'paybatch sandbox', Creator: 'paybatch sandbox', CreationDate: new Date(f.at) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(18).text(title);
  doc.font('Helvetica').fontSize(10).fillColor('#b00').text('SANDBOX - pagamento simulado, nenhum dinheiro foi movimentado').fillColor('black').moveDown();
  for (const [label, value] of receiptRows(f)) {
    doc.font('Helvetica-Bold').fontSize(11).text(label);
    doc.font('Helvetica').fontSize(11).text(value).moveDown(0.5);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
