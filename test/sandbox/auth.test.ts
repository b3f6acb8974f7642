import { describe, expect, it, vi } from 'vitest';
import { Client, sandbox, sandboxWithClient } from './helpers.js';

const form = (o: Record<string, string>) => new URLSearchParams(o).toString();

describe('POST /oauth/token', () => {
  it('issues a token to the client by HTTP Basic or by form fields', async () => {
    const s = await sandbox();
    const basic = await fetch(s.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${s.clientId}:${s.clientSecret}`).toString('base64')}` },
      body: form({ grant_type: 'client_credentials' }),
    });
    expect(basic.status).toBe(200);
    const token = (await basic.json()) as { access_token: string };
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(token.access_token).toEqual(expect.any(String));

    const fields = await fetch(s.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ grant_type: 'client_credentials', client_id: s.clientId, client_secret: s.clientSecret }),
    });
    expect(fields.status).toBe(200);
  });

  it('refuses a wrong secret (401 invalid_client) and other grants (400)', async () => {
    const s = await sandbox();
    const wrong = await fetch(s.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ grant_type: 'client_credentials', client_id: s.clientId, client_secret: 'nope' }),
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_client' });
    const grant = await fetch(s.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ grant_type: 'password', client_id: s.clientId, client_secret: s.clientSecret }),
    });
    expect(grant.status).toBe(400);
    expect(await grant.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });
});

describe('API authentication', () => {
  it('answers 401 for a missing or unknown API key and a missing or forged token', async () => {
    const { sandbox: s, client } = await sandboxWithClient();
    const token = await client.accessToken();
    const call = (headers: Record<string, string>) => fetch(`${s.url}/pix/batch`, { headers });
    const cases: [Record<string, string>, string][] = [
      [{ authorization: `Bearer ${token}` }, 'missing_api_key'],
      [{ 'service-apikey': 'other', authorization: `Bearer ${token}` }, 'invalid_api_key'],
      [{ 'service-apikey': s.apiKey }, 'missing_token'],
      [{ 'service-apikey': s.apiKey, authorization: `Bearer ${token}x` }, 'invalid_token'],
      [{ 'service-apikey': s.apiKey, authorization: 'Bearer sbx1.e30.AAAA' }, 'invalid_token'],
    ];
    for (const [headers, code] of cases) {
      const res = await call(headers);
      expect(res.status, code).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
    }
    expect((await call({ 'service-apikey': s.apiKey, authorization: `Bearer ${token}` })).status).toBe(200);
  });

  it('answers 401 token_expired, with a body saying so, once the token has expired', async () => {
    // Token lifetimes run on the real clock (Date.now): the test moves that clock instead of waiting for a token to age.
    const realNow = Date.now.bind(Date);
    let ahead = 0;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + ahead);
    try {
      const { client } = await sandboxWithClient({ tokenTtlSeconds: 3600 });
      expect((await client.get('/pix/batch')).status).toBe(200);
      ahead = 3600_000 - 60_000; // a minute before the hour is up
      expect((await client.get('/pix/batch')).status).toBe(200);
      ahead = 3600_000 + 1_000; // a second after
      const expired = await client.get('/pix/batch');
      expect(expired.status).toBe(401);
      expect(expired.body.error).toMatchObject({ code: 'token_expired', message: expect.stringContaining('expired') });
      expect(expired.headers.get('www-authenticate')).toContain('invalid_token');
    } finally {
      clock.mockRestore();
    }
  });

  it('keeps accounts apart: another API key sees 404 for every id of the first', async () => {
    const s = await sandbox({ apiKeys: ['key-a', 'key-b'] });
    const a = new Client(s, 'key-a');
    const b = new Client(s, 'key-b');
    const batch = (await a.post('/pix/batch', { name: 'mine' })).body;
    expect((await b.get('/pix/batch')).body.data).toEqual([]);
    expect((await b.del(`/pix/batch/${batch.id}`)).status).toBe(404);
    expect((await b.post(`/pix/batch/${batch.id}/start-process`)).status).toBe(404);
    expect((await b.get(`/pix/batch/${batch.id}/items`)).status).toBe(404);
    expect((await b.post(`/pix/batch/${batch.id}/items`, [])).status).toBe(404);
    expect((await a.get('/pix/batch')).body.data).toHaveLength(1);
  });
});
