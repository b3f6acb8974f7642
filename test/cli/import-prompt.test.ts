import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Prompter } from '../../src/cli/prompter.js';
import { runCli } from '../helpers/test-io.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const sheet = fileURLToPath(new URL('../../fixtures/payments-en.csv', import.meta.url));

/**
 * What the embedded sandbox (the provider of the default profile) holds, read from its state file beside the ledger:
 * every batch with its item count.
 */
function providerBatches(dir: string): { name: string; status: string; items: number }[] {
  const file = join(dir, 'd', 'paybatch', 'ledger.sandbox-state.db');
  expect(existsSync(file), 'the embedded sandbox ran and kept its state').toBe(true);
  const db = new Sqlite(file, { readonly: true });
  try {
    return db
      .prepare('SELECT b.name, b.status, (SELECT count(*) FROM items i WHERE i.batch_id = b.id) AS items FROM batches b ORDER BY b.seq')
      .all() as { name: string; status: string; items: number }[];
  } finally {
    db.close();
  }
}

/** Answers confirmations as told and records the questions. */
function scripted(answer: boolean): Prompter & { asked: string[] } {
  const asked: string[] = [];
  const no = () => Promise.reject(new Error('not expected'));
  return { asked, confirm: async (m) => (asked.push(m), answer), input: no, password: no, select: no };
}

describe('paybatch import on a terminal', () => {
  it('says the sandbox notice and the cancellation in Portuguese for a Brazilian user', async () => {
    const dir = tempDir();
    const env = { XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), HOME: dir, LC_ALL: 'pt_BR.UTF-8' };
    const r = await runCli(['import', sheet], { tty: true, env, prompter: scripted(false) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/SANDBOX: nenhum provedor está configurado, então o sandbox embutido em http:\/\/127\.0\.0\.1:\d+ é usado; nenhum dinheiro de verdade se move\./);
    expect(r.stderr).toContain('Cancelado; nada foi alterado.');
    const json = await runCli(['import', sheet, '--json'], { tty: true, env, prompter: scripted(false) });
    expect(JSON.parse(json.stdout).error).toMatchObject({ type: 'cancelled', message: 'Cancelled; nothing was changed.' });
  });

  it('asks before creating anything; "no" leaves the ledger and the provider untouched', async () => {
    const dir = tempDir();
    const env = { XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), HOME: dir };
    const prompter = scripted(false);
    const r = await runCli(['import', sheet], { tty: true, env, prompter });
    expect(r.code).toBe(1);
    expect(prompter.asked).toHaveLength(1);
    expect(prompter.asked[0]).toMatch(/^Create batch "payments-en \d{4}-\d{2}-\d{2}" paying 6 people R\$ [\d.]+,\d{2}\?$/);
    expect(r.stderr).toContain('Cancelled; nothing was changed.');
    expect(r.stderr).toContain('SANDBOX');
    const list = await runCli(['batch', 'list', '--json'], { env });
    expect(JSON.parse(list.stdout)).toEqual([]);
    // The keys were looked up at the provider before the question, but no batch or item was created there.
    expect(providerBatches(dir)).toEqual([]);
  });

  it('"yes" imports, and the same sheet again is recognised instead of paid twice', async () => {
    const dir = tempDir();
    const env = { XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), HOME: dir };
    const first = await runCli(['import', sheet, '--start', '--json'], { tty: true, env, prompter: scripted(true) });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ outcome: 'imported', batch: { status: 'started', items: 6 } });
    const again = await runCli(['import', sheet, '--start', '--json'], { tty: true, env, prompter: scripted(true) });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ outcome: 'already-imported', batch: { id: 1 } });
    const list = await runCli(['batch', 'list', '--json'], { env });
    expect(JSON.parse(list.stdout)).toHaveLength(1);
    // The provider holds that one batch with its six items, started (and, on the sandbox's clock, perhaps already
    // completed): the second run created nothing there.
    expect(providerBatches(dir)).toEqual([{ name: expect.stringMatching(/^payments-en \d{4}-\d{2}-\d{2} \[pb:1\]$/), status: expect.stringMatching(/^(processing|completed)$/), items: 6 }]);
  });

  it('asks again before starting a batch whose first import did not start it', async () => {
    const dir = tempDir();
    const env = { XDG_CONFIG_HOME: join(dir, 'c'), XDG_DATA_HOME: join(dir, 'd'), HOME: dir };
    expect((await runCli(['import', sheet], { tty: true, env, prompter: scripted(true) })).code).toBe(0);
    const declined = scripted(false);
    const no = await runCli(['import', sheet, '--start'], { tty: true, env, prompter: declined });
    expect(no.code).toBe(1);
    expect(declined.asked[0]).toMatch(/^Create and start batch "payments-en/);
    expect(JSON.parse((await runCli(['batch', 'show', '1', '--json'], { env })).stdout).batch.status).toBe('submitted');
    // "No" to starting left the provider's batch as the first run made it: all six items in, not started.
    expect(providerBatches(dir)).toEqual([{ name: expect.stringMatching(/\[pb:1\]$/), status: 'pending', items: 6 }]);
    const yes = await runCli(['import', sheet, '--start', '--json'], { tty: true, env, prompter: scripted(true) });
    expect(JSON.parse(yes.stdout)).toMatchObject({ outcome: 'resumed', batch: { status: 'started' } });
  });
});
