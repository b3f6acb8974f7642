import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { connectOption } from '../network/connector.js';
import { proxySecrets, type ProxyRules } from '../network/proxy-rules.js';
import { renderSlackPayload, type Alert, type AlertLocale, type ChannelResult } from './alert.js';
import type { AlertChannel } from './alert-channel.js';
import { excerpt, redactSecrets, urlSecrets } from './secret-text.js';

/** Slack or Teams incoming webhook (setting alertWebhookUrl). */
export const webhookChannel: AlertChannel = {
  name: 'webhook',
  isConfigured: (s) => Boolean(s.webhookUrl),
  send: (a, s) => sendWebhookAlert(a, s.webhookUrl!, s.timeoutMs, s.locale, s.proxy),
  secrets: (s) => [...(s.webhookUrl ? urlSecrets(s.webhookUrl) : []), ...(s.proxy ? proxySecrets(s.proxy) : [])],
};

/** Bytes of a webhook's answer read for an error message (Slack says "invalid_payload", "no_service", ...). */
const ANSWER_BYTES = 2048;
const ANSWER_CHARS = 200;

/**
 * Posts the alert as JSON (renderSlackPayload: Slack and Teams) to an incoming webhook with undici; ok on 2xx.
 * The URL is a bearer credential: no error names it or any part of it ("alert webhook answered 500").
 * Never throws; gives up after `timeoutMs`.
 */
export async function sendWebhookAlert(a: Alert, webhookUrl: string, timeoutMs: number, locale: AlertLocale = 'en', proxy: ProxyRules = { env: {} }): Promise<ChannelResult> {
  const secrets = urlSecrets(webhookUrl);
  const failed = (error: string): ChannelResult => ({ channel: 'webhook', ok: false, error: redactSecrets(error, secrets) });

  let url: URL;
  try {
    url = new URL(webhookUrl);
  } catch {
    return failed('the alert webhook URL is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return failed('the alert webhook URL must be http(s)');

  let dispatcher: Dispatcher | undefined;
  try {
    const { request, Pool } = await import('undici');
    // Direct or through the proxy the rules choose: the provider's connector, without its certificate.
    dispatcher = new Pool(url.origin, { connect: connectOption(url, { tls: null, proxy }, timeoutMs, () => undefined) });
    const res = await request(url, {
      dispatcher,
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'paybatch-alerts' },
      body: JSON.stringify(renderSlackPayload(a, locale)),
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      // Alerts are rare: no idle keep-alive connection left behind.
      reset: true,
    });
    if (res.statusCode >= 200 && res.statusCode < 300) {
      // Delivered; what the body says ("ok", "1", nothing) does not matter.
      await res.body.dump({ limit: ANSWER_BYTES }).catch(() => undefined);
      return { channel: 'webhook', ok: true, error: null };
    }
    const said = excerpt(await readSome(res.body, ANSWER_BYTES).catch(() => ''), ANSWER_CHARS);
    return failed(`alert webhook answered ${res.statusCode}${said ? `: ${said}` : ''}`);
  } catch (e) {
    return failed(`alert webhook could not be reached: ${describeError(e, timeoutMs)}`);
  } finally {
    await dispatcher?.close().catch(() => undefined);
  }
}

/** Up to `max` bytes of a body as text; the rest is discarded so a huge or endless answer costs nothing. */
async function readSome(body: Readable, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= max) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

function describeError(e: unknown, timeoutMs: number): string {
  const err = e as { name?: string; code?: string; message?: string };
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT') {
    return `no answer within ${timeoutMs} ms`;
  }
  return [err.code, err.message].filter(Boolean).join(' ') || String(e);
}
