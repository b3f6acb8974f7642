import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { BIN } from '../helpers/e2e.js';
import { requireBuild, serveSandbox } from './serve-process.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { admin, Client, tempDir } from './helpers.js';

beforeAll(requireBuild);

const serve = (args: readonly string[]) => serveSandbox<RunningSandbox & { speed: number }>(args);

describe('paybatch sandbox serve', () => {
  it('prints the ready JSON, serves the API, stops cleanly on SIGINT and keeps its state for the next run', async () => {
    const state = join(tempDir(), 'state.db');
    const first = await serve(['--state', state, '--api-key', 'k1', '--client-id', 'me', '--client-secret', 'my-secret', '--speed', '50']);
    expect(first.ready).toMatchObject({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), tokenUrl: `${first.ready.url}/oauth/token`, apiKey: 'k1', clientId: 'me',
      clientSecret: 'my-secret', adminToken: expect.any(String), speed: 50,
    });
    const client = new Client(first.ready);
    expect((await client.post('/pix/batch', { name: 'kept' })).status).toBe(201);
    first.child.kill('SIGINT');
    const done = await first.child;
    expect(done.exitCode).toBe(0);
    expect(done.stderr).toContain('SIGINT');

    const second = await serve(['--state', state, '--api-key', 'k1', '--client-id', 'me', '--client-secret', 'my-secret']);
    expect(second.ready.adminToken).toBe(first.ready.adminToken);
    expect((await new Client(second.ready).get('/pix/batch')).body.data.map((b: { name: string }) => b.name)).toEqual(['kept']);
    expect((await admin(second.ready, 'GET', '/clock')).status).toBe(200);
    second.child.kill('SIGTERM');
    expect((await second.child).exitCode).toBe(0);
  });

  it('refuses bad flags with exit code 2', async () => {
    const result = await execa('node', [BIN, 'sandbox', 'serve', '--faults', 'http5xx=2'], { reject: false });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--faults');
  });
});
