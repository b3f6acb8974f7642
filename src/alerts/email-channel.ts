import { hostname } from 'node:os';
import { alertTitle, renderAlertText, type Alert, type AlertLocale, type ChannelResult } from './alert.js';
import type { AlertChannel } from './alert-channel.js';
import { excerpt, redactSecrets, urlSecrets } from './secret-text.js';
import { proxyFor, proxySecrets, type ProxyRules } from '../network/proxy-rules.js';

/** E-mail through an SMTP server (settings alertEmailTo, smtpUrl): configured by the address, failing without a server. */
export const emailChannel: AlertChannel = {
  name: 'email',
  isConfigured: (s) => Boolean(s.emailTo),
  send: async (a, s) =>
    s.smtpUrl
      ? sendEmailAlert(a, { to: s.emailTo!, smtpUrl: s.smtpUrl, timeoutMs: s.timeoutMs, from: s.emailFrom, locale: s.locale, ...(s.proxy ? { proxy: s.proxy } : {}) })
      : { channel: 'email', ok: false, error: 'alert e-mail is configured (alertEmailTo) but smtpUrl is not' },
  secrets: (s) => [...(s.smtpUrl ? urlSecrets(s.smtpUrl) : []), ...(s.proxy ? proxySecrets(s.proxy) : [])],
};

export interface EmailAlertOptions {
  /** One address or several, comma-separated. */
  to: string;
  /** smtp://host:587 (STARTTLS when offered) or smtps://user:pass@host:465; nodemailer options may follow as a query (?requireTLS=true). */
  smtpUrl: string;
  timeoutMs: number;
  /** Default paybatch@<hostname>. */
  from?: string;
  /** Default en. */
  locale?: AlertLocale;
  /** The proxy rules: for a relay (not http), the proxy setting or ALL_PROXY, as curl does; default none. */
  proxy?: ProxyRules;
}

/**
 * Sends the alert as a plain-text e-mail with nodemailer, in the locale: subject = the title ("[SANDBOX] " first for
 * the sandbox), body = renderAlertText. Never throws; errors never carry the SMTP URL, user or password.
 */
export async function sendEmailAlert(a: Alert, o: EmailAlertOptions): Promise<ChannelResult> {
  const secrets = urlSecrets(o.smtpUrl);
  const failed = (error: string): ChannelResult => ({ channel: 'email', ok: false, error: redactSecrets(error, secrets) });

  let server: string;
  let proxy: string | undefined;
  try {
    const url = new URL(o.smtpUrl);
    const route = o.proxy ? proxyFor(url, o.proxy) : null;
    if (route !== null && 'code' in route) return failed(`the proxy in ${route.source === 'setting' ? 'the proxy setting' : route.source} cannot be used (${route.code})`);
    proxy = route?.url;
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return failed('the SMTP URL must start with smtp:// or smtps://');
    server = url.port ? `${url.hostname}:${url.port}` : url.hostname;
  } catch {
    return failed('the SMTP URL is not a valid URL');
  }

  let timer: NodeJS.Timeout | undefined;
  let close = (): void => undefined;
  try {
    const nodemailer = await import('nodemailer');
    const transport = nodemailer.createTransport({
      url: o.smtpUrl,
      connectionTimeout: o.timeoutMs,
      greetingTimeout: o.timeoutMs,
      socketTimeout: o.timeoutMs,
      ...(proxy ? { proxy } : {}),
    });
    close = () => transport.close();
    const sent = transport.sendMail({
      from: o.from ?? `paybatch@${hostname() || 'localhost'}`,
      to: o.to,
      subject: alertTitle(a, o.locale),
      text: renderAlertText(a, o.locale),
      headers: { 'X-Paybatch-Alert-Id': String(a.id), 'X-Paybatch-Alert-Kind': a.kind },
    });
    // nodemailer's own timeouts cover each step; this bounds the whole exchange.
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), o.timeoutMs);
    });
    const outcome = await Promise.race([sent, deadline]);
    if (outcome === 'timeout') {
      // Abandoned: its late failure is of no interest once the timeout was reported.
      void sent.catch(() => undefined);
      return failed(`alert e-mail via ${server} was not accepted within ${o.timeoutMs} ms`);
    }
    const rejected = outcome.rejected.map((r) => (typeof r === 'string' ? r : r.address));
    if (rejected.length > 0) return failed(`alert e-mail via ${server}: the server refused ${rejected.join(', ')}`);
    return { channel: 'email', ok: true, error: null };
  } catch (e) {
    return failed(`alert e-mail via ${server} failed: ${excerpt((e as Error).message ?? String(e), 300)}`);
  } finally {
    clearTimeout(timer);
    close();
  }
}
