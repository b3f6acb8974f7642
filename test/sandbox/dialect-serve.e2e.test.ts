import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { BIN } from '../helpers/e2e.js';
import { requireBuild, serveSandbox } from './serve-process.js';
import { nthCpf } from './documents.js';

beforeAll(requireBuild);

interface Ready {
  url: string;
  tokenUrl: string;
  apiKey: string;
  clientId: string;
  clientSecret: string;
  dialect: string;
  faults: string;
}

const serve = (args: readonly string[]) => serveSandbox<Ready>(args);

async function formToken(ready: Ready): Promise<{ access_token: string; expires_in: unknown }> {
  const token = await fetch(ready.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: ready.clientId, client_secret: ready.clientSecret }).toString(),
  });
  return (await token.json()) as { access_token: string; expires_in: unknown };
}

describe('paybatch sandbox serve --dialect', () => {
  it('serves the spec dialect and says so in the ready JSON', async () => {
    const { child, ready } = await serve(['--dialect', 'spec']);
    expect(ready.dialect).toBe('spec');
    const { access_token, expires_in } = await formToken(ready);
    expect(expires_in).toBe('3600');
    const created = await fetch(`${ready.url}/pix/batch`, {
      method: 'POST',
      headers: { 'service-apikey': ready.apiKey, authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'spec' }),
    });
    expect(created.status).toBe(200);
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(0);
  });

  it('serves the iso dialect with its default faults, 20-second tokens and amounts in decimal reais', async () => {
    // Seed 7 draws no fault for the first API requests (the default 429 rate is low, not zero).
    const { child, ready } = await serve(['--dialect', 'iso', '--seed', '7']);
    expect(ready.dialect).toBe('iso');
    expect(ready.faults).toBe('r429=0.02,dupWebhook=0.05,reorderWebhook=0.05,lostWebhook=0.02');
    const { access_token, expires_in } = await formToken(ready);
    expect(expires_in).toBe('20');
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${ready.url}${path}`, {
        method,
        headers: { 'service-apikey': ready.apiKey, authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const created = await call('POST', '/pix/batch', { name: 'iso' });
    expect(created).toMatchObject({ status: 201, body: { status: 'PENDING' } });
    const to = (await call('GET', `/pix/keys/${nthCpf(1)}`)).body;
    const added = await call('POST', `/pix/batch/${created.body.id}/items`, [{ amount: '110.07', identifier: 'iso-e2e-1', description: 'e2e', to }]);
    expect(added).toMatchObject({ status: 200, body: { data: [{ amount: '110.07', status: 'PROCESSING', pixId: null }] } });
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(0);
  });

  it('refuses an unknown dialect with exit code 2, naming --dialect', async () => {
    const result = await execa('node', [BIN, 'sandbox', 'serve', '--dialect', 'nope'], { reject: false });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--dialect');
  });
});
