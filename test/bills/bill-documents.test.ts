import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../src/domain/webhook-event.js';
import { callbackHandler } from '../../src/engine/webhooks/apply-callback.js';
import { recordWebhookEvent } from '../../src/engine/webhooks/apply-event.js';
import { writeOwedBillDocuments } from '../../src/engine/bills/bill-documents.js';
import { payBills } from './pay-through.js';
import { getBill, insertBillIntent, updateBill } from '../../src/ledger/bill-repository.js';
import { openLedger, type Ledger } from '../../src/ledger/open-ledger.js';
import { billDocumentWriter } from '../../src/receipts/bill-receipt.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { pdfText } from '../sandbox/pdf-text.js';
import { bankLine, detailsFor, FakeProvider, paymentFor } from './fixtures.js';

/** Bills of a provider whose bill amounts are reais (as the embedded sandbox's). */
const applyCallback = callbackHandler('reais');

const tempDir = useTempDir();
const ledgers: Ledger[] = [];
afterEach(async () => {
  for (const l of ledgers.splice(0)) await l.close();
});

// Saturday night in São Paulo: the bill is scheduled for Monday.
const SATURDAY = new Date('2025-03-08T22:30:00-03:00');
const MONDAY = new Date('2025-03-10T10:00:00-03:00');
const line = bankLine({ amountCents: 15_990 });

function event(category: string, detail: Record<string, unknown>): WebhookEvent {
  const raw = { serviceId: '1', eventId: `ev-${category}`, type: 'bill_payment', category, timestamp: String(Date.parse('2025-03-11T13:00:00Z') / 1000), detail };
  return { kind: 'callback', eventId: raw.eventId, type: raw.type, category, timestamp: raw.timestamp, title: null, detail, raw };
}

/** The value under each label of a rendered document. */
function rowsOf(path: string): { title: string; text: string; value: (label: string) => string | undefined } {
  const text = pdfText(readFileSync(path));
  const lines = text.split('\n');
  return { title: lines[0]!, text, value: (label) => (lines.includes(label) ? lines[lines.indexOf(label) + 1] : undefined) };
}

