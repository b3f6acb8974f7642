import { afterEach, describe, expect, it } from 'vitest';
import { admin, Client, eventually, itemFor, Receiver, sandbox } from './helpers.js';
import { nthCpf } from './documents.js';
import { pdfText } from './pdf-text.js';

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function setUp(faults = '', more: Parameters<typeof sandbox>[0] = {}) {
  const s = await sandbox({ speed: 1000, faults, ...more });
  const client = new Client(s);
  const receiver = await new Receiver('a-long-webhook-secret').start();
  receivers.push(receiver);
  expect((await client.post('/subscribe/event', { url: receiver.url, secret: receiver.secret })).status).toBe(201);
  const batch = (await client.post('/pix/batch', { name: 'b' })).body;
  const items = await Promise.all([1, 2, 3].map((n) => itemFor(client, nthCpf(n), 100 * n, `id-${n}`)));
  await client.post(`/pix/batch/${batch.id}/items`, items);
  expect((await client.post(`/pix/batch/${batch.id}/start-process`)).body.status).toBe('processing');
  const list = async () => (await client.get(`/pix/batch/${batch.id}/items`)).body.data as any[];
  return { s, client, receiver, batch, list };
}

describe('processing a started batch', () => {
  it('pays every item (waiting → processing → paid) and sends one signed Pix event per item', async () => {
    const { client, receiver, list } = await setUp();
    const paid = await eventually(async () => {
      const items = await list();
      return items.every((i) => i.status === 'paid') ? items : undefined;
    });
    for (const item of paid) {
      expect(item).toMatchObject({ pixId: expect.any(String), endToEndId: expect.stringMatching(/^E\d{8}\d{12}[0-9a-zA-Z]{11}$/), updatedAt: expect.any(Number) });
    }
    expect((await client.get('/pix/batch')).body.data[0].status).toBe('completed');
    await eventually(() => (receiver.deliveries.length >= 3 ? true : undefined));
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    const events = receiver.deliveries.map((d) => d.json);
    for (const item of paid) {
      const event = events.find((e) => e.payload.identifier === item.identifier);
      expect(event).toMatchObject({
        serviceId: expect.any(Number),
        payload: {
          id: item.pixId, endToEndId: item.endToEndId, amount: item.amount, transactionStatus: 'approved', transactionAccepted: true,
          isRefund: false, type: 'output', category: 'pix_out', transactionType: 'debit', reason: null, to: item.to,
        },
      });
    }
    expect(new Set(receiver.deliveries.map((d) => d.headers['webhook-id'])).size).toBe(3);
  });

  it('serves receipts as real PDFs showing payer, payee, amount, end-to-end id and identifier; 404 elsewhere', async () => {
    const { client, list } = await setUp('', { apiKeys: ['sandbox-api-key', 'second'] });
    const [item] = await eventually(async () => {
      const items = await list();
      return items.every((i) => i.status === 'paid') ? items : undefined;
    });
    const receipt = await client.get(`/pix/${item.pixId}/receipt`);
    expect(receipt.status).toBe(200);
    expect(receipt.body).toMatchObject({ name: 'receipt.pdf', description: expect.stringContaining(item.to.name) });
    const pdf = Buffer.from(receipt.body.base64, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-8).toString()).toContain('%%EOF');
    const text = pdfText(pdf);
    for (const shown of [item.to.name, item.endToEndId, item.identifier, 'R$ 1,00', 'Empresa Sandbox']) expect(text).toContain(shown);
    expect((await client.get('/pix/unknown/receipt')).status).toBe(404);
    const stranger = new Client(client.sandbox, 'second');
    expect((await stranger.get(`/pix/${item.pixId}/receipt`)).status).toBe(404);
  });

  it('fails items with a final Pix rejection code under the failed fault', async () => {
    const { receiver, list } = await setUp('failed=1');
    const failed = await eventually(async () => {
      const items = await list();
      return items.every((i) => i.status === 'failed') ? items : undefined;
    });
    for (const item of failed) expect(item.reason).toMatch(/^(AC03|AC06|AC07|AC14|AG03|AM02|AM04|AM09|BE01|BE17|CH11|DS27|RR04|SL02) - .+/);
    await eventually(() => (receiver.deliveries.length >= 3 ? true : undefined));
    for (const d of receiver.deliveries) {
      expect(d.json.payload).toMatchObject({ transactionStatus: 'rejected', transactionAccepted: false, isRefund: false, reason: expect.stringMatching(/^[A-Z]{2}\d\d - /) });
    }
  });

  it('pays then refunds for instability (returned, AB03-class reason, a second event with isRefund)', async () => {
    const { receiver, list, s } = await setUp('instabilityReturn=1');
    const returned = await eventually(async () => {
      const items = await list();
      return items.every((i) => i.status === 'returned') ? items : undefined;
    });
    for (const item of returned) expect(item.reason).toMatch(/^(AB03|AB09|AB11|ED05) - /);
    await eventually(() => (receiver.deliveries.length >= 6 ? true : undefined));
    const item = returned[0];
    const [payment, refund] = ['pix_out', 'pix_in'].map((c) => receiver.deliveries.find((d) => d.json.payload.identifier === item.identifier && d.json.payload.category === c)?.json.payload);
    expect(payment).toMatchObject({ id: item.pixId, isRefund: false, transactionStatus: 'approved' });
    expect(refund).toMatchObject({ isRefund: true, type: 'input', transactionStatus: 'approved', transactionAccepted: true, reason: item.reason });
    expect(refund.id).not.toBe(payment.id);
    expect(refund.eventId).not.toBe(payment.eventId);
    const report = (await admin(s, 'GET', '/payments')).body;
    expect(report.payments.every((p: any) => p.paid === 1 && p.refunded === 1)).toBe(true);
  });

  it('leaves stale items processing until the item list is queried after the stale delay', async () => {
    const { list, s } = await setUp('stale=1', { speed: 1, staleSeconds: 300 });
    await admin(s, 'POST', '/clock/advance', { seconds: 10 });
    expect((await list()).map((i) => i.status)).toEqual(['processing', 'processing', 'processing']);
    await admin(s, 'POST', '/clock/advance', { seconds: 300 });
    expect((await list()).map((i) => i.status)).toEqual(['paid', 'paid', 'paid']);
  });
});
