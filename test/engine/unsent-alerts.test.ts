import { describe, expect, it } from 'vitest';
import type { Alert } from '../../src/alerts/alert.js';
import { DEFAULT_SETTINGS } from '../../src/config/settings.js';
import { raiseAlerts } from '../../src/engine/alerts/attention.js';
import { claimAlertSend, recordAlert, recordAlertChannels, unsentAlerts } from '../../src/ledger/attention-store.js';
import { sqliteOf } from '../../src/ledger/open-ledger.js';
import { ledgerWithStartedBatch } from '../helpers/ledger-fixture.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tempDir = useTempDir();
const t0 = new Date('2026-11-20T12:00:00Z');
const after = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe('an alert recorded by a daemon that stopped before sending it', () => {
  it('is sent by a later pass once no live daemon can still be sending it, and only once', async () => {
    const { ledger } = await ledgerWithStartedBatch(tempDir(), 1, t0);
    // What a daemon killed between recording the alert and sending it leaves behind: the alert, no channel result.
    const row = { ref: 1, alertedAt: null, identifier: 'id-1', batch: 'Folha', line: 2, key: 'p1@example.com', amountCents: 1001, status: 'failed', lastUpdate: t0.toISOString(), recipient: 'Ana Souza' };
    const { alertId: id } = await recordAlert(ledger, { kind: 'failures', title: '1 Pix payment failed', summary: 'Refused.', rows: [row], itemsJson: JSON.stringify([row]), mark: { table: 'items', column: 'alerted_at' }, at: t0 });
    const sent: Alert[] = [];
    let now = after(10);
    const deps = {
      ledger,
      now: () => now,
      settings: DEFAULT_SETTINGS,
      send: async (a: Alert) => {
        sent.push(a);
        return [{ channel: 'command', ok: true, error: null }];
      },
      profile: 'default',
      sandbox: false,
    };

    // 10 s on, the daemon that raised it may still be sending it (a channel may take ~11 s): left alone.
    expect((await raiseAlerts(deps)).alerts).toEqual([]);
    now = after(31);
    const { alerts } = await raiseAlerts(deps);
    expect(alerts.map((a) => a.id)).toEqual([id]);
    expect(sent).toEqual([{ id, kind: 'failures', title: '1 Pix payment failed', summary: 'Refused.', items: [row], createdAt: t0.toISOString(), profile: 'default', sandbox: false }]);
    expect(JSON.parse(sqliteOf(ledger).prepare('SELECT channels_json FROM alerts WHERE id = ?').pluck().get(id) as string)).toEqual([{ channel: 'command', ok: true, error: null }]);

    now = after(600);
    await raiseAlerts(deps);
    expect(sent).toHaveLength(1);
    await ledger.close();
  });

  it('is recorded by the daemon holding its send: a sender that paused past its claim records only a success', async () => {
    const { ledger } = await ledgerWithStartedBatch(tempDir(), 1, t0);
    const channels = () => sqliteOf(ledger).prepare('SELECT channels_json FROM alerts').pluck().get() as string | null;
    const failed = [{ channel: 'command', ok: false, error: 'did not finish within 10000 ms' }];
    const ok = [{ channel: 'command', ok: true, error: null }];
    // Daemon A records and starts sending, then pauses past its claim (30 s by the ledger's clock).
    const a = await recordAlert(ledger, { kind: 'failures', title: 't', summary: 's', rows: [], itemsJson: '[]', mark: { table: 'items', column: 'alerted_at' }, at: t0 });
    expect(await unsentAlerts(ledger, after(29))).toEqual([]);
    const [unsent] = await unsentAlerts(ledger, after(31));
    // Daemons B and C both find it unsent: one claims it again, the other does not.
    const b = await claimAlertSend(ledger, unsent!, after(31));
    expect(b).toEqual({ alertId: a.alertId, token: 2 });
    expect(await claimAlertSend(ledger, unsent!, after(31))).toBeNull();
    // B sends it and records its success; A, resumed, finds its own send timed out: its failure is not recorded.
    expect(await recordAlertChannels(ledger, b!, ok, JSON.stringify(ok))).toBe(true);
    expect(await recordAlertChannels(ledger, a, failed, JSON.stringify(failed))).toBe(false);
    expect(JSON.parse(channels()!)).toEqual(ok);
    expect(await unsentAlerts(ledger, after(600))).toEqual([]);

    // The other way round: B's send fails, and A's late send went through: the success is the one kept.
    sqliteOf(ledger).prepare('UPDATE alerts SET channels_json = NULL').run();
    expect(await recordAlertChannels(ledger, b!, failed, JSON.stringify(failed))).toBe(true);
    expect(await recordAlertChannels(ledger, a, ok, JSON.stringify(ok))).toBe(true);
    expect(JSON.parse(channels()!)).toEqual(ok);
    await ledger.close();
  });
});