describe("a bill's documents", () => {
  it('a scheduling receipt, then a payment receipt, then a return notice: three files, in Portuguese, marked SANDBOX', async () => {
    const ledger = await openLedger(':memory:');
    ledgers.push(ledger);
    const receiptsDir = tempDir();
    let now = SATURDAY;
    const deps = { ledger, now: () => now, documents: billDocumentWriter({ receiptsDir, locale: 'pt-BR', sandbox: true }) };
    const provider = new FakeProvider((code) => detailsFor(code, 15_990), () => paymentFor(line, 15_990, { status: 'scheduled', settleDate: '2025-03-10' }));
    const [outcome] = (await payBills({ ...deps, provider: async () => provider }, [{ code: line, description: 'aluguel março' }], { force: false, confirm: async () => true })).outcomes;

    const scheduling = rowsOf(outcome!.receiptPath!);
    expect(outcome!.receiptPath).toMatch(/\/bills\/2025-03-10-Silva-Comercio-Ltda-tx-\d+-scheduling\.pdf$/);
    expect(scheduling.title).toBe('Comprovante de agendamento');
    expect(scheduling.text).toContain('SANDBOX - pagamento simulado, nenhum dinheiro foi movimentado');
    expect(scheduling.value('Situação')).toBe('Agendado para 10/03/2025');
    expect(scheduling.value('Valor agendado')).toBe('R$ 159,90');
    expect(scheduling.value('Pagador')).toBe('Empresa Pagadora Ltda - 11.222.333/0001-81');
    expect(scheduling.value('Vencimento')).toBe('20/03/2025');
    expect(scheduling.value('Data e hora do envio')).toBe('08/03/2025 22:30 (horário de São Paulo)');
    // The sandbox's own clock runs fast: its time is not shown as the payment's.
    expect(scheduling.value('Data e hora no provedor')).toBeUndefined();
    expect(await getBill(ledger, 1)).toMatchObject({ status: 'scheduled', document_kind: 'scheduling', receipt_path: outcome!.receiptPath });
    const schedulingBytes = readFileSync(outcome!.receiptPath!);

    // Nothing is owed while the bill stays scheduled.
    expect(await writeOwedBillDocuments(deps)).toEqual({ saved: [], failed: [] });

    now = MONDAY;
    const tx = (await getBill(ledger, 1)).transaction_id;
    await recordWebhookEvent(ledger, event('bill_paid', { transactionId: tx, settleDate: '2025-03-10' }), { deliveryId: 'd1', receivedAt: now }, { onCallback: applyCallback });
    const paid = await writeOwedBillDocuments(deps);
    expect(paid.saved).toHaveLength(1);
    expect(paid.saved[0]).toMatch(/-payment\.pdf$/);
    const payment = rowsOf(paid.saved[0]!);
    expect(payment.title).toBe('Comprovante de pagamento de boleto');
    expect(payment.text).toContain('SANDBOX');
    expect(payment.value('Situação')).toBe('Pago');
    expect(payment.value('Valor pago')).toBe('R$ 159,90');
    expect(payment.value('Data do pagamento')).toBe('10/03/2025');
    expect(await getBill(ledger, 1)).toMatchObject({ status: 'paid', document_kind: 'payment', receipt_path: paid.saved[0] });

    await recordWebhookEvent(ledger, event('bill_return', { transactionId: tx, amount: 159.9, reason: '13 - payment deadline exceeded' }), { deliveryId: 'd2', receivedAt: now }, { onCallback: applyCallback });
    const returned = await writeOwedBillDocuments(deps);
    expect(returned.saved).toHaveLength(1);
    const notice = rowsOf(returned.saved[0]!);
    expect(notice.title).toBe('Aviso de devolução de pagamento');
    expect(notice.value('Situação')).toBe('Devolvido pelo beneficiário');
    expect(notice.value('Motivo da devolução')).toBe('13 - payment deadline exceeded');
    // 13:00 UTC is 10:00 in São Paulo.
    expect(notice.value('Data e hora da devolução')).toBe('11/03/2025 10:00 (horário de São Paulo)');
    expect(await getBill(ledger, 1)).toMatchObject({ status: 'returned', document_kind: 'return', receipt_path: returned.saved[0] });

    // Three files; the first one untouched.
    expect(new Set([outcome!.receiptPath, paid.saved[0], returned.saved[0]]).size).toBe(3);
    expect(readFileSync(outcome!.receiptPath!)).toEqual(schedulingBytes);
    expect(await writeOwedBillDocuments(deps)).toEqual({ saved: [], failed: [] });
  });

  it('reports a document that cannot be written and writes it on a later pass', async () => {
    const ledger = await openLedger(':memory:');
    ledgers.push(ledger);
    const id = await insertBillIntent(
      ledger,
      { barcode: 'b', line, kind: 'bank', description: null, beneficiary: 'Silva Comércio Ltda', beneficiaryDocument: null, assignor: null, dueDate: null, amountCents: 15_990, forced: false },
      MONDAY,
    );
    // Paid, as `boleto resolve --paid` records it after a lost answer: no document yet.
    await updateBill(ledger, id, { status: 'paid', transaction_id: 'tx-9', settle_date: '2025-03-10' }, MONDAY);
    const dir = tempDir();
    const blocked = join(dir, 'not-a-folder');
    writeFileSync(blocked, '');
    const deps = { ledger, now: () => MONDAY, documents: billDocumentWriter({ receiptsDir: blocked, locale: 'pt-BR', sandbox: false }) };
    expect(await writeOwedBillDocuments(deps)).toEqual({ saved: [], failed: [{ billId: id, error: expect.stringMatching(/ENOTDIR|EEXIST/) }] });
    expect(await getBill(ledger, id)).toMatchObject({ document_kind: null, receipt_path: null });
    const later = await writeOwedBillDocuments({ ...deps, documents: billDocumentWriter({ receiptsDir: join(dir, 'receipts'), locale: 'pt-BR', sandbox: false }) });
    expect(later.saved).toEqual([join(dir, 'receipts', 'bills', '2025-03-10-Silva-Comercio-Ltda-tx-9-payment.pdf')]);
    // A bill paid before paybatch kept the payer (or whose answer was lost) shows what it knows.
    expect(rowsOf(later.saved[0]!).value('Pagador')).toBe('-');
    expect(rowsOf(later.saved[0]!).value('Beneficiário')).toBe('Silva Comércio Ltda');
  });

  it('in English on request, without the SANDBOX mark on a real provider, with its time of the payment', async () => {
    const ledger = await openLedger(':memory:');
    ledgers.push(ledger);
    const deps = { ledger, now: () => MONDAY, documents: billDocumentWriter({ receiptsDir: tempDir(), locale: 'en', sandbox: false }) };
    const provider = new FakeProvider((code) => detailsFor(code, 15_990));
    const [outcome] = (await payBills({ ...deps, provider: async () => provider }, [{ code: line }], { force: false, confirm: async () => true })).outcomes;
    const payment = rowsOf(outcome!.receiptPath!);
    expect(payment.title).toBe('Bill payment receipt');
    expect(payment.text).not.toContain('SANDBOX');
    expect(payment.value('Status')).toBe('Paid');
    expect(payment.value('Amount paid')).toBe('R$ 159,90');
    expect(payment.value('Settle date')).toBe('2025-03-10');
    expect(payment.value('Sent at')).toBe('2025-03-10 10:00 (São Paulo time)');
    // 1741611600: 2025-03-10 13:00 UTC.
    expect(payment.value("Provider's time")).toBe('2025-03-10 10:00 (São Paulo time)');
  });
});
