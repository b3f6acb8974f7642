import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { renderBillReceipt } from '../../src/receipts/bill-receipt.js';
import { loadPdfKit } from '../../src/receipts/pdfkit.js';
import { pdfContentStreams, pdfText } from '../sandbox/pdf-text.js';

describe('bill receipts', () => {
  it('are written with the standard fonts, Portuguese text intact, without loading fontkit', async () => {
    const pdf = await renderBillReceipt({
      kind: 'payment', locale: 'pt-BR', sandbox: false, amountCents: 123_456, billAmountCents: 123_500, originalCents: null, discountCents: null, interestCents: null, fineCents: null, payer: 'Empresa Pagadora Ltda',
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

/** The texts a pdfkit PDF draws, each with where it starts (x, y), in drawing order. */
function placedTexts(pdf: Buffer): { x: number; y: number; text: string }[] {
  const placed: { x: number; y: number; text: string }[] = [];
  for (const content of pdfContentStreams(pdf)) {
    for (const m of content.matchAll(/1 0 0 1 ([\d.]+) ([\d.]+) Tm\s+\/F\d+ [\d.]+ Tf\s+\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...(m[3] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]).join('');
      placed.push({ x: Number(m[1]), y: Number(m[2]), text: Buffer.from(hex, 'hex').toString('latin1') });
    }
  }
  return placed;
}

describe('a bill receipt of a bill paid with a discount', () => {
  // A R$ 459,90 bill paid with R$ 9,20 off: R$ 450,70 paid; no interest, and no fine given by the provider.
  const facts = {
    kind: 'payment' as const, sandbox: false, amountCents: 45_070, billAmountCents: 45_990, originalCents: 45_990, discountCents: 920, interestCents: 0, fineCents: null,
    payer: 'Empresa Pagadora Ltda', payerDocument: '11.222.333/0001-81', beneficiary: 'Energia Sul', beneficiaryDocument: '12.345.678/0001-95', assignor: null,
    line: '23793381286000782713695000063305516560000150000', barcode: '23795165600001500003381260007827139500006330', dueDate: '2025-03-10', settleDate: '2025-03-10',
    sentAt: new Date('2025-03-10T13:00:00Z'), providerTime: null, transactionId: 'tx-7', description: null, billId: 3, forced: false, returnReason: null, returnMeaning: null, returnedAt: null,
  };

  it.each([
    ['pt-BR', [['Valor original', 'R$ 459,90'], ['Desconto', '- R$ 9,20'], ['Juros', '+ R$ 0,00'], ['Multa', '-'], ['Valor pago', 'R$ 450,70']]],
    ['en', [['Original amount', 'R$ 459,90'], ['Discount', '- R$ 9,20'], ['Interest', '+ R$ 0,00'], ['Fine', '-'], ['Amount paid', 'R$ 450,70']]],
  ] as const)('in %s shows the original amount, discount, interest, fine and paid, amounts right-aligned on their labels', async (locale, expected) => {
    const placed = placedTexts(await renderBillReceipt({ ...facts, locale }));
    const rows = expected.map(([label, amount]) => {
      const at = placed.findIndex((p) => p.text === label);
      expect(at, label).toBeGreaterThan(-1);
      const value = placed[at + 1]!;
      // On the label's line, to its right.
      expect([value.text, value.y]).toEqual([amount, placed[at]!.y]);
      return value;
    });
    // Right-aligned: every amount ends where the others end (its start plus its width in the font drawn).
    const measure = new (await loadPdfKit())({ size: 'A4' }).font('Helvetica').fontSize(11);
    const ends = rows.map((r) => r.x + measure.widthOfString(r.text));
    for (const end of ends) expect(end).toBeCloseTo(ends[0]!, 2);
    expect(new Set(rows.map((r) => r.x)).size).toBeGreaterThan(1);
    // The bill's own amount is the original: not said twice.
    expect(placed.map((p) => p.text)).not.toContain(locale === 'en' ? 'Amount of the bill' : 'Valor do documento');
  });
});
