import type { Alert, ChannelResult } from './alert.js';
import { runCommandAlert } from './command-channel.js';
import { sendEmailAlert } from './email-channel.js';
import { redactSecrets, urlSecrets } from './secret-text.js';
import { sendWebhookAlert } from './webhook-channel.js';

/** The optional alert channels of a profile (settings alertWebhookUrl, alertEmailTo, smtpUrl, alertCommand). */
export interface AlertChannelsConfig {
  /** Slack or Teams incoming webhook; a secret. */
  webhookUrl?: string;
  /** E-mail goes out when this is set; it needs smtpUrl. */
  emailTo?: string;
  /** smtp:// or smtps://user:pass@host:port; a secret. */
  smtpUrl?: string;
  emailFrom?: string;
  /** Run with /bin/sh -c, the alert as JSON on standard input. */
  command?: string;
  /** Bound on each channel, milliseconds; default 10,000. */
  timeoutMs?: number;
}

export const DEFAULT_ALERT_TIMEOUT_MS = 10_000;
/** Past its own deadline, how long a channel has to report before the fan-out stops waiting for it. */
const BACKSTOP_GRACE_MS = 1000;

/**
 * Sends the alert through every configured channel at once and reports each, in the order webhook, e-mail, command
 * (an empty list when none is configured). One channel failing or hanging never holds up the others; the whole call
 * ends within about timeoutMs. Never throws, and no result carries a configured secret.
 * The log and `paybatch alerts` are not channels here: the caller records every alert there.
 */
export async function sendAlert(a: Alert, cfg: AlertChannelsConfig): Promise<ChannelResult[]> {
  const timeoutMs = cfg.timeoutMs ?? DEFAULT_ALERT_TIMEOUT_MS;
  const jobs: { channel: ChannelResult['channel']; run: () => Promise<ChannelResult> }[] = [];

  if (cfg.webhookUrl) {
    const url = cfg.webhookUrl;
    jobs.push({ channel: 'webhook', run: () => sendWebhookAlert(a, url, timeoutMs) });
  }
  if (cfg.emailTo) {
    const { emailTo: to, smtpUrl, emailFrom: from } = cfg;
    jobs.push({
      channel: 'email',
      run: async () =>
        smtpUrl
          ? sendEmailAlert(a, { to, smtpUrl, from, timeoutMs })
          : { channel: 'email', ok: false, error: 'alert e-mail is configured (alertEmailTo) but smtpUrl is not' },
    });
  }
  if (cfg.command) {
    const command = cfg.command;
    jobs.push({ channel: 'command', run: () => runCommandAlert(a, command, { timeoutMs }) });
  }

  const secrets = [cfg.webhookUrl, cfg.smtpUrl].flatMap((u) => (u ? urlSecrets(u) : []));
  const results = await Promise.all(jobs.map((job) => withBackstop(job.channel, job.run, timeoutMs + BACKSTOP_GRACE_MS)));
  // Defence in depth: a command's standard error or a server's answer could quote another channel's secret.
  return results.map((r) => (r.error === null ? r : { ...r, error: redactSecrets(r.error, secrets) }));
}

async function withBackstop(channel: ChannelResult['channel'], run: () => Promise<ChannelResult>, ms: number): Promise<ChannelResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ChannelResult>((resolve) => {
    timer = setTimeout(() => resolve({ channel, ok: false, error: `alert ${channel} did not finish within ${ms} ms` }), ms);
  });
  const done = run().catch(
    (e: unknown): ChannelResult => ({ channel, ok: false, error: `alert ${channel} failed: ${(e as Error).message ?? String(e)}` }),
  );
  try {
    return await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}
