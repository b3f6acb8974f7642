import { createRequire } from 'node:module';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, paybatch, startSandboxProcess, useProcesses, userEnv } from '../helpers/e2e.js';
import { freePort } from '../helpers/free-port.js';
import { writeSheet } from '../helpers/sheets.js';
import { useTempDir } from '../helpers/temp-dir.js';

/** The Node pinned for development (devDependencies.node): the 24 line, where SQLite drivers built on Node's raw
 *  ObjectWrap abort the process when a statement is collected late. */
const NODE_24 = createRequire(import.meta.url).resolve('node/bin/node');
const ROWS = 1500;
const ABORT = /Assertion failed|Aborted|node::|Segmentation fault/;

describe('a long-running paybatch on Node 24', () => {
  const tempDir = useTempDir();
  const { sandboxes } = useProcesses();

  it('the daemon with its dashboard goes through thousands of statements, then stops on SIGTERM with exit 0 and no native abort', async () => {
    const runtime = await execa(NODE_24, ['--version']);
    expect(runtime.stdout).toMatch(/^v24\./);
    const dir = tempDir();
    const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--speed', '40', '--faults', 'failed=0.05'] });
    sandboxes.push(s);
    const env = userEnv(dir, { ...s.env(), PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts') });
    const imported = await paybatch(['import', writeSheet(join(dir, 'folha.csv'), ROWS), '--start', '--yes', '--json'], { env, timeout: 120_000 });
    expect(imported.exitCode, imported.stderr.slice(-2000)).toBe(0);

    const daemon = execa(NODE_24, [BIN, 'daemon', '--listen', `127.0.0.1:${await freePort()}`, '--interval', '1', '--ui', '--ui-listen', '127.0.0.1:0', '--log-format', 'json'], {
      env,
      extendEnv: false,
      reject: false,
      buffer: false,
    });
    let log = '';
    daemon.stdout!.on('data', (b: Buffer) => (log += b.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        daemon.stderr!.on('data', (b: Buffer) => {
          log += b.toString();
          const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}/.exec(log);
          if (m) resolve(m[0]);
        });
        void daemon.then((r) => reject(new Error(`the daemon exited ${r.exitCode}:\n${log.slice(-3000)}`)));
      });
      const base = new URL(url).origin;
      const signIn = await fetch(url, { redirect: 'manual' }).catch((e: Error) => {
        throw new Error(`${e.message} (${String(e.cause)})\n${log.slice(-3000)}`);
      });
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
      const api = async <T>(path: string): Promise<T> => {
        const res = await fetch(`${base}${path}`, { headers: { cookie } }).catch((e: Error) => {
          throw new Error(`GET ${path}: ${e.message} (${String(e.cause)})\n${log.slice(-3000)}`);
        });
        expect(res.status, path).toBe(200);
        return (await res.json()) as T;
      };
      // The dashboard read over and over while the daemon settles every item and saves its receipts: each round is
      // a dozen queries, filtered and paged differently, besides the daemon's own.
      let rounds = 0;
      for (;;) {
        const { batches } = await api<{ batches: { id: number; settledPercent: string }[] }>('/api/batches');
        const id = batches[0]!.id;
        await api(`/api/batches/${id}`);
        for (const status of ['paid', 'failed']) await api(`/api/batches/${id}/items?status=${status}&offset=${(rounds * 37) % ROWS}&limit=50`);
        await api(`/api/batches/${id}/items?q=pessoa${rounds}`);
        await api(`/api/batches/${id}/calls`);
        await api('/api/alerts?all=1');
        await api('/api/receipts');
        await api('/api/bills');
        await api('/api/approvals');
        rounds++;
        const passes = log.match(/"msg":"pass done"/g)?.length ?? 0;
        if (batches[0]!.settledPercent === '100%' && rounds >= 100 && passes >= 3) break;
        expect(daemon.exitCode, log.slice(-3000)).toBeNull();
      }
    } finally {
      daemon.kill('SIGTERM');
    }
    const ended = await daemon;
    expect(ended.exitCode, log.slice(-3000)).toBe(0);
    expect(ended.signal).toBeUndefined();
    expect(log).not.toMatch(ABORT);

    // Short commands over the same ledger: each process prepares statements and exits, where a statement collected
    // after Node's environment is gone aborts it.
    const commands = [['batch', 'show', '1', '--json'], ['batch', 'items', '1', '--json'], ['ledger', 'check', '--json'], ['alerts', 'list', '--json'], ['receipts', 'list', '--json']];
    for (let round = 0; round < 4; round++) {
      for (const args of commands) {
        const r = await execa(NODE_24, [BIN, ...args], { env, extendEnv: false, reject: false });
        expect(r.signal, `${args.join(' ')}: ${r.stderr.slice(-500)}`).toBeUndefined();
        expect([0, 4], `${args.join(' ')}: ${r.stderr.slice(-500)}`).toContain(r.exitCode);
        expect(r.stderr).not.toMatch(ABORT);
      }
    }
    // The sandbox, a long-running process of its own on the same driver, stops cleanly too.
    await s.stop();
    const sandbox = await s.process;
    expect(sandbox.signal).toBeUndefined();
    expect(sandbox.exitCode).toBe(0);
  }, 240_000);
});
