import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors.js';
import { dialectOf, DEFAULT_DIALECT } from '../../src/provider/dialect.js';
import { isAlreadyPaid } from '../../src/provider/error-meaning.js';
import { DEST, json, testClient, useFakeProviders, type Handler } from './fake-provider.js';

const fake = useFakeProviders();
const setup = (handler: Handler, clientOpts: Parameters<typeof testClient>[1] = {}) => fake.setup(handler, {}, clientOpts);

const item = (extra: Record<string, unknown>) => ({ itemId: 'i1', description: 'd', amount: 1050, identifier: 'id-1', to: DEST, ...extra });
async function readItems(extra: Record<string, unknown>[], clientOpts: Parameters<typeof testClient>[1] = {}) {
  const { client } = await setup((_q, res) => json(res, 200, { cursor: null, data: extra.map(item) }), clientOpts);
  const out = [];
  for await (const page of client.items('b1')) out.push(...page);
  return out;
}

describe('item status words under the default dialect', () => {
  it.each([
    ['approved', 'paid'],
    ['LIQUIDATED', 'paid'],
    ['REALIZADO', 'paid'],
    ['rejected', 'failed'],
    ['NAO_REALIZADO', 'failed'],
    ['refunded', 'returned'],
    ['DEVOLVIDO', 'returned'],
    ['EM_PROCESSAMENTO', 'processing'],
    ['waiting', 'submitted'],
  ])('%s is read as %s, and the word is kept as sent', async (word, state) => {
    const [it] = await readItems([{ status: word }]);
    expect(it).toMatchObject({ status: word, state });
  });

  it('a word nobody knows is kept with no state (reported, never guessed)', async () => {
    const [it] = await readItems([{ status: 'limbo' }]);
    expect(it).toMatchObject({ status: 'limbo', state: null });
  });

  it('the profile maps words of its own, and they win over the table', async () => {
    const dialect = dialectOf({ statusWords: 'limbo=processing,approved=processing' });
    const items = await readItems([{ status: 'limbo' }, { status: 'approved', identifier: 'id-2' }], { dialect });
    expect(items.map((i) => i.state)).toEqual(['processing', 'processing']);
  });
});

describe('where an item carries its Pix id', () => {
  it.each([
    ['pixId', { pixId: 'P1' }],
    ['pix_id', { pix_id: 'P1' }],
    ['idPix', { idPix: 'P1' }],
    ['pixTransactionId', { pixTransactionId: 'P1' }],
  ])('found under %s by default', async (_label, extra) => {
    const [it] = await readItems([{ status: 'approved', ...extra }]);
    expect(it?.pixId).toBe('P1');
  });

  it('never taken by default from transactionId or the item\'s own id, which are other ids', async () => {
    const [it] = await readItems([{ status: 'approved', transactionId: 'T', transaction_id: 'T2', id: 'ITEM' }]);
    expect(it?.pixId).toBeUndefined();
    const [pinned] = await readItems([{ status: 'approved', transactionId: 'T' }], { dialect: dialectOf({ pixIdFields: 'transactionId' }) });
    expect(pinned?.pixId).toBe('T');
  });

  it('the first field of the list wins', async () => {
    const [it] = await readItems([{ status: 'approved', idPix: 'I', pixId: 'P' }]);
    expect(it?.pixId).toBe('P');
  });

  it('a field named in pixIdFields, and only those', async () => {
    const [it] = await readItems([{ status: 'approved', e2e: 'E1', pixId: 'P' }], { dialect: dialectOf({ pixIdFields: 'e2e' }) });
    expect(it?.pixId).toBe('E1');
  });

  it('no id at all: none is invented', async () => {
    const [it] = await readItems([{ status: 'approved' }]);
    expect(it?.pixId).toBeUndefined();
  });
});

describe('bill payment amount form', () => {
  it('a quoted amount when the profile says string', async () => {
    const { client, server } = await setup((_q, res) => json(res, 200, { status: 'paid', transactionId: 't' }), { dialect: { billAmountForm: 'string' } });
    await client.payBoleto('836200000005', 12345);
    expect(server.seen[0]!.body).toBe('{"amount":"123.45","code":"836200000005"}');
  });

  it('a JSON number with two decimals by default', async () => {
    const { client, server } = await setup((_q, res) => json(res, 200, { status: 'paid', transactionId: 't' }));
    await client.payBoleto('836200000005', 12340);
    expect(server.seen[0]!.body).toBe('{"amount":123.40,"code":"836200000005"}');
  });
});

describe('"already paid" answers', () => {
  const pe = (status: number, message: string, code: string | null = null) => new ProviderError(message, { status, method: 'POST', path: '/cashout/boleto', code });
  it.each([
    [409, 'conflict', null, true],
    [400, 'POST /cashout/boleto failed with HTTP 400 (BOLETO_PAGO: Boleto já pago)', 'BOLETO_PAGO', true],
    [400, 'Este título já foi liquidado', null, true],
    [422, 'bill already paid', null, true],
    [400, 'The bill has already been paid on 2026-11-20', null, true],
    [400, 'Pagamento duplicado', null, true],
    [400, 'invalid amount', null, false],
    [400, 'amount must be paid in full', null, false],
    [500, 'already paid', null, false],
    [403, 'Boleto já pago', null, false],
  ])('HTTP %i "%s" → %s', (status, message, code, expected) => {
    expect(isAlreadyPaid(pe(status, message, code))).toBe(expected);
  });
});

describe('dialectOf', () => {
  it('is the lenient default when nothing is set', () => {
    expect(dialectOf({})).toEqual(DEFAULT_DIALECT);
  });
});

describe("where an item carries a failure's reason", () => {
  it.each([
    ['a reason text', { reason: 'AC03 - invalid account' }, {}, 'AC03 - invalid account'],
    ['an ISO code in errorCode with its text in errorMessage', { errorCode: 'AB03', errorMessage: 'Settlement interrupted' }, {}, 'AB03 - Settlement interrupted'],
    ['a code in reasonCode alone', { reasonCode: 'AB11' }, {}, 'AB11'],
    ['fields the profile names', { cod: 'AM04', msg: 'Saldo insuficiente', reason: 'ignored' }, { dialect: { ...dialectOf({ reasonCodeFields: 'cod', reasonMessageFields: 'msg' }), pixAmountUnit: 'cents' as const } }, 'AM04 - Saldo insuficiente'],
  ])('found in %s', async (_label, extra, opts, reason) => {
    const [it] = await readItems([{ status: 'CANCELED', ...extra }], opts);
    expect(it?.reason).toBe(reason);
  });

  it('none when no field holds one', async () => {
    const [it] = await readItems([{ status: 'CANCELED' }]);
    expect(it?.reason).toBeUndefined();
  });
});
