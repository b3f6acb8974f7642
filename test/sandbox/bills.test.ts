import { afterEach, describe, expect, it } from 'vitest';
import { addBusinessDays } from '../../src/domain/bank-calendar.js';
import { buildBankBarcode, buildCollectionBarcode, lineOf as line } from '../helpers/boleto.js';
import { BILL_RETURN_REASONS } from '../../src/domain/reasons.js';
import { admin, Client, eventually, Receiver, sandbox } from './helpers.js';

/** Monday 2025-03-10, 10:00 in São Paulo: the bank window is open. */
const MONDAY_10H = '2025-03-10T10:00:00-03:00';
/** Saturday 2025-03-08, 22:30 in São Paulo: closed until Monday 08:00. */
const SATURDAY_NIGHT = '2025-03-08T22:30:00-03:00';

const bank = (o: { amountCents?: number; dueDate?: string | null; tail?: string } = {}) =>
  buildBankBarcode({ bankCode: '237', dueDate: o.dueDate === undefined ? '2025-03-20' : o.dueDate, amountCents: o.amountCents ?? 15_990, freeField: `123456789012345678901${o.tail ?? '2345'}` });
const utility = (o: { amountCents?: number; valueId?: 6 | 7 | 8 | 9; tail?: string } = {}) =>
  buildCollectionBarcode({ segment: 3, valueId: o.valueId ?? 6, amountCents: o.amountCents ?? 8_745, companyCode: '0048', freeField: `123456789012345678901${o.tail ?? '2345'}` });

