import { describe, expect, it } from 'vitest';
import { itemFor, sandboxWithClient } from './helpers.js';
import { nthCpf } from './documents.js';

describe('batch items', () => {
  it('adds items as waiting and counts them in quantityItems', async () => {
    const { client } = await sandboxWithClient();
    const batch = (await client.post('/pix/batch', { name: 'b' })).body;
    const item = await itemFor(client, nthCpf(1), 1050, 'f3a8f1de-0001');
    const added = await client.post(`/pix/batch/${batch.id}/items`, [item, await itemFor(client, 'ana@example.com', 99, 'f3a8f1de-0002')]);
    expect(added.status).toBe(200);
    expect(added.body.data).toHaveLength(2);
    expect(added.body.data[0]).toMatchObject({ itemId: expect.any(String), status: 'waiting', description: item.description, to: item.to, amount: 1050, identifier: 'f3a8f1de-0001' });
    expect((await client.get('/pix/batch')).body.data[0].quantityItems).toBe(2);
  });

  it('rejects the whole request with field paths when any element is invalid (400)', async () => {
    const { client } = await sandboxWithClient();
    const batch = (await client.post('/pix/batch', { name: 'b' })).body;
    const good = await itemFor(client, nthCpf(1), 100, 'good-1');
    const res = await client.post(`/pix/batch/${batch.id}/items`, [
      good,
      { ...good, identifier: 'x', amount: 10.5 },
      { ...good, identifier: 'has space', to: { ...good.to, key: '123.456.789-00', type: 'cpf' } },
      { amount: 1, identifier: 'y', to: { key: 'a@b.co' } },
      'nope',
    ]);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { field: '[1].amount', problem: 'must be a positive integer number of centavos' },
      { field: '[2].identifier', problem: expect.stringContaining('letters, digits') },
      { field: '[2].to.key', problem: expect.stringContaining('check digits') },
      { field: '[3].to.type', problem: 'is required' },
      { field: '[4]', problem: 'must be an object' },
    ]);
    expect((await client.get(`/pix/batch/${batch.id}/items`)).body.data).toEqual([]);
    expect((await client.post(`/pix/batch/${batch.id}/items`, { not: 'an array' })).status).toBe(400);
  });

  it('answers 422 for broken rules (amount limit, unknown key) and 413 for too many items', async () => {
    const { client } = await sandboxWithClient();
    const batch = (await client.post('/pix/batch', { name: 'b' })).body;
    const good = await itemFor(client, nthCpf(1), 100, 'good-1');
    const res = await client.post(`/pix/batch/${batch.id}/items`, [
      { ...good, amount: 100_000_001 },
      { ...good, identifier: 'good-2', to: { ...good.to, key: 'nobody@example.com', type: 'email' } },
    ]);
    expect(res.status).toBe(422);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['[0].amount', '[1].to.key']);
    const many = Array.from({ length: 1001 }, (_, i) => ({ ...good, identifier: `many-${i}` }));
    expect((await client.post(`/pix/batch/${batch.id}/items`, many)).status).toBe(413);
  });

  it('treats the identifier as the idempotency key: same item back, or 409 when amount or destination differ', async () => {
    const { client } = await sandboxWithClient();
    const one = (await client.post('/pix/batch', { name: 'one' })).body;
    const two = (await client.post('/pix/batch', { name: 'two' })).body;
    const item = await itemFor(client, nthCpf(1), 500, 'idem-1');
    const first = (await client.post(`/pix/batch/${one.id}/items`, [item])).body.data[0];
    const again = await client.post(`/pix/batch/${one.id}/items`, [item, item]);
    expect(again.body.data.map((i: { itemId: string }) => i.itemId)).toEqual([first.itemId, first.itemId]);
    expect((await client.post(`/pix/batch/${two.id}/items`, [item])).body.data[0].itemId).toBe(first.itemId);
    expect((await client.get('/pix/batch')).body.data.map((b: { quantityItems: number }) => b.quantityItems)).toEqual([1, 0]);

    const otherAmount = await client.post(`/pix/batch/${one.id}/items`, [{ ...item, amount: 501 }]);
    expect(otherAmount.status).toBe(409);
    expect(otherAmount.body.error).toMatchObject({ code: 'identifier_conflict', details: [{ field: '[0].identifier' }] });
    const otherKey = await itemFor(client, nthCpf(2), 500, 'idem-1');
    expect((await client.post(`/pix/batch/${one.id}/items`, [otherKey])).status).toBe(409);
    const inRequest = await client.post(`/pix/batch/${one.id}/items`, [{ ...item, identifier: 'idem-2' }, { ...item, identifier: 'idem-2', amount: 7 }]);
    expect(inRequest.status).toBe(409);
    expect((await client.get(`/pix/batch/${one.id}/items`)).body.data).toHaveLength(1);
  });

  it('deletes items only while pending (202, then 409), 404 for unknown ones', async () => {
    const { client } = await sandboxWithClient();
    const batch = (await client.post('/pix/batch', { name: 'b' })).body;
    const [a, b] = (await client.post(`/pix/batch/${batch.id}/items`, [await itemFor(client, nthCpf(1), 100, 'd-1'), await itemFor(client, nthCpf(2), 100, 'd-2')])).body.data;
    expect((await client.del(`/pix/batch/${batch.id}/items/${a.itemId}`)).status).toBe(202);
    expect((await client.del(`/pix/batch/${batch.id}/items/${a.itemId}`)).status).toBe(404);
    expect((await client.get('/pix/batch')).body.data[0].quantityItems).toBe(1);
    await client.post(`/pix/batch/${batch.id}/start-process`);
    expect((await client.del(`/pix/batch/${batch.id}/items/${b.itemId}`)).status).toBe(409);
    const late = await client.post(`/pix/batch/${batch.id}/items`, [await itemFor(client, nthCpf(3), 100, 'd-3')]);
    expect(late.status).toBe(409);
  });

  it('lists items in cursor pages across several pages', async () => {
    const { client } = await sandboxWithClient({ pageSize: 4 });
    const batch = (await client.post('/pix/batch', { name: 'b' })).body;
    const template = await itemFor(client, nthCpf(1), 100, 'p-0');
    const items = Array.from({ length: 10 }, (_, i) => ({ ...template, identifier: `p-${i}` }));
    await client.post(`/pix/batch/${batch.id}/items`, items);
    const pages: number[] = [];
    let page = await client.get(`/pix/batch/${batch.id}/items`);
    const seen: string[] = [];
    for (;;) {
      pages.push(page.body.data.length);
      seen.push(...page.body.data.map((i: { identifier: string }) => i.identifier));
      if (page.body.cursor === null) break;
      page = await client.get(`/pix/batch/${batch.id}/items/${page.body.cursor}`);
    }
    expect(pages).toEqual([4, 4, 2]);
    expect(seen).toEqual(items.map((i) => i.identifier));
    const other = (await client.post('/pix/batch', { name: 'other' })).body;
    const cursor = (await client.get(`/pix/batch/${batch.id}/items`)).body.cursor;
    expect((await client.get(`/pix/batch/${other.id}/items/${cursor}`)).status).toBe(400);
  });
});
