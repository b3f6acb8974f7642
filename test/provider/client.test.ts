import { describe, expect, it } from 'vitest';
import { ConfigError, ProviderError } from '../../src/errors.js';
import { mayBeWrongMethod } from '../../src/provider/error-meaning.js';
import type { NewItem } from '../../src/provider/types.js';
import { API_KEY, collect, DEST, json, miniProvider, rejection, testClient, useFakeProviders, type Handler } from './fake-provider.js';

const fake = useFakeProviders();
const setup = (handler: Handler, clientOpts: Parameters<typeof testClient>[1] = {}) => fake.setup(handler, {}, clientOpts);

const item = (n: number, amountCents: number): NewItem => ({ amountCents, identifier: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, description: `row ${n}`, to: DEST });

describe('headers and paths', () => {
  it('sends Service-ApiKey and the bearer token on every call, Content-Type on calls with a body', async () => {
    const mini = miniProvider();
    const { server, client } = await setup(mini.handler);
    const { batch } = await client.ensureBatch('payroll [pb:1]');
    await client.addItems(batch.id, [item(1, 1000)]);
    await collect(client.items(batch.id));
    await client.startBatch(batch.id);
    expect(server.seen.length).toBeGreaterThanOrEqual(5);
    for (const s of server.seen) {
      expect(s.headers['service-apikey']).toBe(API_KEY);
      expect(s.headers.authorization).toBe(`Bearer ${server.tokens[0]}`);
      expect(s.headers.accept).toBe('application/json');
      if (s.body) expect(s.headers['content-type']).toBe('application/json');
      else expect(s.headers['content-type']).toBeUndefined();
    }
  });

  it('percent-encodes each path segment (Pix keys hold @ and +) and keeps a base path prefix', async () => {
    const server = await fake.server((_q, res) => json(res, 200, DEST));
    const { client } = fake.client({ url: `${server.url}/api/v2/`, tokenUrl: server.tokenUrl });
    await client.lookupKey('ana+pix@example.com');
    await client.lookupKey('a/b?c#d');
    expect(server.seen.map((s) => s.url)).toEqual(['/api/v2/pix/keys/ana%2Bpix%40example.com', '/api/v2/pix/keys/a%2Fb%3Fc%23d']);
  });
});

describe('key lookup', () => {
  it('returns the destination, null on 404, and a ProviderError on 400 without retry', async () => {
    const { server, client } = await setup((q, res) => {
      if (q.url.endsWith('/unknown')) return json(res, 404, { error: { code: 'not_found', message: 'key not found' } });
      if (q.url.endsWith('/bad')) return json(res, 400, { error: { code: 'invalid_key', message: 'malformed key', details: [{ field: 'key', problem: 'not a key' }] } });
      return json(res, 200, DEST);
    });
    expect(await client.lookupKey('ana+pix@example.com')).toEqual(DEST);
    expect(await client.lookupKey('unknown')).toBeNull();
    const e = (await rejection(client.lookupKey('bad'))) as ProviderError;
    expect(e).toBeInstanceOf(ProviderError);
    expect(e.status).toBe(400);
    expect(e.code).toBe('invalid_key');
    expect(e.message).toBe('GET /pix/keys/bad failed with HTTP 400 (invalid_key: malformed key) [key: not a key]');
    expect(server.seen).toHaveLength(3);
  });

  it('fills fields a provider leaves out with empty text', async () => {
    const { client } = await setup((_q, res) => json(res, 200, { name: 'Bia', key: '+5511999990000', document: null, extra: 1 }));
    const d = await client.lookupKey('+5511999990000');
    expect(d).toEqual({ accountType: '', branch: '', key: '+5511999990000', accountNumber: '', institutionName: '', document: '', type: '', institution: '', name: 'Bia' });
  });
});

