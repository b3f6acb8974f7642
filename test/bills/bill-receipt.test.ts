import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { renderBillReceipt } from '../../src/receipts/bill-receipt.js';
import { pdfText } from '../sandbox/pdf-text.js';

describe('bill receipts', () => {
  it('are written with the standard fonts, Portuguese text intact, without loading fontkit', async () => {
    const pdf = await renderBillReceipt({
      kind: 'payment', locale: 'pt-BR', sandbox: false, amountCents: 123_456, billAmountCents: 123_500, payer: 'Empresa Pagadora Ltda',
      payerDocument: '11.222.333/0001-81', beneficiary: 'Concessionária de Água São João', beneficiaryDocument: '12.345.678/0001-95',
      assignor: 'Banco Ação', line: '23793381286000782713695000063305516560000150000', barcode: '23795165600001500003381260007827139500006330',
      dueDate: '2025-03-10', settleDate: '2025-03-10', sentAt: new Date('2025-03-10T13:00:00Z'), providerTime: '2025-03-10T13:00:05Z',
      transactionId: 'tx-42', description: 'conta de março', billId: 7, forced: true, returnReason: null, returnMeaning: null, returnedAt: null,
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain('Concessionária de Água São João');
    expect(text).toContain('conta de março');
    const lines = text.split('\n');
    const value = (label: string) => lines[lines.indexOf(label) + 1];
    expect(lines[0]).toBe('Comprovante de pagamento de boleto');
    expect(value('Valor pago')).toBe('R$ 1.234,56');
    expect(value('Valor do documento')).toBe('R$ 1.235,00');
    expect(value('Beneficiário')).toBe('Concessionária de Água São João - 12.345.678/0001-95');
    expect(value('Linha digitável')).toBe('23793.38128 60007.827136 95000.063305 5 16560000150000');
    expect(value('Data e hora do envio')).toBe('10/03/2025 10:00 (horário de São Paulo)');
    // A provider time that is not Unix seconds is shown as it was sent.
    expect(value('Data e hora no provedor')).toBe('2025-03-10T13:00:05Z');
    expect(value('Registro no paybatch')).toBe('#7 (pago novamente com --force)');
    expect(text).not.toContain('SANDBOX');
    // fontkit's place in the module cache is held by the stand-in, which refuses embedded fonts.
    const fontkit = createRequire(createRequire(import.meta.url).resolve('pdfkit')).resolve('fontkit');
    expect(() => (createRequire(import.meta.url).cache[fontkit]?.exports as { create(): unknown }).create()).toThrow(/standard PDF fonts only/);
  });
});
