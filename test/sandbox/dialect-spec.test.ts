import { afterEach, describe, expect, it } from 'vitest';
import { buildBankBarcode, buildCollectionBarcode, lineOf as line } from '../helpers/boleto.js';
import { SPEC_SECRET_HEADER } from '../../src/sandbox/dialect.js';
import { resolveOptions } from '../../src/sandbox/options.js';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/server.js';
import { admin, Client, eventually, itemFor, Receiver, sandbox } from './helpers.js';
import { nthCpf } from './documents.js';

/**
 * The `spec` dialect: the other ordinary choice wherever the provider's API leaves one open. Every expected value
 * here is written out, not taken from src/sandbox/dialect.ts.
 */

/** Monday 2025-03-10, 10:00 in São Paulo: the bank window is open. */
const MONDAY_10H = '2025-03-10T10:00:00-03:00';
/** Saturday 2025-03-08, 22:30 in São Paulo: closed until Monday 08:00. */
const SATURDAY_NIGHT = '2025-03-08T22:30:00-03:00';
const SECRET = 'spec-dialect-secret';
const SPEC_ITEM_FIELDS = ['amount', 'description', 'identifier', 'itemId', 'status', 'to'];
const REJECTION_SENTENCES = [
  'Conta do recebedor inexistente',
  'Conta do recebedor bloqueada',
  'Conta do recebedor encerrada',
  'Tipo de conta do recebedor incorreto',
  'Transação não permitida para a conta do recebedor',
  'Valor acima do limite da conta do recebedor',
  'Saldo insuficiente na instituição pagadora',
  'Valor incorreto',
  'CPF/CNPJ do recebedor não confere com o titular da conta',
  'Pagamento recusado pelo recebedor',
  'CPF/CNPJ do recebedor incorreto',
  'Instituição do recebedor não opera no SPI',
  'Pagamento recusado por motivo regulatório',
];
const INSTABILITY_SENTENCES = [
  'Devolução por instabilidade no SPI',
  'Devolução por indisponibilidade da instituição do recebedor',
  'Devolução por tempo esgotado na instituição pagadora',
  'Devolução por instabilidade na liquidação',
];

/** A client that gets its token the only way `spec` accepts: client_id and client_secret in the form body. */
class SpecClient extends Client {
  private formToken: string | null = null;

  override async accessToken(): Promise<string> {
    if (this.formToken) return this.formToken;
    const res = await tokenRequest(this.sandbox, { grant_type: 'client_credentials', client_id: this.sandbox.clientId, client_secret: this.sandbox.clientSecret });
    if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
    this.formToken = ((await res.json()) as { access_token: string }).access_token;
    return this.formToken;
  }
}

