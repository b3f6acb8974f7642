import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, paybatch, startSandboxProcess, userEnv, type SandboxProcess } from '../helpers/e2e.js';
import { importThroughFaults } from '../helpers/import-runs.js';
import { writeSheet } from '../helpers/sheets.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const sandboxes: SandboxProcess[] = [];
afterEach(async () => {
  for (const s of sandboxes.splice(0)) await s.stop();
});

async function sandbox(dir: string, args: string[] = []) {
  const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--seed', '7', ...args] });
  sandboxes.push(s);
  return s;
}

interface BatchesReport {
  batches: { id: string; name: string; status: string; quantityItems: number }[];
}
interface PaymentsReport {
  identifiers: number;
}

describe('paybatch import (end to end)', () => {
  it('imports and starts a 2,000-row sheet at a provider, with progress on stderr and one JSON summary', async () => {
    const dir = tempDir();
    const s = await sandbox(dir);
    const sheet = writeSheet(join(dir, 'folha.csv'), 2000);
    const r = await paybatch(['import', sheet, '--start', '--yes', '--json'], { env: userEnv(dir, s.env()) });
    expect(r.stderr).not.toContain('SANDBOX');
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ outcome: 'imported', batch: { status: 'started', items: 2000 } });
    expect(r.stderr).toContain('Adding items 2000/2000');
    const { batches } = await s.admin<BatchesReport>('batches');
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ id: doc.batch.remoteId, status: expect.stringMatching(/^(processing|completed)$/), quantityItems: 2000, name: `folha ${doc.batch.name.split(' ').at(-1)} [pb:1]` });
  });

  it('sends a sheet larger than the provider takes in one batch as parts, resumable after a kill between them', async () => {
    const dir = tempDir();
    const s = await sandbox(dir);
    const sheet = writeSheet(join(dir, 'folha.csv'), 2000);
    const env = userEnv(dir, { ...s.env(), PAYBATCH_MAX_BATCH_ITEMS: '800' });
    // Killed once the second part's start is answered, before it is recorded.
    const killed = await paybatch(['import', sheet, '--start', '--yes', '--json'], { env: { ...env, PAYBATCH_CRASH_AT: 'start:2' } });
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    const r = await paybatch(['import', sheet, '--start', '--yes', '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    const day = doc.batch.name.split(' ')[1];
    expect(doc.outcome).toBe('resumed');
    expect(doc.batches.map((b: { id: number; name: string; items: number; status: string }) => [b.id, b.name, b.items, b.status])).toEqual([
      [1, `folha ${day} (1/3)`, 800, 'started'],
      [2, `folha ${day} (2/3)`, 800, 'started'],
      [3, `folha ${day} (3/3)`, 400, 'started'],
    ]);
    expect(doc.batch).toEqual(doc.batches[0]);
    // At the provider: three batches (no fourth from the killed run), the sheet's 2,000 items in them, all started
    // (the first may have completed already: its items settle in seconds of the provider's clock).
    const { batches } = await s.admin<BatchesReport>('batches');
    expect(batches.map((b) => [b.name, b.quantityItems])).toEqual([
      [`folha ${day} (1/3) [pb:1]`, 800],
      [`folha ${day} (2/3) [pb:2]`, 800],
      [`folha ${day} (3/3) [pb:3]`, 400],
    ]);
    for (const b of batches) expect(['processing', 'completed'], b.name).toContain(b.status);
    expect((await s.admin<PaymentsReport & { paidMoreThanOnce: unknown[] }>('payments')).paidMoreThanOnce).toEqual([]);
    // Each part names the others.
    const show = await paybatch(['batch', 'show', '2'], { env });
    expect(show.stdout).toContain('Part 2 of 3 of import #1');
    const shown = JSON.parse((await paybatch(['batch', 'show', '3', '--json'], { env })).stdout);
    expect(shown.parts.map((p: { id: number }) => p.id)).toEqual([1, 2, 3]);
  });

  it('on the embedded default, says SANDBOX and imports the fixture sheet (Windows-1252, ;)', async () => {
    const dir = tempDir();
    const r = await paybatch(['import', join(FIXTURES, 'pagamentos-exemplo.csv'), '--yes', '--json'], { env: userEnv(dir) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('SANDBOX');
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'imported', batch: { status: 'submitted', items: 300 } });
    const list = await paybatch(['batch', 'show', '1', '--json'], { env: userEnv(dir) });
    expect(JSON.parse(list.stdout).progress).toEqual([{ status: 'submitted', count: 300, sumCents: JSON.parse(r.stdout).batch.totalCents }]);
  });

  it('rejects a sheet with errors, naming file, line and field, and imports nothing', async () => {
    const dir = tempDir();
    const env = userEnv(dir);
    const r = await paybatch(['import', join(FIXTURES, 'pagamentos-com-erros.csv'), '--yes'], { env });
    expect(r.exitCode).toBe(3);
    for (const line of [3, 4, 5, 6, 8, 9, 11, 12, 13, 14, 15, 19]) expect(r.stderr).toMatch(new RegExp(`pagamentos-com-erros\\.csv:${line} `));
    expect(r.stderr).toContain('--skip-invalid');
    const list = await paybatch(['batch', 'list', '--json'], { env });
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it("checks the payee's document whatever the sheet's encoding: a BOM before Windows-1252 text, and names columns it does not read", async () => {
    const dir = tempDir();
    const env = userEnv(dir);
    const row = '111.444.777-35;Jo\xe3o;doc.one@example.com;email;10,00\n';
    const sheets = {
      // The adversary's file: a UTF-8 byte order mark, then one Windows-1252 byte ("ã").
      'bom-1252.csv': Buffer.from(`\xef\xbb\xbfdocumento;nome;chave;tipo;valor\n${row}`, 'latin1'),
      'utf8.csv': Buffer.from(`documento;nome;chave;tipo;valor\n${row.replace('\xe3', 'ã')}`, 'utf8'),
      '1252.csv': Buffer.from(`documento;nome;chave;tipo;valor\n${row}`, 'latin1'),
    };
    for (const [name, bytes] of Object.entries(sheets)) {
      writeFileSync(join(dir, name), bytes);
      const r = await paybatch(['import', join(dir, name), '--dry-run', '--json'], { env });
      expect(r.exitCode, `${name}: ${r.stderr}`).toBe(3);
      expect(r.stderr, name).toMatch(new RegExp(`${name.replace('.', '\\.')}:2 document: the key belongs to document .*, not 11144477735`));
    }
    // A column paybatch does not read is listed, not dropped in silence; a file mixing encodings is refused whole.
    writeFileSync(join(dir, 'extra.csv'), 'chave;valor;documneto;obs\nana@example.com;10,00;111.444.777-35;x\n');
    const extra = await paybatch(['import', join(dir, 'extra.csv'), '--dry-run', '--json'], { env });
    expect(extra.exitCode, extra.stderr).toBe(0);
    expect(JSON.parse(extra.stdout).summary.ignoredColumns).toEqual([{ column: 3, name: 'documneto' }, { column: 4, name: 'obs' }]);
    const human = await paybatch(['import', join(dir, 'extra.csv'), '--check'], { env });
    expect(human.stderr).toContain('"documneto" (column 3), "obs" (column 4): paybatch does not read them');
    writeFileSync(join(dir, 'mixed.csv'), Buffer.concat([Buffer.from('chave;valor;nome\na@example.com;1,00;Ação\n'), Buffer.from('b@example.com;2,00;Zé\n', 'latin1')]));
    const mixed = await paybatch(['import', join(dir, 'mixed.csv'), '--check'], { env });
    expect(mixed.exitCode).toBe(3);
    expect(mixed.stderr).toContain('line 2 (byte 21) has "ç" in UTF-8 (C3 A7), line 3 (byte 21) has the byte E9');
    expect(JSON.parse((await paybatch(['batch', 'list', '--json'], { env })).stdout)).toEqual([]);
  });

  it('refuses to go on without a terminal or --yes, naming the flag', async () => {
    const dir = tempDir();
    const r = await paybatch(['import', join(FIXTURES, 'payments-en.csv')], { env: userEnv(dir) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--yes');
  });

  it('survives SIGKILL at every step: re-running never creates a second batch or item', async () => {
    const dir = tempDir();
    const s = await sandbox(dir);
    const env = userEnv(dir, s.env());
    const sheet = writeSheet(join(dir, 'folha.csv'), 1200);
    // Kill right after each kind of request leaves paybatch (verbose logs print each one before it is sent).
    const killPoints = [/→ GET \/pix\/keys\//, /→ POST \/pix\/batch\b(?!\/)/, /→ POST \/pix\/batch\/[^/]+\/items/, /→ POST \/pix\/batch\/[^/]+\/items[\s\S]*→ POST \/pix\/batch\/[^/]+\/items/, /→ POST \/pix\/batch\/[^/]+\/start-process/];
    for (const point of killPoints) {
      const run = paybatch(['import', sheet, '--start', '--yes', '--verbose'], { env });
      let seen = '';
      run.stderr!.on('data', (b: Buffer) => {
        seen += b.toString();
        if (point.test(seen)) run.kill('SIGKILL');
      });
      expect((await run).signal, `never reached ${point}`).toBe('SIGKILL');
    }
    const final = await paybatch(['import', sheet, '--start', '--yes', '--json'], { env });
    expect(final.exitCode, final.stderr).toBe(0);
    expect(JSON.parse(final.stdout).batch.status).toBe('started');
    // The ledger's call log tells the story: every intent written before its call, crashes leave intents without outcome.
    const calls: { phase: string; operation: string; outcome: string | null }[] = JSON.parse((await paybatch(['batch', 'show', '1', '--json'], { env })).stdout).calls;
    expect(calls.filter((c) => c.phase === 'intent').map((c) => c.operation)).toEqual(expect.arrayContaining(['create_batch', 'add_items', 'start_batch']));
    expect(calls.filter((c) => c.operation === 'start_batch' && c.phase === 'outcome').map((c) => c.outcome)).toContain('ok');
    const { batches } = await s.admin<BatchesReport>('batches');
    expect(batches).toHaveLength(1);
    expect(batches[0]!.quantityItems).toBe(1200);
    // Started: still processing, or already completed on the sandbox's clock on a slow machine.
    expect(['processing', 'completed']).toContain(batches[0]!.status);
    const payments = await s.admin<PaymentsReport & { paidMoreThanOnce: unknown[] }>('payments');
    expect(payments.paidMoreThanOnce).toEqual([]);
  });

  it('completes an import through 5xx, timeouts, resets, lost responses and 429s', async () => {
    const dir = tempDir();
    const s = await sandbox(dir, ['--faults', 'http5xx=0.1,timeout=0.03,reset=0.05,lostResponse=0.05,r429=0.1']);
    const env = userEnv(dir, { ...s.env(), PAYBATCH_REQUEST_TIMEOUT: '2s' });
    const sheet = writeSheet(join(dir, 'folha.csv'), 300);
    // A run may still give up when faults outlast its retries (asserted: exit 1, the call it gave up on, "again");
    // the next run continues where it stopped.
    const runs = await importThroughFaults([sheet, '--start', '--yes', '--json'], { env, maxRuns: 4, timeout: 120_000 });
    const doc = JSON.parse(runs.at(-1)!.stdout);
    // A run that gave up after the import was recorded leaves it to be resumed; one that gave up before, to be made.
    expect(doc).toMatchObject({ outcome: runs.length === 1 ? 'imported' : expect.stringMatching(/^(imported|resumed)$/), batch: { status: 'started', items: 300 } });
    const { batches } = await s.admin<BatchesReport>('batches');
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ id: doc.batch.remoteId, quantityItems: 300, status: expect.stringMatching(/^(processing|completed)$/) });
    const payments = await s.admin<PaymentsReport & { paidMoreThanOnce: unknown[] }>('payments');
    expect(payments.paidMoreThanOnce).toEqual([]);
  }, 300_000);
});
