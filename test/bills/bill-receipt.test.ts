import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { renderBillReceipt } from '../../src/receipts/bill-receipt.js';
import { pdfText } from '../sandbox/pdf-text.js';

describe('bill receipts', () => {
  it('are written with the standard fonts, Portuguese text intact, without loading fontkit', async () => {
    const pdf = await renderBillReceipt({
      status: 'paid', amountPaidCents: 123_456, billAmountCents: 123_456, payer: 'Empresa Pagadora Ltda', payerDocument: '11.222.333/0001-81',
      beneficiary: 'Concessionária de Água São João', beneficiaryDocument: '12.345.678/0001-95', assignor: 'Banco Ação',
      line: '23793381286000782713695000063305516560000150000', barcode: '23795165600001500003381260007827139500006330',
      dueDate: '2025-03-10', settleDate: '2025-03-10', timestamp: '2025-03-10T13:00:00Z', transactionId: 'tx-42', description: 'conta de março',
      billId: 7, forced: false,
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain('Concessionária de Água São João');
    expect(text).toContain('conta de março');
    expect(text).toContain('R$ 1.234,56');
    // fontkit's place in the module cache is held by the stand-in, which refuses embedded fonts.
    const fontkit = createRequire(createRequire(import.meta.url).resolve('pdfkit')).resolve('fontkit');
    expect(() => (createRequire(import.meta.url).cache[fontkit]?.exports as { create(): unknown }).create()).toThrow(/standard PDF fonts only/);
  });
});