/** Pays a bill the amount its details ask for. */
async function pay(client: Client, code: string) {
  const { amount } = (await client.get(`/cashout/boleto/details/${code}`)).body;
  const res = await client.post('/cashout/boleto', { amount, code });
  if (res.status !== 200) throw new Error(`pay: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function setUp(startTime = MONDAY_10H, faults = '') {
  const s = await sandbox({ startTime, faults });
  const client = new Client(s);
  const receiver = await new Receiver('bill-webhook-secret').start();
  receivers.push(receiver);
  await client.post('/subscribe/event', { url: receiver.url, secret: receiver.secret });
  const advance = (seconds: number) => admin(s, 'POST', '/clock/advance', { seconds });
  return { s, client, receiver, advance };
}

describe('bill details (endpoint 12)', () => {
  it('answers by POST and by GET with the registry data of a bank slip', async () => {
    const { client } = await setUp();
    const code = line(bank());
    const byPost = await client.post(`/cashout/boleto/details/${code}`);
    const byGet = await client.get(`/cashout/boleto/details/${bank()}`);
    expect(byPost.status).toBe(200);
    expect(byGet.body).toEqual(byPost.body);
    expect(byPost.body).toEqual({
      assignor: 'Banco Bradesco S.A.', settledate: '2025-03-10', discount: expect.any(Number), maxValue: expect.any(Number), minValue: expect.any(Number),
      beneficiary: expect.stringMatching(/ Ltda$/), canChangeAmount: false, amount: expect.any(Number), interest: 0, originalAmount: 159.9,
      typefulLine: code, beneficiaryDocument: expect.stringMatching(/^\d\d\.\d{3}\.\d{3}\/0001-\d\d$/), dueDate: '2025-03-20',
    });
    const d = byPost.body;
    expect(d.amount).toBeCloseTo(d.originalAmount - d.discount, 2);
    expect(d.minValue).toBe(d.amount);
    expect(d.maxValue).toBe(d.amount);
  });

  it('lets the payer choose the amount of zero-amount and reference-value slips; charges interest after the due date', async () => {
    const { client } = await setUp();
    const zero = (await client.get(`/cashout/boleto/details/${bank({ amountCents: 0 })}`)).body;
    expect(zero).toMatchObject({ canChangeAmount: true, minValue: 0.01, maxValue: 1_000_000, amount: 0 });
    const reference = (await client.get(`/cashout/boleto/details/${utility({ valueId: 7 })}`)).body;
    expect(reference).toMatchObject({ canChangeAmount: true, assignor: 'Companhia de Energia 0048' });
    const late = (await client.get(`/cashout/boleto/details/${bank({ dueDate: '2025-02-28', amountCents: 100_000 })}`)).body;
    expect(late).toMatchObject({ originalAmount: 1000, discount: 0, interest: 23.33, amount: 1023.33 });
  });

  it('answers 400 for an invalid code and 404 for a bill the registry does not know (barcode ending 0404)', async () => {
    const { client } = await setUp();
    const wrong = line(bank()).replace(/^(\d{9})\d/, '$10');
    const invalid = await client.get(`/cashout/boleto/details/${wrong === line(bank()) ? '123' : wrong}`);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details[0]).toMatchObject({ field: 'number', problem: expect.stringContaining('check digit') });
    expect((await client.get(`/cashout/boleto/details/${bank({ tail: '0404' })}`)).status).toBe(404);
  });
});

describe('bill payment (endpoint 13)', () => {
  it('pays inside the window (paid), accepts a quoted amount, and refuses paying the same bill again (409)', async () => {
    const { client, receiver } = await setUp();
    const code = bank({ dueDate: null, amountCents: 15_990 });
    const paid = await client.post('/cashout/boleto', { amount: '159.90', code });
    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({
      status: 'paid', settleDate: '2025-03-10', timestamp: expect.stringMatching(/^\d+$/), amountPaid: 159.9, dueDate: expect.any(String),
      assignor: 'Banco Bradesco S.A.', payer: expect.stringContaining('Empresa Sandbox'), payerDocument: expect.any(String), beneficiary: expect.any(String),
      amount: 159.9, details: { BlocoCompleto: code, convenant: '237' }, typefulLine: line(code), transactionId: expect.any(String), beneficiaryDocument: expect.any(String),
    });
    const again = await client.post('/cashout/boleto', { amount: 159.9, code: line(code) });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('bill_already_paid');
    await eventually(() => (receiver.deliveries.length === 1 ? true : undefined));
    expect(receiver.deliveries[0]?.json).toMatchObject({ type: 'bill_payment', category: 'bill_paid', detail: { transactionId: paid.body.transactionId, amount: 159.9 } });
  });

  it('enforces the amount rules: 400 for a malformed amount, 422 for a different or out-of-range one', async () => {
    const { client } = await setUp();
    const fixed = utility({ amountCents: 8_745 });
    expect((await client.post('/cashout/boleto', { amount: 'abc', code: fixed })).body.error.details).toEqual([{ field: 'amount', problem: expect.any(String) }]);
    expect((await client.post('/cashout/boleto', { amount: 1.234, code: fixed })).status).toBe(400);
    expect((await client.post('/cashout/boleto', { amount: 10 })).body.error.details).toEqual([{ field: 'code', problem: 'is required' }]);
    const mismatch = await client.post('/cashout/boleto', { amount: 87.44, code: fixed });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error.code).toBe('amount_mismatch');
    const range = await client.post('/cashout/boleto', { amount: 1_000_000.01, code: bank({ amountCents: 0 }) });
    expect(range.status).toBe(422);
    expect(range.body.error.code).toBe('amount_out_of_range');
    expect((await client.post('/cashout/boleto', { amount: 87.45, code: fixed })).body.status).toBe('paid');
  });

  it('schedules a payment outside the window for the next one and pays it when the window opens', async () => {
    const { client, receiver, advance, s } = await setUp(SATURDAY_NIGHT);
    const result = await client.post('/cashout/boleto', { amount: 87.45, code: utility() });
    expect(result.body).toMatchObject({ status: 'scheduled', settleDate: '2025-03-10' });
    expect((await admin(s, 'GET', '/bills')).body.bills[0]).toMatchObject({ status: 'scheduled' });
    await advance(2 * 86_400);
    await eventually(() => (receiver.deliveries.length === 1 ? true : undefined));
    expect(receiver.deliveries[0]?.json).toMatchObject({ category: 'bill_paid', detail: { settleDate: '2025-03-10' } });
    expect((await admin(s, 'GET', '/bills')).body.bills[0]).toMatchObject({ status: 'paid' });
  });
});

describe('bill returns', () => {
  it('returns bills whose barcode ends in 77NN with row NN of SPEC.md, one business day later', async () => {
    const { client, receiver, advance, s } = await setUp();
    const paid: any[] = [];
    for (let n = 1; n <= BILL_RETURN_REASONS.length; n++) {
      const code = bank({ tail: `77${String(n).padStart(2, '0')}` });
      paid.push(await pay(client, code));
    }
    await advance(20 * 3600);
    await eventually(() => (receiver.deliveries.filter((d) => d.json.category === 'bill_paid').length === 21 ? true : undefined));
    expect(receiver.deliveries.filter((d) => d.json.category === 'bill_return')).toEqual([]);
    await advance(6 * 3600);
    const returns = await eventually(() => {
      const r = receiver.deliveries.filter((d) => d.json.category === 'bill_return');
      return r.length === 21 ? r : undefined;
    });
    for (const [i, reason] of BILL_RETURN_REASONS.entries()) {
      const event = returns.find((d) => d.json.detail.transactionId === paid[i].transactionId)?.json;
      expect(event).toEqual({
        serviceId: expect.any(String), eventId: expect.any(String), type: 'bill_payment', category: 'bill_return', timestamp: expect.stringMatching(/^\d+$/),
        title: expect.any(String), subtitle: expect.any(String), deviceType: 'api',
        detail: { transactionId: paid[i].transactionId, typefulLine: paid[i].typefulLine, amount: paid[i].amountPaid, reason: reason.received },
      });
    }
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    const bills = (await admin(s, 'GET', '/bills')).body.bills;
    expect(bills.every((b: { status: string }) => b.status === 'returned')).toBe(true);
    expect((await pay(client, bank({ tail: '7701' }))).status).toBe('paid');
  });

  it('returns a paid bill through the admin route with a chosen reason, after a delay', async () => {
    const { client, receiver, advance, s } = await setUp();
    const { transactionId } = await pay(client, bank());
    expect((await admin(s, 'POST', '/bills/nope/return', { reason: 'Already paid' })).status).toBe(404);
    expect((await admin(s, 'POST', `/bills/${transactionId}/return`, { reason: 'not a reason' })).status).toBe(400);
    const scheduled = await admin(s, 'POST', `/bills/${transactionId}/return`, { reason: 'h6 - other reasons for withholding', afterSeconds: 600 });
    expect(scheduled.status).toBe(202);
    expect(scheduled.body.reason).toBe('H6 - other reasons for withholding');
    await advance(601);
    const event = await eventually(() => receiver.deliveries.find((d) => d.json.category === 'bill_return')?.json);
    expect(event.detail).toMatchObject({ transactionId, reason: 'H6 - other reasons for withholding' });
    expect((await admin(s, 'POST', `/bills/${transactionId}/return`, { reason: 'Already paid' })).status).toBe(409);
  });

  it('billReturn returns paid bills within 5 business days', async () => {
    const { client, advance, s } = await setUp(MONDAY_10H, 'billReturn=1');
    for (let i = 0; i < 5; i++) await pay(client, bank({ tail: `${1000 + i}` }));
    await advance(9 * 86_400);
    const bills = (await admin(s, 'GET', '/bills')).body.bills;
    const limit = Date.parse(`${addBusinessDays('2025-03-10', 5)}T23:59:59-03:00`);
    for (const bill of bills) {
      expect(bill.status).toBe('returned');
      expect(BILL_RETURN_REASONS.map((r) => r.received)).toContain(bill.returnReason);
      expect(Date.parse(bill.returnedAt)).toBeLessThanOrEqual(limit);
    }
  });
});
