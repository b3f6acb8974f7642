import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { runCli } from '../helpers/test-io.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const holders: Server[] = [];
afterEach(async () => {
  await Promise.all(holders.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A port on 127.0.0.1 that something else (a plain TCP server) is listening on. */
async function busyPort(): Promise<number> {
  const port = await freePort();
  const holder = createServer();
  holders.push(holder);
  await new Promise<void>((resolve, reject) => {
    holder.once('error', reject);
    holder.listen(port, '127.0.0.1', resolve);
  });
  return port;
}

/** A user on the default profile (the embedded sandbox, whose daemon runs the webhook receiver). */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const dir = tempDir();
  return { XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), HOME: dir, NO_COLOR: '1', ...extra };
}

describe('paybatch daemon --listen on a port in use', () => {
  it('is a usage error (exit 2) naming --listen and the address, with no stack trace and no talk of a bug', async () => {
    const port = await busyPort();
    const env = userEnv();
    const r = await runCli(['daemon', '--listen', `127.0.0.1:${port}`, '--interval', '1'], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--listen 127.0.0.1:${port}`);
    expect(r.stderr).toContain('the port is already in use (EADDRINUSE)');
    expect(r.stderr).toContain('Pick another --listen address');
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stderr).not.toMatch(/bug|unexpected/i);
    // Said once, clearly: no raw log line of the server's error before it.
    expect(r.stderr).not.toContain('webhook receiver server error');

    // Nothing was left held: the ledger's daemon lock is free for the next daemon.
    const once = await runCli(['daemon', '--once'], { env });
    expect(once.code, once.stderr).toBe(0);
  });

  it('says so in Portuguese for a Portuguese user', async () => {
    const port = await busyPort();
    const r = await runCli(['daemon', '--listen', `127.0.0.1:${port}`], { env: userEnv({ LC_ALL: 'pt_BR.UTF-8' }) });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--listen 127.0.0.1:${port}: o receptor de webhooks não consegue escutar nesse endereço: a porta já está em uso (EADDRINUSE).`);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stderr).not.toMatch(/defeito|bug/i);
  });

  it('with --json, reports a usage error document', async () => {
    const port = await busyPort();
    const r = await runCli(['daemon', '--listen', `127.0.0.1:${port}`, '--json'], { env: userEnv() });
    expect(r.code, r.stderr).toBe(2);
    const doc = JSON.parse(r.stdout) as { ok: boolean; error: { type: string; message: string; exitCode: number; hint?: string } };
    expect(doc).toMatchObject({ ok: false, error: { type: 'usage', exitCode: 2 } });
    expect(doc.error.message).toBe(`--listen 127.0.0.1:${port}: the webhook receiver cannot listen there: the port is already in use (EADDRINUSE).`);
    expect(doc.error.hint).toContain('--listen');
  });
});