function tokenRequest(s: RunningSandbox, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(s.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
}

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function setUp(options: SandboxOptions = {}) {
  const s = await sandbox({ dialect: 'spec', ...options });
  const client = new SpecClient(s);
  const receiver = await new Receiver(SECRET).start();
  receivers.push(receiver);
  const subscribed = await client.post('/subscribe/event', { url: receiver.url, secret: SECRET });
  expect(subscribed.status).toBe(200);
  const advance = (seconds: number) => admin(s, 'POST', '/clock/advance', { seconds });
  return { s, client, receiver, advance };
}

/** A started batch of three items, one per CPF. */
async function startBatch(client: Client) {
  const batch = (await client.post('/pix/batch', { name: 'spec' })).body;
  const items = await Promise.all([1, 2, 3].map((n) => itemFor(client, nthCpf(n), 100 * n, `spec-${n}`)));
  const added = await client.post(`/pix/batch/${batch.id}/items`, items);
  expect(added.status).toBe(200);
  const started = await client.post(`/pix/batch/${batch.id}/start-process`);
  expect(started.body.status).toBe('processing');
  const list = async () => (await client.get(`/pix/batch/${batch.id}/items`)).body.data as any[];
  return { batch, added: added.body.data as any[], list };
}

async function allItems(list: () => Promise<any[]>, status: string): Promise<any[]> {
  return eventually(async () => {
    const items = await list();
    return items.every((i) => i.status === status) ? items : undefined;
  }, 10_000, `items ${status}`);
}

const bank = (o: { amountCents?: number; dueDate?: string | null; tail?: string } = {}) =>
  buildBankBarcode({ bankCode: '237', dueDate: o.dueDate === undefined ? '2025-03-20' : o.dueDate, amountCents: o.amountCents ?? 15_990, freeField: `123456789012345678901${o.tail ?? '2345'}` });
const utility = () => buildCollectionBarcode({ segment: 3, valueId: 6, amountCents: 8_745, companyCode: '0048', freeField: '1234567890123456789012345' });

describe('choosing the dialect', () => {
  it('defaults to paybatch, reports the dialect, and refuses an unknown one naming --dialect', async () => {
    expect(resolveOptions({})).toMatchObject({ ok: true, value: { dialect: 'paybatch' } });
    expect(resolveOptions({ dialect: 'spec' })).toMatchObject({ ok: true, value: { dialect: 'spec' } });
    const bad = resolveOptions({ dialect: 'other' as never });
    expect(bad).toMatchObject({ ok: false, error: expect.stringContaining('--dialect') });
    expect((await sandbox()).dialect).toBe('paybatch');
    expect((await sandbox({ dialect: 'spec' })).dialect).toBe('spec');
  });
});

describe('spec: OAuth token endpoint', () => {
  it('accepts client credentials only in the form body, and answers expires_in as text', async () => {
    const s = await sandbox({ dialect: 'spec' });
    const form = await tokenRequest(s, { grant_type: 'client_credentials', client_id: s.clientId, client_secret: s.clientSecret });
    expect(form.status).toBe(200);
    expect(await form.json()).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: '3600' });

    const basic = await tokenRequest(s, { grant_type: 'client_credentials' }, { authorization: `Basic ${Buffer.from(`${s.clientId}:${s.clientSecret}`).toString('base64')}` });
    expect(basic.status).toBe(401);
    expect(await basic.json()).toMatchObject({ error: 'invalid_client' });

    const json = await fetch(s.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: s.clientId, client_secret: s.clientSecret }),
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('spec: answers of the API', () => {
  it('refuses an item paid by account data: its `to` must carry the key of the lookup', async () => {
    const client = new SpecClient(await sandbox({ dialect: 'spec' }));
    const batch = (await client.post('/pix/batch', { name: 'accounts' })).body;
    const to = { accountType: 'checkingAccount', branch: '1234', accountNumber: '123456-7', institution: '237', institutionName: '', document: '12345678909', name: 'Maria Silva' };
    const refused = await client.post(`/pix/batch/${batch.id}/items`, [{ amount: 1050, identifier: 'acc-1', to }]);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ codigo: 'REQUISICAO_INVALIDA', mensagem: 'Requisição inválida: [0].to.key is required; [0].to.type is required' });
    expect((await client.get(`/pix/batch/${batch.id}/items`)).body.data).toEqual([]);
  });

  it('creates with 200, deletes with a bare 202, and answers errors as {codigo, mensagem}', async () => {
    const s = await sandbox({ dialect: 'spec' });
    const client = new SpecClient(s);
    const created = await client.post('/pix/batch', { name: 'two hundred' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.any(String), name: 'two hundred', status: 'pending', quantityItems: 0, timestamp: expect.any(Number), type: 'pix' });

    const subscribed = await client.post('/subscribe/event', { url: 'http://127.0.0.1:9/hooks', secret: 'any password' });
    expect(subscribed.status).toBe(200);
    expect(subscribed.body).toBeNull();

    const invalid = await client.post('/pix/batch', {});
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ codigo: 'REQUISICAO_INVALIDA', mensagem: expect.stringContaining('name') });

    const missing = await client.get('/pix/batch/00000000-0000-0000-0000-000000000000/items');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ codigo: 'NAO_ENCONTRADO', mensagem: expect.any(String) });

    const item = await itemFor(client, nthCpf(1), 100, 'del-1');
    const added = (await client.post(`/pix/batch/${created.body.id}/items`, [item])).body.data[0];
    const deletedItem = await client.del(`/pix/batch/${created.body.id}/items/${added.itemId}`);
    expect(deletedItem).toMatchObject({ status: 202, body: null });
    const deletedBatch = await client.del(`/pix/batch/${created.body.id}`);
    expect(deletedBatch).toMatchObject({ status: 202, body: null });

    const unauthenticated = await fetch(`${s.url}/pix/batch`, { headers: { 'service-apikey': s.apiKey } });
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toEqual({ codigo: 'TOKEN_AUSENTE', mensagem: expect.any(String) });

    const unknown = await fetch(`${s.url}/no/such/route`);
    expect(unknown.status).toBe(403);
    expect(await unknown.json()).toEqual({ message: 'Missing Authentication Token' });
  });

  it('answers business conflicts with 400 and a codigo', async () => {
    const s = await sandbox({ dialect: 'spec', speed: 1000 });
    const client = new SpecClient(s);
    const { batch, added } = await startBatch(client);
    const late = await client.post(`/pix/batch/${batch.id}/items`, [await itemFor(client, nthCpf(4), 100, 'late-1')]);
    expect(late.status).toBe(400);
    expect(late.body).toEqual({ codigo: 'LOTE_NAO_PENDENTE', mensagem: expect.any(String) });
    const other = (await client.post('/pix/batch', { name: 'other' })).body;
    const reused = await client.post(`/pix/batch/${other.id}/items`, [{ ...(await itemFor(client, nthCpf(1), 999, added[0].identifier)) }]);
    expect(reused.status).toBe(400);
    expect(reused.body.codigo).toBe('IDENTIFICADOR_DUPLICADO');
  });
});

