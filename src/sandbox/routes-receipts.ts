import type { FastifyInstance } from 'fastify';
import type { Destination } from '../domain/destination.js';
import { notFound } from './api-error.js';
import type { AccountOf, AppParts } from './app-parts.js';
import { payerOf } from './payer.js';
import { payeeOf } from './pix-events.js';
import { realInstant, receiptDescription, renderReceiptPdf, type ReceiptFacts } from './receipt-pdf.js';

/** Fields a payee given by account data may leave out (its key and type among them). */
const NO_DESTINATION: Destination = {
  accountType: '', branch: '', key: '', accountNumber: '', institutionName: '', document: '', type: '', institution: '', name: '',
};

/** Endpoint 11, `GET /pix/{pixId}/receipt`: a PDF receipt of a payment or refund of the account (404 otherwise). */
export function registerReceiptRoutes(app: FastifyInstance, { rt }: AppParts, accountOf: AccountOf): void {
  app.get<{ Params: { pixId: string } }>('/pix/:pixId/receipt', async (request) => {
    const transfer = rt.pix.transfer(accountOf(request), request.params.pixId);
    const item = transfer && rt.pix.itemById(transfer.item_id);
    if (!transfer || !item) throw notFound('Pix payment');
    const facts: ReceiptFacts = {
      kind: transfer.kind,
      pixId: transfer.pix_id,
      amount: transfer.amount,
      // The sandbox's clock runs fast; the receipt shows the real time of the payment.
      at: realInstant(transfer.created_at, { simNow: rt.clock.now(), realNow: Date.now(), speed: rt.clock.speed }),
      payer: payerOf(transfer.account),
      payee: { ...NO_DESTINATION, ...payeeOf(item) },
      endToEndId: transfer.end_to_end_id,
      transactionId: transfer.transaction_id,
      identifier: transfer.identifier,
      description: item.description,
      reason: transfer.reason,
    };
    const pdf = await renderReceiptPdf(facts);
    return { base64: pdf.toString('base64'), name: 'receipt.pdf', description: receiptDescription(facts) };
  });
}
