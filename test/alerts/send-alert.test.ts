import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Alert } from '../../src/alerts/alert.js';
import { sendAlert } from '../../src/alerts/send-alert.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/wait-for.js';
import { startFakeSmtp, parseMail, type FakeSmtp } from './fake-smtp.js';
import { startFakeWebhook, webhookSecretFragments, type FakeWebhook } from './fake-webhook.js';
import { alert } from './fixtures.js';

const tempDir = useTempDir();
let webhook: FakeWebhook | undefined;
let smtp: FakeSmtp | undefined;
afterEach(async () => {
  await webhook?.close();
  await smtp?.close();
  webhook = smtp = undefined;
});

const PASSWORD = 'SECRET-smtp-pass-31';

describe('sendAlert', () => {
  it('sends through every configured channel and reports each in a fixed order', async () => {
    webhook = await startFakeWebhook();
    smtp = await startFakeSmtp();
    const dir = tempDir();
    const a = alert();
    const results = await sendAlert(a, {
      webhookUrl: webhook.url,
      emailTo: 'support@corp.example',
      smtpUrl: `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`,
      command: `cat > "${dir}/alert.json"`,
      timeoutMs: 3000,
    });
    expect(results).toEqual([
      { channel: 'webhook', ok: true, error: null },
      { channel: 'email', ok: true, error: null },
      { channel: 'command', ok: true, error: null },
    ]);
    expect(webhook.received).toHaveLength(1);
    expect(parseMail(smtp.mails[0]!.data).headers.get('subject')).toBe('3 Pix payments without news');
    expect(JSON.parse(readFileSync(join(dir, 'alert.json'), 'utf8')) as Alert).toEqual(a);
  });

  it('does nothing when no channel is configured, and e-mail without smtpUrl is a failure', async () => {
    expect(await sendAlert(alert(), {})).toEqual([]);
    expect(await sendAlert(alert(), { smtpUrl: 'smtp://127.0.0.1:1' })).toEqual([]);
    expect(await sendAlert(alert(), { emailTo: 'support@corp.example' })).toEqual([
      { channel: 'email', ok: false, error: 'alert e-mail is configured (alertEmailTo) but smtpUrl is not' },
    ]);
  });

  it('one failing channel does not stop the others, and no result holds a secret', async () => {
    webhook = await startFakeWebhook((req) => ({ status: 500, body: `boom at ${req.path}` }));
    smtp = await startFakeSmtp({ refuseAuth: true });
    const dir = tempDir();
    const smtpUrl = `smtp://alerts:${PASSWORD}@127.0.0.1:${smtp.port}?ignoreTLS=true`;
    // The command prints the other channels' secrets on stderr: the fan-out still masks them.
    const command = `cat > "${dir}/alert.json"; echo "leak ${PASSWORD} ${webhook.token}" >&2; exit 3`;
    const results = await sendAlert(alert(), { webhookUrl: webhook.url, emailTo: 'support@corp.example', smtpUrl, command, timeoutMs: 3000 });
    expect(results.map((r) => [r.channel, r.ok])).toEqual([
      ['webhook', false],
      ['email', false],
      ['command', false],
    ]);
    expect(results[0]!.error).toMatch(/^alert webhook answered 500/);
    expect(results[1]!.error).toContain('535');
    // The token goes segment by segment: "[redacted]/[redacted]/[redacted]".
    expect(results[2]!.error).toMatch(/^alert command exited with code 3: leak \[redacted\] [[\]redacted/]+$/);
    const all = JSON.stringify(results);
    for (const s of [...webhookSecretFragments(webhook.url), PASSWORD, smtpUrl, Buffer.from(`\u0000alerts\u0000${PASSWORD}`).toString('base64')]) {
      expect(all).not.toContain(s);
    }
    expect(readFileSync(join(dir, 'alert.json'), 'utf8')).toContain('"id":7');
  });

  it('runs the channels at once: all three are under way together, long before any timeout', async () => {
    webhook = await startFakeWebhook(() => 'hang');
    // An SMTP server that accepts and never greets, counting the connections it holds.
    const held = new Set<Socket>();
    const silentSmtp = createServer((socket) => {
      held.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silentSmtp.listen(0, '127.0.0.1', resolve));
    const dir = tempDir();
    try {
      const sending = sendAlert(alert(), {
        webhookUrl: webhook.url,
        emailTo: 'support@corp.example',
        smtpUrl: `smtp://127.0.0.1:${(silentSmtp.address() as AddressInfo).port}`,
        command: `touch "${dir}/started"; while [ ! -e "${dir}/release" ]; do sleep 0.05; done`,
        timeoutMs: 120_000,
      });
      // One after the other, the second channel could only start when the first gave up, two minutes on.
      await waitFor(() => webhook!.received.length === 1 && held.size === 1 && existsSync(join(dir, 'started')), {
        what: 'the webhook, the e-mail and the command to be under way at once',
      });
      // Then each ends: the two servers hang up, the command is let go.
      await webhook.close();
      for (const socket of held) socket.destroy();
      writeFileSync(join(dir, 'release'), '');
      expect((await sending).map((r) => [r.channel, r.ok])).toEqual([
        ['webhook', false],
        ['email', false],
        ['command', true],
      ]);
    } finally {
      await new Promise((resolve) => silentSmtp.close(resolve));
    }
  });

  it('ends at the timeout when every channel hangs', async () => {
    webhook = await startFakeWebhook(() => 'hang');
    smtp = await startFakeSmtp({ silent: true });
    const started = Date.now();
    const results = await sendAlert(alert(), {
      webhookUrl: webhook.url,
      emailTo: 'support@corp.example',
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      command: 'sleep 30',
      timeoutMs: 400,
    });
    expect(results.map((r) => [r.channel, r.ok])).toEqual([
      ['webhook', false],
      ['email', false],
      ['command', false],
    ]);
    // Each channel gave up at its timeout…
    for (const r of results) expect(r.error).toMatch(/400 ms/);
    // …and the call returned then, not when the command's 30 s sleep would have ended.
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
