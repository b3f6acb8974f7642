import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { paybatch, startSandboxProcess, useProcesses, userEnv } from '../helpers/e2e.js';
import { freePort } from '../helpers/free-port.js';
import { writeSheet } from '../helpers/sheets.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { queryLedger } from '../helpers/test-ledger.js';

/**
 * A webhook is a claim, not proof: correctly signed events the provider never meant — a false instability refund, a
 * payment of the wrong amount — must not make paybatch pay anyone again, and are reported.
 */
const tempDir = useTempDir();
const { sandboxes, daemons } = useProcesses();
const SECRET = 'e2e-secret-an-attacker-also-knows';

interface PaymentsReport {
  payments: { identifier: string; paid: number; refunded: number }[];
}

async function until<T>(what: string, probe: () => T | null | Promise<T | null>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(300);
  }
}

describe('signed events the provider never meant (end to end)', () => {
  it('a false refund pays nobody again, a wrong amount is quarantined, and both are reported', async () => {
    const dir = tempDir();
    const s = await startSandboxProcess({ state: join(dir, 'provider.db'), args: ['--seed', '3', '--speed', '100'] });
    sandboxes.push(s);
    const env = userEnv(dir, { ...s.env(), PAYBATCH_WEBHOOK_SECRET: SECRET, PAYBATCH_ALERT_AFTER: '2s', PAYBATCH_RECEIPTS_DIR: join(dir, 'receipts') });
    const port = await freePort();
    const daemon = paybatch(['daemon', '--listen', `127.0.0.1:${port}`, '--public-url', `http://127.0.0.1:${port}/webhooks`, '--interval', '0.5', '--timeout', '60s'], { env, timeout: 90_000 });
    daemons.push(daemon);
    let log = '';
    daemon.stderr!.on('data', (b: Buffer) => (log += b.toString()));
    await until('the daemon to subscribe', () => (log.includes('subscribed to provider events') ? true : null));

    const imported = await paybatch(['import', writeSheet(join(dir, 'folha.csv'), 5), '--start', '--yes'], { env });
    expect(imported.exitCode, imported.stderr).toBe(0);
    const query = <T>(sql: string) => queryLedger<T>(env, sql);
    const items = await until('every item paid', async () => {
      const rows = await query<{ identifier: string; status: string; amount_cents: number; key: string }>('SELECT identifier, status, amount_cents, key FROM items ORDER BY id');
      return rows.length === 5 && rows.every((r) => r.status === 'paid') ? rows : null;
    });

    const deliver = (payload: Record<string, unknown>) =>
      fetch(`http://127.0.0.1:${port}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-secret': SECRET },
        body: JSON.stringify({ serviceId: 1, payload: { fee: 0, transactionStatus: 'approved', transactionAccepted: true, endToEndId: null, ...payload } }),
      });
    const [victim, cheap] = items as [(typeof items)[0], (typeof items)[0]];
    const refund = await deliver({ id: 'forged-refund', eventId: 'forged-1', identifier: victim.identifier, amount: victim.amount_cents, isRefund: true, reason: 'AB03 - settlement interrupted' });
    const wrong = await deliver({ id: 'forged-paid', eventId: 'forged-2', identifier: cheap.identifier, amount: 1, isRefund: false });
    expect([refund.status, wrong.status]).toEqual([200, 200]);

    const alerts = await until('both reported', async () => {
      const rows = await query<{ kind: string; items_json: string }>('SELECT kind, items_json FROM alerts');
      return rows.filter((a) => a.kind === 'quarantined-events').reduce((n, a) => n + (JSON.parse(a.items_json) as unknown[]).length, 0) === 2 ? rows : null;
    });
    // One alert per pass that found some: every alert is about the quarantined events, none pays anyone.
    expect(new Set(alerts.map((a) => a.kind))).toEqual(new Set(['quarantined-events']));
    daemon.kill('SIGTERM');
    await daemon;
    daemons.splice(0);

    // Nobody was paid again: one attempt per row, each paid once at the provider.
    expect((await query<{ n: number }>('SELECT count(*) AS n FROM items'))[0]!.n).toBe(5);
    expect((await query<{ status: string }>('SELECT status FROM items')).every((r) => r.status === 'paid')).toBe(true);
    const payments = await s.admin<PaymentsReport>('payments');
    for (const it of items) expect(payments.payments.find((p) => p.identifier === it.identifier)).toMatchObject({ paid: 1, refunded: 0 });
    const events = await query<{ event_id: string; quarantine: string | null }>("SELECT event_id, quarantine FROM webhook_events WHERE event_id LIKE 'forged-%' ORDER BY event_id");
    expect(events).toEqual([
      { event_id: 'forged-1', quarantine: "the provider's item page shows this payment paid, not returned" },
      { event_id: 'forged-2', quarantine: `amount 1 centavos, but the item is of ${cheap.amount_cents}` },
    ]);
  }, 120_000);
});