describe('spec: Pix batches', () => {
  it('words items waiting → processing → approved with only the documented fields, and the done batch finished', async () => {
    const { client, receiver, advance } = await setUp({ speed: 1, startTime: MONDAY_10H });
    const { batch, added, list } = await startBatch(client);
    expect(added.map((i) => i.status)).toEqual(['waiting', 'waiting', 'waiting']);
    for (const item of added) expect(Object.keys(item).sort()).toEqual(SPEC_ITEM_FIELDS);
    expect((await list()).map((i) => i.status)).toEqual(['processing', 'processing', 'processing']);

    await advance(10);
    const approved = await allItems(list, 'approved');
    for (const item of approved) expect(Object.keys(item).sort()).toEqual(SPEC_ITEM_FIELDS);
    expect((await client.get('/pix/batch')).body.data[0]).toMatchObject({ id: batch.id, status: 'finished' });
    expect((await client.post(`/pix/batch/${batch.id}/start-process`)).body.status).toBe('finished');

    await eventually(() => (receiver.deliveries.length === 3 ? true : undefined));
    for (const d of receiver.deliveries) {
      expect(d.headers[SPEC_SECRET_HEADER]).toBe(SECRET);
      expect(d.headers['webhook-id']).toBeUndefined();
      expect(d.headers['webhook-timestamp']).toBeUndefined();
      expect(d.headers['webhook-signature']).toBeUndefined();
    }
    for (const item of approved) {
      const event = receiver.deliveries.find((d) => d.json.payload.identifier === item.identifier)?.json;
      expect(event).toMatchObject({
        serviceId: expect.any(Number),
        payload: { amount: item.amount, transactionStatus: 'approved', transactionAccepted: true, isRefund: false, type: 'output', category: 'pix_out', reason: null, to: item.to },
      });
      expect(event.payload).not.toHaveProperty('itemId');
      expect(event.payload).not.toHaveProperty('batchId');
      // The Pix id comes only from the event, and it opens the receipt.
      const receipt = await client.get(`/pix/${event.payload.id}/receipt`);
      expect(receipt.status).toBe(200);
      expect(receipt.body.name).toBe('receipt.pdf');
    }
  });

  it('words failed items rejected, with a sentence for the reason', async () => {
    const { client, receiver } = await setUp({ speed: 1000, faults: 'failed=1' });
    const { list } = await startBatch(client);
    const rejected = await allItems(list, 'rejected');
    for (const item of rejected) expect(item).not.toHaveProperty('reason');
    await eventually(() => (receiver.deliveries.length === 3 ? true : undefined));
    for (const d of receiver.deliveries) {
      expect(d.json.payload).toMatchObject({ transactionStatus: 'rejected', transactionAccepted: false, isRefund: false });
      expect(REJECTION_SENTENCES).toContain(d.json.payload.reason);
    }
  });

  it('words instability returns refunded, with a refund event whose reason is a sentence, not a code', async () => {
    const { client, receiver } = await setUp({ speed: 1000, faults: 'instabilityReturn=1' });
    const { list } = await startBatch(client);
    const refunded = await allItems(list, 'refunded');
    await eventually(() => (receiver.deliveries.length === 6 ? true : undefined));
    for (const item of refunded) {
      const events = receiver.deliveries.filter((d) => d.json.payload.identifier === item.identifier).map((d) => d.json.payload);
      const payment = events.find((e) => !e.isRefund);
      const refund = events.find((e) => e.isRefund);
      expect(payment).toMatchObject({ transactionStatus: 'approved', reason: null });
      expect(refund).toMatchObject({ isRefund: true, transactionStatus: 'approved', amount: item.amount });
      expect(INSTABILITY_SENTENCES).toContain(refund.reason);
      expect(refund.reason).not.toMatch(/^[A-Z]{2}\d\d/);
      expect(refund.id).not.toBe(payment.id);
    }
  });
});

