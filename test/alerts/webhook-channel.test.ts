import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookPayload } from '../../src/alerts/alert.js';
import { sendWebhookAlert } from '../../src/alerts/webhook-channel.js';
import { startConnectProxy } from '../helpers/connect-proxy.js';
import { startFakeWebhook, webhookSecretFragments, type FakeWebhook } from './fake-webhook.js';
import { alert } from './fixtures.js';

let server: FakeWebhook | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function expectNoSecret(error: string | null, url: string): void {
  for (const s of webhookSecretFragments(url)) expect(error ?? '').not.toContain(s);
}

describe('sendWebhookAlert', () => {
  it('posts a Slack/Teams JSON body listing the items; 2xx is ok', async () => {
    server = await startFakeWebhook();
    const result = await sendWebhookAlert(alert(), server.url, 2000);
    expect(result).toEqual({ channel: 'webhook', ok: true, error: null });
    expect(server.received).toHaveLength(1);
    const r = server.received[0]!;
    expect(r.method).toBe('POST');
    expect(r.path).toBe(`/services/${server.token}?sig=SIGsecret0123456789`);
    expect(r.contentType).toMatch(/^application\/json/);
    const body = JSON.parse(r.body) as WebhookPayload;
    expect(typeof body.text).toBe('string');
    for (const name of ['Maria 0', 'Maria 1', 'Maria 2']) expect(body.text).toContain(name);
    expect(body.text).toContain('R$ 1.234,56');
    expect(Array.isArray(body.blocks)).toBe(true);
    expect(body.type).toBe('message');
    expect(body.attachments[0]?.contentType).toBe('application/vnd.microsoft.card.adaptive');
  });

  it('accepts 202 with an empty body (Teams Workflows)', async () => {
    server = await startFakeWebhook(() => ({ status: 202, body: '' }));
    expect((await sendWebhookAlert(alert(), server.url, 2000)).ok).toBe(true);
  });

  it('reports a non-2xx answer with the status and what the server said, never the URL', async () => {
    server = await startFakeWebhook((req) => ({ status: 500, body: `invalid_payload for ${req.path}` }));
    const result = await sendWebhookAlert(alert(), server.url, 2000);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^alert webhook answered 500: invalid_payload for \[redacted\]/);
    expectNoSecret(result.error, server.url);
  });

  it('reports 404 (a revoked Slack webhook) as a failure', async () => {
    server = await startFakeWebhook(() => ({ status: 404, body: 'no_service' }));
    const result = await sendWebhookAlert(alert(), server.url, 2000);
    expect(result).toEqual({ channel: 'webhook', ok: false, error: 'alert webhook answered 404: no_service' });
  });

  it('reports an unreachable webhook without the URL', async () => {
    server = await startFakeWebhook();
    const url = server.url;
    await server.close();
    server = undefined;
    const result = await sendWebhookAlert(alert(), url, 2000);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^alert webhook could not be reached: .*ECONNREFUSED/);
    expectNoSecret(result.error, url);
  });

  it('gives up after the timeout when the server never answers', async () => {
    server = await startFakeWebhook(() => 'hang');
    const started = Date.now();
    const result = await sendWebhookAlert(alert(), server.url, 300);
    // The server never answers: returning at all is the timeout at work (its 300 ms are in the message below); the
    // bound only tells that from a call left hanging, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result).toEqual({ channel: 'webhook', ok: false, error: 'alert webhook could not be reached: no answer within 300 ms' });
  });

  it('refuses a URL that is not http(s), without echoing it', async () => {
    const result = await sendWebhookAlert(alert(), 'ftp://user:SECRETpass99@example.com/x', 500);
    expect(result).toEqual({ channel: 'webhook', ok: false, error: 'the alert webhook URL must be http(s)' });
    const bad = await sendWebhookAlert(alert(), 'not a url SECRET123456', 500);
    expect(bad.error).toBe('the alert webhook URL is not a valid URL');
  });
});

describe('sendWebhookAlert through a proxy', () => {
  it('goes through the proxy the rules choose, to a webhook elsewhere than this machine', async () => {
    server = await startFakeWebhook();
    const port = Number(new URL(server.url).port);
    const proxy = await startConnectProxy(port);
    try {
      const url = server.url.replace('127.0.0.1', 'hooks.slack.test');
      const result = await sendWebhookAlert(alert(), url, 5000, 'en', { env: { HTTP_PROXY: proxy.url } });
      expect(result).toEqual({ channel: 'webhook', ok: true, error: null });
      expect(proxy.connects).toEqual([`hooks.slack.test:${port}`]);
      expect(server.received).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('a proxy that asks for credentials fails the channel, naming no secret of the URL or the proxy', async () => {
    server = await startFakeWebhook();
    const proxy = await startConnectProxy(Number(new URL(server.url).port), { answer: 407 });
    try {
      const url = server.url.replace('127.0.0.1', 'hooks.slack.test');
      const result = await sendWebhookAlert(alert(), url, 5000, 'en', { env: {}, setting: proxy.url.replace('http://', 'http://ops:pr0xyPa55@') });
      expect(result.ok).toBe(false);
      expect(result.error).toContain('PROXY_AUTH_REQUIRED');
      expect(result.error).not.toContain('pr0xyPa55');
      expectNoSecret(result.error, url);
      expect(server.received).toHaveLength(0);
    } finally {
      await proxy.close();
    }
  });
});
