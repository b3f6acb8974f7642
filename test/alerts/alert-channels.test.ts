import { describe, expect, it } from 'vitest';
import type { AlertChannel } from '../../src/alerts/alert-channel.js';
import { ALERT_CHANNELS } from '../../src/alerts/alert-channels.js';
import { sendAlert } from '../../src/alerts/send-alert.js';
import { alert } from './fixtures.js';

describe('the alert channel registry', () => {
  it('lists webhook, e-mail and command, in the order results are reported', () => {
    expect(ALERT_CHANNELS.map((c) => c.name)).toEqual(['webhook', 'email', 'command']);
  });

  it.each([
    [{}, []],
    [{ webhookUrl: 'https://hooks.example/T000/B000/xyz' }, ['webhook']],
    [{ emailTo: 'a@b.example' }, ['email']],
    [{ smtpUrl: 'smtp://h:25' }, []],
    [{ command: 'true', emailTo: 'a@b.example' }, ['email', 'command']],
  ])('with %j the configured channels are %j', (cfg, names) => {
    expect(ALERT_CHANNELS.filter((c) => c.isConfigured(cfg)).map((c) => c.name)).toEqual(names);
  });

  it('sendAlert goes through any list of channels: a new channel needs no change to the fan-out', async () => {
    const seen: string[] = [];
    const pager: AlertChannel = {
      name: 'pager',
      isConfigured: (s) => s.command === 'page',
      send: async (a, s) => {
        seen.push(`${a.id} within ${s.timeoutMs}`);
        return { channel: 'pager', ok: true, error: null };
      },
    };
    const broken: AlertChannel = {
      name: 'broken',
      isConfigured: () => true,
      send: () => {
        throw new Error('no route to the pager, token pager-secret-123');
      },
      secrets: () => ['pager-secret-123'],
    };
    expect(await sendAlert(alert(), { command: 'page', timeoutMs: 500 }, [pager, broken])).toEqual([
      { channel: 'pager', ok: true, error: null },
      { channel: 'broken', ok: false, error: 'alert broken failed: no route to the pager, token [redacted]' },
    ]);
    expect(seen).toEqual(['7 within 500']);
  });
});
