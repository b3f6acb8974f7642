import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors.js';
import { API_KEY, CLIENT_ID, CLIENT_SECRET, DEST, json, rejection, testClient, useFakeProviders, type FakeOptions, type Handler } from './fake-provider.js';

const fake = useFakeProviders();
const setup = (handler: Handler = (_q, res) => json(res, 200, DEST), o: FakeOptions = {}, clientOpts: Parameters<typeof testClient>[1] = {}) =>
  fake.setup(handler, o, clientOpts);

describe('OAuth client credentials token', () => {
  it('asks for a token with HTTP Basic client authentication and the client_credentials grant', async () => {
    const { server, client } = await setup();
    await client.lookupKey('k1');
    expect(server.tokenRequests).toHaveLength(1);
    const t = server.tokenRequests[0]!;
    expect(t.method).toBe('POST');
    expect(t.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(t.body).toBe('grant_type=client_credentials');
    expect(t.headers.authorization).toMatch(/^Basic /);
    expect(Buffer.from(t.headers.authorization!.slice(6), 'base64').toString()).toMatch(new RegExp(`^${CLIENT_ID}:`));
    // Same origin as the API: the API key goes along; a token URL elsewhere would not get it.
    expect(t.headers['service-apikey']).toBe(API_KEY);
  });

  it('does not send the API key to a token endpoint on another origin', async () => {
    const api = await fake.server((_q, res) => json(res, 200, DEST), { checkAuth: false });
    const auth = await fake.server((_q, res) => json(res, 404, {}));
    const { client } = fake.client({ url: api.url, tokenUrl: auth.tokenUrl });
    await client.lookupKey('k');
    expect(auth.tokenRequests[0]!.headers['service-apikey']).toBeUndefined();
    expect(api.seen[0]!.headers.authorization).toBe(`Bearer ${auth.tokens[0]}`);
  });

  it('caches the token across calls until shortly before it expires', async () => {
    let now = 1_000_000;
    const { server, client } = await setup(undefined, { expiresIn: 600 }, { now: () => now });
    await client.lookupKey('a');
    await client.lookupKey('b');
    now += 500_000; // 100 s left: still used
    await client.lookupKey('c');
    expect(server.tokenRequests).toHaveLength(1);
    now += 75_000; // 25 s left, inside the 30 s margin: replaced
    await client.lookupKey('d');
    expect(server.tokenRequests).toHaveLength(2);
    expect(server.seen.map((s) => s.headers.authorization)).toEqual([
      `Bearer ${server.tokens[0]}`,
      `Bearer ${server.tokens[0]}`,
      `Bearer ${server.tokens[0]}`,
      `Bearer ${server.tokens[1]}`,
    ]);
  });

  it('refreshes once for many concurrent callers (single flight)', async () => {
    const { server, client } = await setup();
    await Promise.all(Array.from({ length: 20 }, (_, i) => client.lookupKey(`k${i}`)));
    expect(server.tokenRequests).toHaveLength(1);
    expect(server.seen).toHaveLength(20);
  });

  it('on a 401 refreshes the token once and repeats the call', async () => {
    const { server, client, events } = await setup();
    await client.lookupKey('a');
    server.revoked.add(server.tokens[0]!);
    const d = await client.lookupKey('b');
    expect(d?.name).toBe('Ana Souza');
    expect(server.tokenRequests).toHaveLength(2);
    expect(server.seen.map((s) => s.headers.authorization)).toEqual([`Bearer ${server.tokens[0]}`, `Bearer ${server.tokens[0]}`, `Bearer ${server.tokens[1]}`]);
    expect(events).toContainEqual({ type: 'token', action: 'invalidated' });
  });

  it('concurrent 401s with the same stale token cause one refresh', async () => {
    const { server, client } = await setup();
    await client.lookupKey('warm');
    server.revoked.add(server.tokens[0]!);
    await Promise.all(Array.from({ length: 10 }, (_, i) => client.lookupKey(`k${i}`)));
    expect(server.tokenRequests).toHaveLength(2);
  });

  it('a second 401 fails with a clear message, and a bill payment is not repeated beyond that', async () => {
    const { server, client } = await setup((_q, res) => json(res, 401, { error: { code: 'unauthorized', message: 'bad key' } }));
    const e = await rejection(client.payBoleto('23793381286000000000300000000401184340000012345', 12345));
    expect(e).toBeInstanceOf(ProviderError);
    const pe = e as ProviderError;
    expect(pe.status).toBe(401);
    expect(pe.message).toMatch(/refused the credentials on POST \/cashout\/boleto \(HTTP 401\), even with a new access token/);
    expect(pe.hint).toMatch(/API key and the OAuth client id and secret/);
    expect(pe.outcomeUnknown).toBe(false);
    expect(server.seen).toHaveLength(2);
    expect(server.tokenRequests).toHaveLength(2);
  });

  it('refused client credentials fail without retry, once with each client authentication', async () => {
    const { server, client } = await setup(undefined, { tokenAnswer: () => ({ status: 401, body: { error: 'invalid_client' } }) });
    const e = (await rejection(client.lookupKey('k'))) as ProviderError;
    expect(e).toBeInstanceOf(ProviderError);
    expect(e.status).toBe(401);
    expect(e.code).toBe('invalid_client');
    expect(e.message).toMatch(/token endpoint refused the OAuth client credentials .*both in HTTP Basic and in the form body/);
    expect(server.tokenRequests.map((r) => r.headers.authorization === undefined ? 'body' : 'basic')).toEqual(['basic', 'body']);
    expect(server.seen).toHaveLength(0);
  });

  it('a pinned client authentication is the only one tried', async () => {
    const { server, client } = await setup(undefined, { tokenAnswer: () => ({ status: 401, body: { error: 'invalid_client' } }) }, { dialect: { tokenAuth: 'basic' } });
    await rejection(client.lookupKey('k'));
    expect(server.tokenRequests).toHaveLength(1);
  });

  it('auto: a provider that takes the credentials only in the form body gets them there, and keeps getting them there', async () => {
    // The token endpoint of RFC 6749 client_secret_post: Basic is refused as invalid_client.
    const { server, client } = await setup(undefined, { clientAuth: 'body', expiresIn: 1 });
    expect(await client.lookupKey('k')).not.toBeNull();
    expect(await client.authenticate()).toBe('body');
    expect(client.learnt().tokenAuth).toBe('body');
    const basicTries = server.tokenRequests.filter((r) => r.headers.authorization !== undefined).length;
    expect(basicTries).toBe(1);
  });

  it('pinned to the form body: no Authorization header, id and secret form-encoded in the body', async () => {
    const { server, client } = await setup(undefined, { clientAuth: 'body' }, { dialect: { tokenAuth: 'body' } });
    await client.lookupKey('k');
    const req = server.tokenRequests[0]!;
    expect(req.headers.authorization).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
  });

  it('retries the token endpoint on 503', async () => {
    const { server, client, sleeps } = await setup(undefined, {
      tokenAnswer: (n) => (n === 1 ? { status: 503, body: { error: 'temporarily_unavailable' } } : null),
    });
    expect(await client.lookupKey('k')).not.toBeNull();
    expect(server.tokenRequests).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('a token response without access_token is an error that does not echo the body', async () => {
    const { client } = await setup(undefined, { tokenAnswer: () => ({ status: 200, body: { token: 'weird' } }) });
    const e = (await rejection(client.lookupKey('k'))) as ProviderError;
    expect(e.code).toBe('bad_token_response');
    expect(e.body).toBeUndefined();
  });

  it('a token_type other than Bearer is refused', async () => {
    const { client } = await setup(undefined, { tokenAnswer: () => ({ status: 200, body: { access_token: 'at_SECRETTOKEN_mac', token_type: 'mac' } }) });
    const e = (await rejection(client.lookupKey('k'))) as ProviderError;
    expect(e.message).toMatch(/not Bearer/);
    expect(JSON.stringify(e)).not.toContain('at_SECRETTOKEN_mac');
  });
});
