import { describe, expect, it } from 'vitest';
import { localDateTime } from '../../src/words/local-time.js';
import { realInstant, receiptDescription, renderReceiptPdf, type ReceiptFacts } from '../../src/sandbox/receipt-pdf.js';
import { Client, eventually, itemFor, sandbox } from './helpers.js';
import { cpf } from './documents.js';
import { pdfText } from './pdf-text.js';

const facts: ReceiptFacts = {
  kind: 'payment',
  pixId: 'pix-123',
  amount: 123_456,
  // 01:18 UTC on 23 November is 22:18 of the 22nd in São Paulo.
  at: Date.parse('2026-11-23T01:18:00Z'),
  payer: {
    key: '11222333000181', name: 'Empresa Sandbox ABCD Ltda', accountNumber: '1234567-8', institutionName: 'Banco Sandbox',
    branch: '0001', document: '11.222.333/0001-81', institution: '99999999',
  },
  payee: {
    accountType: 'checkingAccount', branch: '0042', key: '52998224725', accountNumber: '7654321-0', institutionName: 'Banco Exemplo',
    document: '***.982.247-**', type: 'cpf', institution: '12345678', name: 'Maria José da Conceição',
  },
  endToEndId: 'E99999999202611230118abcdefghijk',
  transactionId: 'tx-9',
  identifier: 'folha-1-linha-2',
  description: 'salário de novembro',
  reason: null,
};

describe("the sandbox's Pix receipts", () => {
  it('are written as a Brazilian provider writes them: Portuguese labels, São Paulo time, masked key, SANDBOX', async () => {
    const text = pdfText(await renderReceiptPdf(facts));
    const lines = text.split('\n');
    expect(lines[0]).toBe('Comprovante de pagamento Pix');
    expect(text).toContain('SANDBOX - pagamento simulado');
    const after = (label: string) => lines[lines.indexOf(label) + 1];
    expect(after('Valor')).toBe('R$ 1.234,56');
    expect(after('Data e hora')).toBe('22/11/2026 22:18 (horário de São Paulo)');
    expect(after('Pagador')).toBe('Empresa Sandbox ABCD Ltda - CNPJ 11.222.333/0001-81');
    expect(after('Recebedor')).toBe('Maria José da Conceição - ***.982.247-**');
    expect(after('Chave Pix')).toBe('***.982.247-** (CPF)');
    expect(after('ID da transação (E2E)')).toBe('E99999999202611230118abcdefghijk');
    expect(after('Descrição')).toBe('salário de novembro');
    expect(text).not.toContain('52998224725');
  });

  it('title a refund as one and give its reason', async () => {
    const refund = { ...facts, kind: 'refund' as const, reason: 'AB03 instabilidade' };
    const lines = pdfText(await renderReceiptPdf(refund)).split('\n');
    expect(lines[0]).toBe('Comprovante de devolução Pix');
    expect(lines[lines.indexOf('Motivo da devolução') + 1]).toBe('AB03 instabilidade');
    expect(receiptDescription(refund)).toBe(
      'Devolução Pix de R$ 1.234,56 de Maria José da Conceição em 22/11/2026 22:18 (horário de São Paulo) (ID E2E E99999999202611230118abcdefghijk)',
    );
  });

  it('map a simulated instant back to real time through the clock speed', () => {
    // 60 simulated minutes before the simulated now, at 60×, is one real minute before the real now.
    expect(realInstant(10_000_000 - 3_600_000, { simNow: 10_000_000, realNow: 5_000_000, speed: 60 })).toBe(5_000_000 - 60_000);
  });

  it('show the real time of the payment although the clock runs fast and far ahead', async () => {
    // Two days ahead, running 1000× faster than real time.
    const s = await sandbox({ speed: 1000, startTime: new Date(Date.now() + 2 * 86_400_000) });
    const client = new Client(s);
    const batch = (await client.post('/pix/batch', { name: 'b' })).body;
    await client.post(`/pix/batch/${batch.id}/items`, [await itemFor(client, cpf('529982247'), 100, 'id-1')]);
    await client.post(`/pix/batch/${batch.id}/start-process`);
    const before = Date.now();
    const [item] = await eventually(async () => {
      const items = (await client.get(`/pix/batch/${batch.id}/items`)).body.data as any[];
      return items.every((i) => i.status === 'paid') ? items : undefined;
    });
    const after = Date.now();
    const lines = pdfText(Buffer.from((await client.get(`/pix/${item.pixId}/receipt`)).body.base64, 'base64')).split('\n');
    const shown = lines[lines.indexOf('Data e hora') + 1];
    const minutes = new Set([before - 60_000, before, after].map((t) => `${localDateTime(new Date(t), 'pt-BR')} (horário de São Paulo)`));
    expect(minutes).toContain(shown);
  });
});