describe('batches and items', () => {
  it('ensureBatch creates once, then finds the same batch by exact name', async () => {
    const mini = miniProvider();
    const { client, server } = await setup(mini.handler);
    const first = await client.ensureBatch('March [pb:7]');
    expect(first.created).toBe(true);
    await client.createBatch('March [pb:70]');
    await client.createBatch('other');
    const again = await client.ensureBatch('March [pb:7]');
    expect(again).toEqual({ batch: first.batch, created: false });
    expect(server.seen.filter((s) => s.method === 'POST')).toHaveLength(3);
  });

  it('findBatchByName returns the oldest of duplicates and warns', async () => {
    const mini = miniProvider();
    const { client, events } = await setup(mini.handler);
    const a = await client.createBatch('dup');
    await client.createBatch('x');
    await client.createBatch('dup');
    expect((await client.findBatchByName('dup'))?.id).toBe(a.id);
    expect(events.some((e) => e.type === 'warning' && /2 remote batches share one name/.test(e.message))).toBe(true);
    expect(await client.findBatchByName('none')).toBeNull();
  });

  it('walks every page of batches and of items, following cursors in the path', async () => {
    const mini = miniProvider(2);
    const { client, server } = await setup(mini.handler);
    for (const n of ['a', 'b', 'c', 'd', 'e']) await client.createBatch(n);
    const pages = await collect(client.batches());
    expect(pages.map((p) => p.map((b) => b.name))).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    const gets = server.seen.filter((s) => s.method === 'GET').map((s) => s.url);
    expect(gets).toEqual(['/pix/batch', '/pix/batch/c2', '/pix/batch/c4']);

    const b = mini.state.batches[0]!;
    await client.addItems(b.id, [item(1, 100), item(2, 200), item(3, 300)]);
    const itemPages = await collect(client.items(b.id));
    expect(itemPages.map((p) => p.map((i) => i.amountCents))).toEqual([[100, 200], [300]]);
    expect(server.seen.at(-1)!.url).toBe(`/pix/batch/${b.id}/items/c2`);
  });

  it('stops a listing whose cursor repeats', async () => {
    const { client } = await setup((_q, res) => json(res, 200, { cursor: 'same', data: [] }));
    const e = (await rejection(collect(client.batches()))) as ProviderError;
    expect(e.code).toBe('cursor_loop');
  });

  it('sends no Pix amount and starts no batch while the unit is unset, naming the setting; pages are still read', async () => {
    const mini = miniProvider();
    const { client, server } = await setup(mini.handler, { pixAmountUnit: undefined });
    const b = await client.createBatch('x');
    const calls = server.seen.length;
    for (const attempt of [() => client.addItems(b.id, [item(1, 1050)]), () => client.startBatch(b.id)]) {
      const e = (await rejection(attempt())) as ConfigError;
      expect(e).toBeInstanceOf(ConfigError);
      expect(e.message).toMatch(/unit of this provider's Pix amounts is not set/);
      expect(e.hint).toMatch(/paybatch config set pixAmountUnit cents \(or reais\), or PAYBATCH_PIX_AMOUNT_UNIT/);
    }
    expect(server.seen.length, 'nothing was sent').toBe(calls);
    const pages: unknown[] = [];
    for await (const page of client.items(b.id)) pages.push(...page);
    expect(pages).toEqual([]);
  });

  it('sends amounts in centavos with pixAmountUnit "cents" and converts them back', async () => {
    const mini = miniProvider();
    const { client, server } = await setup(mini.handler);
    const b = await client.createBatch('x');
    const added = await client.addItems(b.id, [item(1, 1050)]);
    expect(JSON.parse(server.seen.at(-1)!.body)).toEqual([{ amount: 1050, identifier: item(1, 0).identifier, description: 'row 1', to: DEST }]);
    expect(added).toEqual([{ itemId: expect.any(String), status: 'waiting', state: 'submitted', description: 'row 1', amountCents: 1050, identifier: item(1, 0).identifier, to: DEST }]);
  });

  it('sends amounts in reais with pixAmountUnit "reais"', async () => {
    const mini = miniProvider();
    const { client, server } = await setup(mini.handler, { pixAmountUnit: 'reais' });
    const b = await client.createBatch('x');
    const added = await client.addItems(b.id, [item(1, 1050), item(2, 7)]);
    expect((JSON.parse(server.seen.at(-1)!.body) as { amount: number }[]).map((x) => x.amount)).toEqual([10.5, 0.07]);
    expect(added.map((i) => i.amountCents)).toEqual([1050, 7]);
  });

  it('refuses an echo whose amount differs from what was sent (a unit mismatch)', async () => {
    const { client } = await setup((q, res) => {
      const sent = JSON.parse(q.body) as { amount: number }[];
      // A provider that reads the amount as reais and echoes it in centavos.
      json(res, 200, { data: sent.map((x, i) => ({ ...x, amount: x.amount * 100, itemId: `i${i}`, status: 'waiting' })) });
    });
    const e = (await rejection(client.addItems('b1', [item(1, 1050)]))) as ProviderError;
    expect(e.code).toBe('amount_mismatch');
    expect(e.hint).toMatch(/Do not start this batch/);
  });

  it('refuses a fractional centavo amount from the provider in cents mode', async () => {
    const { client } = await setup((_q, res) => json(res, 200, { cursor: null, data: [{ itemId: 'i', status: 'paid', amount: 10.5, identifier: 'x', to: DEST, description: '' }] }));
    const e = (await rejection(collect(client.items('b')))) as ProviderError;
    expect(e.code).toBe('malformed_response');
    expect(e.message).toMatch(/data\[0\]\.amount: amount 10.5 is not a whole number of centavos/);
  });

  it('keeps the optional extras of items', async () => {
    const { client } = await setup((_q, res) =>
      json(res, 200, { cursor: null, data: [{ itemId: 'i', status: 'paid', amount: 10, identifier: 'x', to: DEST, description: 'd', pixId: 'p1', endToEndId: 'E1', reason: null, updatedAt: '2025-01-01T00:00:00Z' }] }),
    );
    const [[it1]] = (await collect(client.items('b'))) as [[import('../../src/provider/types.js').Item]];
    expect(it1).toMatchObject({ pixId: 'p1', endToEndId: 'E1', updatedAt: '2025-01-01T00:00:00Z' });
    expect('reason' in it1).toBe(false);
  });

  it('refuses bad items before sending anything', async () => {
    const { client, server } = await setup((_q, res) => json(res, 500, {}));
    await expect(client.addItems('b', [item(1, 0)])).rejects.toThrow(RangeError);
    await expect(client.addItems('b', [item(1, 10.5)])).rejects.toThrow(RangeError);
    await expect(client.addItems('b', [item(1, 10), item(1, 20)])).rejects.toThrow(/twice/);
    expect(await client.addItems('b', [])).toEqual([]);
    expect(server.seen).toHaveLength(0);
  });

  it('starts a batch and deletes items and batches (202)', async () => {
    const mini = miniProvider();
    const { client } = await setup(mini.handler);
    const b = await client.createBatch('x');
    const [it1] = await client.addItems(b.id, [item(1, 100), item(2, 200)]);
    await client.deleteItem(b.id, it1!.itemId);
    expect(mini.state.items.get(b.id)).toHaveLength(1);
    const e = (await rejection(client.deleteItem(b.id, 'nope'))) as ProviderError;
    expect(e.status).toBe(404);
    expect(await client.startBatch(b.id)).toEqual({ status: 'processing', timestamp: 1_700_000_100, id: b.id, name: 'x' });
    const b2 = await client.createBatch('y');
    await client.deleteBatch(b2.id);
    expect(mini.state.batches.map((x) => x.id)).toEqual([b.id]);
  });
});

describe('receipts', () => {
  it('decodes the base64 PDF', async () => {
    const pdf = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n%%EOF\n', 'latin1');
    const { client, server } = await setup((_q, res) => json(res, 200, { base64: pdf.toString('base64'), name: 'receipt.pdf', description: 'Pix receipt' }));
    const r = await client.receipt('pix/1');
    expect(r.pdf.equals(pdf)).toBe(true);
    expect(r.name).toBe('receipt.pdf');
    expect(r.description).toBe('Pix receipt');
    expect(server.seen[0]!.url).toBe('/pix/pix%2F1/receipt');
  });

  it('refuses something that is not a PDF', async () => {
    const { client } = await setup((_q, res) => json(res, 200, { base64: Buffer.from('<html>oops</html>').toString('base64'), name: 'r.pdf', description: '' }));
    const e = (await rejection(client.receipt('p'))) as ProviderError;
    expect(e.code).toBe('not_a_pdf');
    expect(e.outcomeUnknown).toBe(false);
  });
});

const LINE = '23793381286000000000300000000401184340000012345';
const DETAILS = {
  assignor: 'Banco', settledate: '2025-03-10', discount: 0, maxValue: 123.45, minValue: 123.45, beneficiary: 'Luz SA',
  canChangeAmount: false, amount: 123.45, interest: 0, originalAmount: 123.45, typefulLine: LINE, beneficiaryDocument: '12.345.678/0001-90', dueDate: '2025-03-20',
};

describe('bill details', () => {
  it('uses POST and converts reais to centavos', async () => {
    const { client, server } = await setup((_q, res) => json(res, 200, DETAILS));
    const d = await client.boletoDetails(LINE);
    expect(server.seen[0]).toMatchObject({ method: 'POST', url: `/cashout/boleto/details/${LINE}` });
    expect(d).toMatchObject({ amountCents: 12345, maxValueCents: 12345, discountCents: 0, settleDate: '2025-03-10', canChangeAmount: false });
  });

  it.each([
    ['405', 405, {}],
    ['an API gateway 403', 403, { message: 'Missing Authentication Token' }],
    ['a framework 404', 404, { message: `Route POST:/cashout/boleto/details/${LINE} not found`, error: 'Not Found', statusCode: 404 }],
    ['an empty 404', 404, undefined],
    ['a route_not_found code', 404, { error: { code: 'route_not_found', message: 'no route' } }],
    ['a 501', 501, undefined],
  ])('falls back to GET after %s, and remembers GET', async (_label, status, body) => {
    const { client, server } = await setup((q, res) => (q.method === 'POST' ? json(res, status, body) : json(res, 200, DETAILS)));
    expect((await client.boletoDetails(LINE)).amountCents).toBe(12345);
    expect((await client.boletoDetails(LINE)).amountCents).toBe(12345);
    expect(server.seen.map((s) => s.method)).toEqual(['POST', 'GET', 'GET']);
  });

  it('a gateway error page on POST (502, HTML) is followed by GET', async () => {
    const { client, server } = await setup((q, res) => {
      if (q.method === 'GET') return json(res, 200, DETAILS);
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad Gateway</body></html>');
    });
    expect((await client.boletoDetails(LINE)).amountCents).toBe(12345);
    expect(server.seen.map((s) => s.method)).toEqual(expect.arrayContaining(['GET']));
  });

  it.each([
    ['400', 400, { error: { code: 'invalid_code', message: 'bad line' } }],
    ['422', 422, { message: 'invalid line' }],
  ])('a %s refuses the code itself: no GET', async (_label, status, body) => {
    const { client, server } = await setup((_q, res) => json(res, status, body));
    const e = (await rejection(client.boletoDetails(LINE))) as ProviderError;
    expect(e.status).toBe(status);
    expect(server.seen.map((s) => s.method)).toEqual(['POST']);
  });

  it('an unknown bill (404 on both methods) is reported with the provider’s own error', async () => {
    const { client, server } = await setup((_q, res) => json(res, 404, { error: { code: 'not_found', message: 'bill not found' } }));
    const e = (await rejection(client.boletoDetails(LINE))) as ProviderError;
    expect(e.status).toBe(404);
    expect(e.code).toBe('not_found');
    expect(server.seen.map((s) => s.method)).toEqual(['POST', 'GET']);
  });

  it('a POST-only provider: when GET is not served either, the POST error is reported', async () => {
    const { client } = await setup((q, res) => (q.method === 'POST' ? json(res, 403, { message: 'forbidden' }) : json(res, 405, {})));
    const e = (await rejection(client.boletoDetails(LINE))) as ProviderError;
    expect(e.status).toBe(403);
  });

  it('a pinned method is the only one used', async () => {
    const { client, server } = await setup((_q, res) => json(res, 200, DETAILS), { dialect: { billDetailsMethod: 'GET' } });
    await client.boletoDetails(LINE);
    expect(server.seen.map((s) => s.method)).toEqual(['GET']);
  });

  it.each([
    ['no fine field (SPEC.md)', {}, null],
    ['fine', { fine: 9.2 }, 920],
    ['fine_amount (a bill query beside discount_amount and interest_amount)', { fine_amount: 9.2 }, 920],
    ['fineValue', { fineValue: '9.20' }, 920],
    ['multa', { multa: 0 }, 0],
  ])('reads the fine from %s', async (_label, extra, fineCents) => {
    const { client } = await setup((_q, res) => json(res, 200, { ...DETAILS, originalAmount: 114.25, amount: 123.45, interest: 0, discount: 0, ...extra }));
    const d = await client.boletoDetails(LINE);
    expect([d.originalAmountCents, d.discountCents, d.interestCents, d.fineCents]).toEqual([11425, 0, 0, fineCents]);
  });

  it.each([
    ['ISO date-time', '2026-12-03T00:00:00', '2026-12-03'],
    ['DD/MM/YYYY', '03/12/2026', '2026-12-03'],
    ['Unix seconds', '1796266800', '2026-12-03'],
  ])('reads dates written as %s', async (_label, wire, expected) => {
    const { client } = await setup((_q, res) => json(res, 200, { ...DETAILS, dueDate: wire, settledate: wire }));
    const d = await client.boletoDetails(LINE);
    expect(d.dueDate).toBe(expected);
    expect(d.settleDate).toBe(expected);
  });

  it('mayBeWrongMethod decides by status and body', () => {
    const pe = (status: number, body: unknown = null) => new ProviderError('x', { status, method: 'POST', path: '/', code: null, body });
    expect(mayBeWrongMethod(pe(405))).toBe(true);
    expect(mayBeWrongMethod(pe(403))).toBe(true);
    expect(mayBeWrongMethod(pe(404))).toBe(true);
    expect(mayBeWrongMethod(pe(400))).toBe(false);
    expect(mayBeWrongMethod(pe(401))).toBe(false);
    expect(mayBeWrongMethod(pe(422))).toBe(false);
    expect(mayBeWrongMethod(pe(502, '<html>Bad Gateway</html>'))).toBe(true);
    expect(mayBeWrongMethod(pe(500, { error: { code: 'internal' } }))).toBe(false);
  });
});

describe('bill payment and subscription', () => {
  it('sends the amount in reais with two decimals and the code', async () => {
    const result = { status: 'paid', settleDate: '2025-03-10', timestamp: '1741600000', amountPaid: 1234.5, dueDate: '2025-03-20', assignor: 'Banco', payer: 'ACME', payerDocument: '1', beneficiary: 'Luz SA', amount: '1234.50', details: { BlocoCompleto: 'x', convenant: 'y' }, typefulLine: LINE, transactionId: 't1', beneficiaryDocument: '2' };
    const { client, server } = await setup((_q, res) => json(res, 200, result));
    const p = await client.payBoleto(LINE, 123450);
    expect(server.seen[0]!.body).toBe(`{"amount":1234.50,"code":"${LINE}"}`);
    expect(JSON.parse(server.seen[0]!.body)).toEqual({ amount: 1234.5, code: LINE });
    expect(p).toMatchObject({ status: 'paid', amountPaidCents: 123450, amountCents: 123450, transactionId: 't1', details: { BlocoCompleto: 'x', convenant: 'y' } });
  });

  it('pays no bill while billAmountUnit is unset, naming the setting, and sends nothing', async () => {
    const { client, server } = await setup((_q, res) => json(res, 200, { status: 'paid', transactionId: 't' }), { billAmountUnit: undefined });
    const e = (await rejection(client.payBoleto(LINE, 15990))) as ConfigError;
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.message).toMatch(/unit of this provider's bill amounts is not set/);
    expect(e.hint).toMatch(/paybatch config set billAmountUnit reais \(or cents\), or PAYBATCH_BILL_AMOUNT_UNIT/);
    expect(server.seen).toEqual([]);
  });

  it("reads no bill's details while billAmountUnit is unset: a bare 15990 is no guess, and nothing is asked", async () => {
    const { client, server } = await setup((_q, res) => json(res, 200, { amount: 15990, dueDate: '2025-03-20' }), { billAmountUnit: undefined });
    const e = (await rejection(client.boletoDetails(LINE))) as ConfigError;
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.hint).toMatch(/paybatch config set billAmountUnit reais \(or cents\)/);
    expect(server.seen).toEqual([]);
  });

  it('with billAmountUnit "cents": whole centavos out, and numbers read back as centavos (decimal text stays reais)', async () => {
    const result = { status: 'paid', transactionId: 't2', amountPaid: 15990, amount: '159.90' };
    const { client, server } = await setup((_q, res) => json(res, 200, result), { billAmountUnit: 'cents' });
    const p = await client.payBoleto(LINE, 15990);
    expect(server.seen[0]!.body).toBe(`{"amount":15990,"code":"${LINE}"}`);
    expect(p).toMatchObject({ amountPaidCents: 15990, amountCents: 15990 });
  });

  it('a 2xx answer that cannot be read leaves the outcome unknown', async () => {
    const { client } = await setup((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('OK');
    });
    const e = (await rejection(client.payBoleto(LINE, 100))) as ProviderError;
    expect(e.code).toBe('malformed_response');
    expect(e.outcomeUnknown).toBe(true);
    expect(e.body).toBe('OK');
  });

  it('subscribes with url and secret and returns whatever JSON comes back', async () => {
    const { client, server } = await setup((_q, res) => json(res, 201, { id: 'sub1' }));
    expect(await client.subscribe('https://hooks.example.com/pb', 'whsec_SECRETHOOK_1')).toEqual({ id: 'sub1' });
    expect(JSON.parse(server.seen[0]!.body)).toEqual({ url: 'https://hooks.example.com/pb', secret: 'whsec_SECRETHOOK_1' });
  });
});

describe('configuration', () => {
  it('refuses URLs with credentials, bad units and empty secrets, naming no secret', () => {
    const base = { baseUrl: 'https://api.example.com', tokenUrl: 'https://api.example.com/token', apiKey: API_KEY, clientId: 'id', clientSecret: 'cs_123456' };
    expect(() => testClient({ url: 'https://user:pw@api.example.com', tokenUrl: base.tokenUrl })).toThrow(/must not carry credentials/);
    expect(() => testClient({ url: 'ftp://x', tokenUrl: base.tokenUrl })).toThrow(/https:\/\//);
    expect(() => testClient({ url: base.baseUrl, tokenUrl: base.tokenUrl }, { apiKey: '' })).toThrow(/API key is empty/);
    expect(() => testClient({ url: base.baseUrl, tokenUrl: base.tokenUrl }, { pixAmountUnit: 'euros' as never })).toThrow(/pixAmountUnit/);
  });

  it('fails calls after close', async () => {
    const { client } = await setup((_q, res) => json(res, 200, DEST));
    await client.close();
    const e = (await rejection(client.lookupKey('k'))) as ProviderError;
    expect(e.code).toBe('client_closed');
  });
});
