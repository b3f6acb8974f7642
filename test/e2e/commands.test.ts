import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, paybatch, startSandboxProcess, userEnv, type SandboxProcess } from '../helpers/e2e.js';
import { writeSheet } from '../helpers/sheets.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/wait-for.js';

const tempDir = useTempDir();
const sandboxes: SandboxProcess[] = [];
afterEach(async () => {
  for (const s of sandboxes.splice(0)) await s.stop();
});

async function setup(args: string[] = []) {
  const dir = tempDir();
  const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--seed', '9', ...args] });
  sandboxes.push(s);
  return { dir, s, env: userEnv(dir, { ...s.env(), PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts') }) };
}

interface BatchesReport {
  batches: { id: string; status: string; quantityItems: number; items: Record<string, number> }[];
}

// Each test runs the built CLI several times, each a process of its own: on a loaded 2-core machine a run takes
// seconds, so the bound on a test (which only stops a run that went wrong) is generous.
describe('paybatch commands around an import (end to end)', { timeout: 180_000 }, () => {
  it('--dry-run validates and totals without creating anything', async () => {
    const { dir, s, env } = await setup();
    const r = await paybatch(['import', writeSheet(join(dir, 'a.csv'), 40), '--dry-run', '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.outcome).toBe('dry-run');
    expect(doc.summary.totals).toMatchObject({ count: 40, byKeyType: [{ keyType: 'email', count: 40 }] });
    expect((await s.admin<BatchesReport>('batches')).batches).toEqual([]);
    expect(JSON.parse((await paybatch(['batch', 'list', '--json'], { env })).stdout)).toEqual([]);
  });

  it('--skip-invalid imports the valid rows and writes the rejected ones, with reasons, beside the sheet', async () => {
    const { dir, env } = await setup();
    const sheet = join(dir, 'pagamentos-com-erros.csv');
    copyFileSync(join(FIXTURES, 'pagamentos-com-erros.csv'), sheet);
    const r = await paybatch(['import', sheet, '--skip-invalid', '--yes', '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.batch.items).toBe(4);
    expect(doc.rejectedFile).toBe(join(dir, 'pagamentos-com-erros.rejected.csv'));
    const rejected = readFileSync(doc.rejectedFile, 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(rejected[0]).toMatch(/;motivo$/);
    expect(rejected).toHaveLength(1 + 12);
  });

  it('stops a sheet that pays a key the same amount again, unless --allow-duplicates', async () => {
    const { dir, env } = await setup();
    expect((await paybatch(['import', writeSheet(join(dir, 'a.csv'), 5), '--yes'], { env })).exitCode).toBe(0);
    writeFileSync(join(dir, 'b.csv'), 'chave;valor;descricao\npessoa3.a@exemplo.com.br;' + readFileSync(join(dir, 'a.csv'), 'utf8').split('\n')[3]!.split(';')[2] + ';De novo\n');
    const again = await paybatch(['import', join(dir, 'b.csv'), '--yes'], { env });
    expect(again.exitCode).toBe(3);
    expect(again.stderr).toMatch(/b\.csv:2 key: pessoa3\.a@exemplo\.com\.br was sent R\$ [\d.,]+ in batch "a /);
    expect(again.stderr).toContain('--allow-duplicates');
    expect((await paybatch(['import', join(dir, 'b.csv'), '--yes', '--allow-duplicates'], { env })).exitCode).toBe(0);
  });

  it('lists, shows, deletes and starts batches by local or provider id', async () => {
    const { dir, s, env } = await setup(['--speed', '1000']);
    const first = JSON.parse((await paybatch(['import', writeSheet(join(dir, 'a.csv'), 10), '--yes', '--json'], { env })).stdout);
    const second = JSON.parse((await paybatch(['import', writeSheet(join(dir, 'b.csv'), 7, { seed: 'b' }), '--yes', '--json'], { env })).stdout);
    const items = JSON.parse((await paybatch(['batch', 'items', '1', '--json'], { env })).stdout);
    expect(items).toHaveLength(10);
    expect(items.every((i: { status: string; remoteItemId: string }) => i.status === 'submitted' && i.remoteItemId)).toBe(true);

    const deleted = await paybatch(['batch', 'delete', '#1', '--yes', '--json'], { env });
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    expect(JSON.parse(deleted.stdout).batch.status).toBe('deleted');
    const started = await paybatch(['batch', 'start', second.batch.remoteId, '--yes', '--json'], { env });
    expect(started.exitCode, started.stderr).toBe(0);
    expect(JSON.parse(started.stdout).batch.status).toBe('started');
    const remote = (await s.admin<BatchesReport>('batches')).batches;
    expect(remote.map((b) => b.id)).toEqual([second.batch.remoteId]);
    expect(remote.map((b) => b.id)).not.toContain(first.batch.remoteId);

    // Once the provider has settled the started batch's seven items (as its own inspection route shows), not after a
    // moment of the clock: the refreshed show below then reads their outcome.
    const settledAtProvider = (items: Record<string, number> = {}) => (items.paid ?? 0) + (items.failed ?? 0) + (items.returned ?? 0);
    await waitFor(async () => settledAtProvider((await s.admin<BatchesReport>('batches')).batches.find((b) => b.id === second.batch.remoteId)?.items) === 7, {
      what: 'the provider to settle the seven items of the started batch',
    });
    const show = JSON.parse((await paybatch(['batch', 'show', '2', '--refresh', '--json'], { env })).stdout);
    expect(show.progress).toEqual([{ status: 'paid', count: 7, sumCents: second.batch.totalCents }]);
    const list = JSON.parse((await paybatch(['batch', 'list', '--json'], { env })).stdout);
    expect(list.map((b: { id: number; status: string }) => [b.id, b.status])).toEqual([[2, 'settled'], [1, 'deleted']]);

    const out = join(dir, 'out');
    const receipts = await paybatch(['receipts', 'fetch', '--batch', '2', '--out', out, '--json'], { env });
    expect(receipts.exitCode, receipts.stderr).toBe(0);
    const saved: string[] = JSON.parse(receipts.stdout).saved;
    expect(saved).toHaveLength(7);
    expect(readFileSync(saved[0]!).subarray(0, 5).toString()).toBe('%PDF-');
    expect(readdirSync(join(out, readdirSync(out)[0]!))).toHaveLength(7);
  });

  it('looks up keys at the provider, checking them offline first', async () => {
    const { env } = await setup();
    const found = await paybatch(['keys', 'lookup', '529.982.247-25', '--json'], { env });
    expect(found.exitCode, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout)).toMatchObject({ key: '52998224725', type: 'cpf', found: true, destination: { document: '***.982.247-**' } });
    const unknown = await paybatch(['keys', 'lookup', 'nobody@example.com', '--json'], { env });
    expect(unknown.exitCode).toBe(3);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ found: false, destination: null });
    const malformed = await paybatch(['keys', 'lookup', '123.456.789-00'], { env });
    expect(malformed.exitCode).toBe(3);
    expect(malformed.stderr).toContain('check digits');
  });

  it('subscribes the webhook URL with the profile secret, which never shows', async () => {
    const { s, env } = await setup();
    const missing = await paybatch(['webhook', 'subscribe', '--url', 'https://hooks.example.com/webhooks'], { env });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('webhookSecret');
    const r = await paybatch(['webhook', 'subscribe', '--url', 'https://hooks.example.com/webhooks', '--json'], { env: { ...env, PAYBATCH_WEBHOOK_SECRET: 'top-secret-value' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('top-secret-value');
    const { subscriptions } = await s.admin<{ subscriptions: { url: string }[] }>('webhooks');
    expect(subscriptions.map((x) => x.url)).toEqual(['https://hooks.example.com/webhooks']);
    expect(existsSync(join(env.XDG_DATA_HOME!, 'paybatch', 'ledger.db'))).toBe(false);
  });
});
