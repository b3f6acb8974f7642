import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '../../bin/paybatch.js');

beforeAll(() => {
  if (!existsSync(join(import.meta.dirname, '../../dist/cli/main.js'))) throw new Error('build first: npm run build');
});

describe('paybatch sandbox serve --dialect', () => {
  it('serves the spec dialect and says so in the ready JSON', async () => {
    const child = execa('node', [BIN, 'sandbox', 'serve', '--json', '--host', '127.0.0.1', '--port', '0', '--dialect', 'spec'], { reject: false });
    let text = '';
    const ready = await new Promise<{ url: string; tokenUrl: string; apiKey: string; clientId: string; clientSecret: string; dialect: string }>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        try {
          resolve(JSON.parse(text));
        } catch {
          // not complete yet
        }
      });
      void child.then((r) => reject(new Error(`exited before ready: ${r.exitCode} ${r.stderr}`)), reject);
    });
    expect(ready.dialect).toBe('spec');
    const token = await fetch(ready.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: ready.clientId, client_secret: ready.clientSecret }).toString(),
    });
    const { access_token, expires_in } = (await token.json()) as { access_token: string; expires_in: unknown };
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

  it('refuses an unknown dialect with exit code 2, naming --dialect', async () => {
    const result = await execa('node', [BIN, 'sandbox', 'serve', '--dialect', 'nope'], { reject: false });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--dialect');
  });
});
