import { describe, expect, it } from 'vitest';
import { itemFor, sandboxWithClient } from './helpers.js';
import { nthCpf } from './documents.js';

describe('batches', () => {
  it('creates a pending batch with 0 items, type pix and a Unix-seconds timestamp', async () => {
    const { client } = await sandboxWithClient({ startTime: '2025-03-10T12:00:00Z' });
    const created = await client.post('/pix/batch', { name: 'March payroll' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: 'March payroll', status: 'pending', quantityItems: 0, timestamp: expect.any(Number), type: 'pix' });
    expect(Math.abs(created.body.timestamp - Date.parse('2025-03-10T12:00:00Z') / 1000)).toBeLessThan(60);
  });

  it('answers 400 with field paths, 415 for a body that is not JSON, 413 for a body too large', async () => {
    const { client } = await sandboxWithClient();
    const missing = await client.post('/pix/batch', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'invalid_input', details: [{ field: 'name', problem: 'is required' }] });
    expect((await client.post('/pix/batch', { name: 42 })).body.error.details).toEqual([{ field: 'name', problem: 'must be a string' }]);
    expect((await client.post('/pix/batch', '{"name":')).body.error.code).toBe('invalid_json');
    const text = await client.call('POST', '/pix/batch', 'name=x', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe('unsupported_media_type');
    const huge = await client.post('/pix/batch', { name: 'x'.repeat(2 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('payload_too_large');
  });

  it('lists batches in cursor pages across several pages, null cursor on the last', async () => {
    const { client } = await sandboxWithClient({ pageSize: 3 });
    for (let i = 0; i < 8; i++) await client.post('/pix/batch', { name: `b${i}` });
    const first = await client.get('/pix/batch');
    expect(first.body.data).toHaveLength(3);
    expect(first.body.cursor).toEqual(expect.any(String));
    const all = await client.all('/pix/batch', (c) => `/pix/batch/${c}`);
    expect(all.map((b) => b.name)).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7']);
    const bad = await client.get('/pix/batch/not-a-cursor');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('cursor');
  });

  it('deletes a pending batch (202), refuses a processing one (409), 404 for an unknown id', async () => {
    const { client } = await sandboxWithClient();
    const pending = (await client.post('/pix/batch', { name: 'gone' })).body;
    expect((await client.del(`/pix/batch/${pending.id}`)).status).toBe(202);
    expect((await client.get('/pix/batch')).body.data).toEqual([]);
    expect((await client.del(`/pix/batch/${pending.id}`)).status).toBe(404);

    const started = (await client.post('/pix/batch', { name: 'kept' })).body;
    await client.post(`/pix/batch/${started.id}/items`, [await itemFor(client, nthCpf(1), 100, 'id-1')]);
    await client.post(`/pix/batch/${started.id}/start-process`);
    const refused = await client.del(`/pix/batch/${started.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('batch_not_pending');
  });

  it('starts a batch once: a second start answers the same, an empty batch is 422', async () => {
    const { client } = await sandboxWithClient();
    const empty = (await client.post('/pix/batch', { name: 'empty' })).body;
    const refused = await client.post(`/pix/batch/${empty.id}/start-process`);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('batch_empty');

    const batch = (await client.post('/pix/batch', { name: 'go' })).body;
    await client.post(`/pix/batch/${batch.id}/items`, [await itemFor(client, nthCpf(2), 100, 'id-2')]);
    const first = await client.post(`/pix/batch/${batch.id}/start-process`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: 'processing', timestamp: expect.any(Number), id: batch.id, name: 'go' });
    const again = await client.post(`/pix/batch/${batch.id}/start-process`);
    expect(again.body.timestamp).toBe(first.body.timestamp);
    expect((await client.post('/pix/batch/nope/start-process')).status).toBe(404);
  });

  it('answers 404 in the house shape for unknown routes', async () => {
    const { client } = await sandboxWithClient();
    const res = await client.get('/nowhere');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});
