import { describe, expect, it } from 'vitest';
import { admin, Client, eventually, itemFor, sandbox } from './helpers.js';
import { nthCpf } from './documents.js';

describe('/_sandbox/ inspection routes', () => {
  it('need the admin token', async () => {
    const s = await sandbox();
    expect((await fetch(`${s.url}/_sandbox/clock`)).status).toBe(401);
    const wrong = await fetch(`${s.url}/_sandbox/clock`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('invalid_admin_token');
  });

  it('report every account, or the one whose Service-ApiKey is sent', async () => {
    const s = await sandbox({ apiKeys: ['alpha-key', 'beta-key'], speed: 1000 });
    for (const key of ['alpha-key', 'beta-key']) {
      const client = new Client(s, key);
      const batch = (await client.post('/pix/batch', { name: key })).body;
      await client.post(`/pix/batch/${batch.id}/items`, [await itemFor(client, nthCpf(1), 100, 'same-identifier')]);
      await client.post(`/pix/batch/${batch.id}/start-process`);
    }
    const accounts = (await admin(s, 'GET', '/accounts')).body.accounts;
    expect(accounts.map((a: { apiKeyHint: string }) => a.apiKeyHint)).toEqual(['…-key', '…-key']);
    expect(accounts.every((a: { batches: number; items: number }) => a.batches === 1 && a.items === 1)).toBe(true);
    const all = await eventually(async () => {
      const r = (await admin(s, 'GET', '/payments')).body;
      return r.identifiers === 2 ? r : undefined;
    });
    expect(new Set(all.payments.map((p: { account: string }) => p.account)).size).toBe(2);
    const one = (await admin(s, 'GET', '/payments', undefined, { 'service-apikey': 'alpha-key' })).body;
    expect(one).toMatchObject({ identifiers: 1, paidExactlyOnce: 1, paidMoreThanOnce: [] });
    expect((await admin(s, 'GET', '/batches', undefined, { 'service-apikey': 'beta-key' })).body.batches).toEqual([
      expect.objectContaining({ name: 'beta-key', status: 'completed', quantityItems: 1, items: { paid: 1 } }),
    ]);
  });

  it('show and move the simulated clock', async () => {
    const s = await sandbox({ startTime: '2025-03-08T22:30:00-03:00' });
    expect((await admin(s, 'GET', '/clock')).body).toMatchObject({ saoPaulo: '2025-03-08 22:30', speed: 1 });
    const moved = await admin(s, 'POST', '/clock/advance', { seconds: 36 * 3600 });
    expect(moved.body.saoPaulo).toBe('2025-03-10 10:30');
    expect((await admin(s, 'POST', '/clock/advance', { seconds: -1 })).status).toBe(400);
  });
});
