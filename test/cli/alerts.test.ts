import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/open-ledger.js';
import { runCli } from '../helpers/test-io.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const now = () => new Date('2026-11-21T15:00:00Z');

/** A ledger holding two open alerts, #1 and #2. */
async function ledgerWithAlerts(): Promise<string> {
  const file = join(tempDir(), 'ledger.db');
  const ledger = await openLedger(file);
  for (const [kind, title] of [['stale-items', 'Payments without news for 2h'], ['failures', 'Payments failed']]) {
    await ledger.run(
      ledger.db.insertInto('alerts').values({
        kind: kind!,
        fingerprint: kind!,
        title: title!,
        summary: 'summary',
        items_json: JSON.stringify([{ identifier: 'i1' }]),
        created_at: '2026-11-20T10:00:00.000Z',
        last_sent_at: '2026-11-20T10:00:00.000Z',
        channels_json: JSON.stringify([{ channel: 'webhook', ok: true, error: null }]),
        acked_at: null,
      }),
    );
  }
  await ledger.close();
  return file;
}

describe('paybatch alerts', () => {
  it('lists open alerts newest first and exits 4 while any is open', async () => {
    const file = await ledgerWithAlerts();
    const r = await runCli(['alerts', 'list', '--json', '--ledger', file], { now });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual([
      expect.objectContaining({ id: 2, kind: 'failures', items: [{ identifier: 'i1' }], channels: [{ channel: 'webhook', ok: true, error: null }], ackedAt: null }),
      expect.objectContaining({ id: 1, kind: 'stale-items', createdAt: '2026-11-20T10:00:00.000Z' }),
    ]);
  });

  it('acknowledges by number, then lists only what is still open; --all shows the acknowledged too', async () => {
    const file = await ledgerWithAlerts();
    const ack = await runCli(['alerts', 'ack', '1', '--json', '--ledger', file], { now });
    expect(ack.code, ack.stderr).toBe(0);
    expect(JSON.parse(ack.stdout)).toEqual({ acknowledged: 1 });
    const again = await runCli(['alerts', 'ack', '1', '--ledger', file], { now });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('✓ 0 alerts acknowledged.');
    const open = await runCli(['alerts', 'list', '--json', '--ledger', file], { now });
    expect((JSON.parse(open.stdout) as { id: number }[]).map((a) => a.id)).toEqual([2]);
    const all = await runCli(['alerts', 'list', '--all', '--json', '--ledger', file], { now });
    expect(JSON.parse(all.stdout)).toContainEqual(expect.objectContaining({ id: 1, ackedAt: '2026-11-21T15:00:00.000Z' }));
    const rest = await runCli(['alerts', 'ack', 'all', '--ledger', file], { now });
    expect(rest.stdout).toContain('✓ 1 alert acknowledged.');
    const none = await runCli(['alerts', 'list', '--ledger', file], { now });
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('No open alerts.');
  });

  it('refuses an alert number the ledger does not hold, and acknowledges nothing then', async () => {
    const file = await ledgerWithAlerts();
    const r = await runCli(['alerts', 'ack', '2', '999', '--ledger', file], { now });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`No alert #999 in the ledger ${file}; nothing was acknowledged.`);
    expect(r.stderr).toContain("See 'paybatch alerts list --all'.");
    const json = await runCli(['alerts', 'ack', '999', '--json', '--ledger', file], { now });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { type: 'usage', exitCode: 2 } });
    const open = await runCli(['alerts', 'list', '--json', '--ledger', file], { now });
    expect((JSON.parse(open.stdout) as unknown[]).length).toBe(2);
  });

  it('refuses words that are not alert numbers before opening the ledger', async () => {
    const file = join(tempDir(), 'never-created.db');
    const r = await runCli(['alerts', 'ack', 'latest', '--ledger', file], { now });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Give alert numbers (see `paybatch alerts list`) or "all".');
    const { existsSync } = await import('node:fs');
    expect(existsSync(file)).toBe(false);
  });
});

describe('paybatch alerts list, for people', () => {
  const items = [
    { identifier: 'id-ana', batch: 'folha-nov', line: 2, key: 'ana@example.com', amountCents: 150_000, status: 'failed', lastUpdate: '2026-11-20T13:30:00.000Z', recipient: 'Ana Souza' },
    { identifier: 'id-bia', batch: 'folha-nov', line: 5, key: '52998224725', amountCents: 99, status: 'failed', lastUpdate: '2026-11-20T13:31:00.000Z', recipient: null },
  ];

  async function ledgerWithFailures(): Promise<string> {
    const file = join(tempDir(), 'ledger.db');
    const ledger = await openLedger(file);
    await ledger.run(
      ledger.db.insertInto('alerts').values({
        kind: 'failures',
        fingerprint: 'failures',
        title: '2 Pix payments failed',
        summary: 'The provider refused these payments; the reason is on each item.',
        items_json: JSON.stringify(items),
        created_at: '2026-11-20T14:00:00.000Z',
        last_sent_at: '2026-11-20T14:00:00.000Z',
        channels_json: null,
        acked_at: null,
      }),
    );
    await ledger.close();
    return file;
  }

  it('names every item of an alert, with São Paulo times and what to do', async () => {
    const r = await runCli(['alerts', 'list', '--ledger', await ledgerWithFailures()], { now });
    expect(r.code).toBe(4);
    expect(r.stdout).toContain('#1 2 Pix payments failed (failures), raised 2026-11-20 11:00 (São Paulo time)');
    expect(r.stdout).toContain('  - folha-nov line 2: Ana Souza (ana@example.com), R$ 1.500,00, failed since 2026-11-20 10:30, id id-ana');
    expect(r.stdout).toContain('  - folha-nov line 5: 52998224725, R$ 0,99, failed since 2026-11-20 10:31, id id-bia');
    expect(r.stdout).toContain('  What to do: read the reason on each item (`paybatch batch items <batch> --status failed`)');
  });

  it('speaks Portuguese when the locale is pt-BR', async () => {
    const r = await runCli(['alerts', 'list', '--ledger', await ledgerWithFailures()], { now, env: { LC_ALL: 'pt_BR.UTF-8' } });
    expect(r.stdout).toContain('#1 2 pagamentos Pix falharam (failures), emitido em 20/11/2026 11:00 (horário de São Paulo)');
    expect(r.stdout).toContain('  - folha-nov linha 2: Ana Souza (ana@example.com), R$ 1.500,00, falhou desde 20/11/2026 10:30, id id-ana');
    expect(r.stdout).toContain('  O que fazer: leia o motivo de cada item');
    const ack = await runCli(['alerts', 'ack', '1', '--ledger', await ledgerWithFailures()], { now, env: { LC_ALL: 'pt_BR.UTF-8' } });
    expect(ack.stdout).toContain('✓ 1 alerta reconhecido.');
  });
});