describe('spec: bills', () => {
  it('answers details only by GET (POST is a 403 of the gateway), with zone-less ISO dates and amounts as text', async () => {
    const { client } = await setUp({ startTime: MONDAY_10H });
    const code = line(bank());
    const byGet = await client.get(`/cashout/boleto/details/${code}`);
    expect(byGet.status).toBe(200);
    expect(byGet.body).toEqual({
      assignor: 'Banco Bradesco S.A.', settledate: '2025-03-10T00:00:00', discount: expect.stringMatching(/^\d+\.\d\d$/),
      maxValue: byGet.body.amount, minValue: byGet.body.amount, beneficiary: expect.stringMatching(/ Ltda$/), canChangeAmount: false,
      amount: expect.stringMatching(/^\d+\.\d\d$/), interest: '0.00', originalAmount: '159.90', typefulLine: code,
      beneficiaryDocument: expect.stringMatching(/^\d\d\.\d{3}\.\d{3}\/0001-\d\d$/), dueDate: '2025-03-20T00:00:00',
    });
    const byPost = await client.post(`/cashout/boleto/details/${code}`);
    expect(byPost.status).toBe(403);
    expect(byPost.body).toEqual({ message: 'Missing Authentication Token' });
  });

  it('pays with zone-less ISO dates and text amounts, refuses paying again with 400 BOLETO_PAGO, and tells it in its own words', async () => {
    const { client, receiver } = await setUp({ startTime: MONDAY_10H });
    const code = bank({ dueDate: null });
    const paid = await client.post('/cashout/boleto', { amount: '159.90', code });
    expect(paid.status).toBe(200);
    expect(paid.body).toEqual({
      status: 'paid', settleDate: '2025-03-10T00:00:00', timestamp: expect.stringMatching(/^2025-03-10T10:0\d:\d\d$/), amountPaid: '159.90',
      dueDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT00:00:00$/), assignor: 'Banco Bradesco S.A.', payer: expect.any(String), payerDocument: expect.any(String),
      beneficiary: expect.any(String), amount: '159.90', details: { BlocoCompleto: code, convenant: '237' }, typefulLine: line(code),
      transactionId: expect.any(String), beneficiaryDocument: expect.any(String),
    });
    const again = await client.post('/cashout/boleto', { amount: 159.9, code });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ codigo: 'BOLETO_PAGO', mensagem: 'Boleto já pago' });

    const event = await eventually(() => receiver.deliveries[0]?.json);
    expect(receiver.deliveries[0]?.headers[SPEC_SECRET_HEADER]).toBe(SECRET);
    expect(event).toEqual({
      serviceId: expect.any(String), eventId: expect.any(String), type: 'boleto', category: 'pagamento_confirmado',
      timestamp: expect.stringMatching(/^2025-03-10T10:0\d:\d\d$/), title: 'Boleto pago', subtitle: expect.stringContaining('R$ 159,90'),
      detail: { idTransacao: paid.body.transactionId, linhaDigitavel: line(code), valor: '159.90', dataPagamento: '2025-03-10T00:00:00' },
      deviceType: expect.any(String),
    });
  });

  it('tells a payment scheduled outside the window at once (pagamento_agendado), then confirms it when paid', async () => {
    const { client, receiver, advance } = await setUp({ startTime: SATURDAY_NIGHT });
    const result = await client.post('/cashout/boleto', { amount: '87.45', code: utility() });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ status: 'pending', settleDate: '2025-03-10T00:00:00', amountPaid: '87.45' });
    const scheduled = await eventually(() => receiver.deliveries[0]?.json);
    expect(scheduled).toMatchObject({
      type: 'boleto', category: 'pagamento_agendado', title: 'Pagamento agendado',
      detail: { idTransacao: result.body.transactionId, valor: '87.45' },
    });
    await advance(2 * 86_400);
    const confirmed = await eventually(() => receiver.deliveries.find((d) => d.json.category === 'pagamento_confirmado')?.json);
    expect(confirmed.detail).toEqual({ idTransacao: result.body.transactionId, linhaDigitavel: line(utility()), valor: '87.45', dataPagamento: '2025-03-10T00:00:00' });
  });

  it('tells a return as pagamento_devolvido with the received reason under detail.motivo', async () => {
    const { client, receiver, advance } = await setUp({ startTime: MONDAY_10H });
    const code = bank({ tail: '7719' });
    const { amount } = (await client.get(`/cashout/boleto/details/${code}`)).body;
    const paid = (await client.post('/cashout/boleto', { amount, code })).body;
    await advance(26 * 3600);
    const returned = await eventually(() => receiver.deliveries.find((d) => d.json.category === 'pagamento_devolvido')?.json);
    expect(returned).toMatchObject({
      type: 'boleto', title: 'Pagamento devolvido',
      detail: { idTransacao: paid.transactionId, linhaDigitavel: line(code), valor: amount, motivo: 'Already paid' },
    });
    expect(returned.detail).not.toHaveProperty('reason');
  });
});
