import type { ProxyRules } from '../network/proxy-rules.js';
import type { Alert, AlertLocale, ChannelResult } from './alert.js';

/** The optional alert channels of a profile (settings alertWebhookUrl, alertEmailTo, smtpUrl, alertCommand). */
export interface AlertChannelsConfig {
  /** Slack or Teams incoming webhook; a secret. */
  webhookUrl?: string;
  /** E-mail goes out when this is set; it needs smtpUrl. */
  emailTo?: string;
  /** smtp:// or smtps://user:pass@host:port; a secret. */
  smtpUrl?: string;
  /** Run with /bin/sh -c, the alert as JSON on standard input. */
  command?: string;
  /** The From: address of alert e-mail; default paybatch@<hostname>. */
  emailFrom?: string;
  /** Language of e-mail and chat messages; default en. The command's JSON is the same in every locale. */
  locale?: AlertLocale;
  /** Bound on each channel, milliseconds; default 10,000. */
  timeoutMs?: number;
  /** The proxy rules the webhook and e-mail channels go by (the profile's proxy setting, the environment); default none. */
  proxy?: ProxyRules;
}

/** The channel settings as a channel receives them: the timeout is always known. */
export type ChannelSettings = AlertChannelsConfig & { readonly timeoutMs: number };

/**
 * One way of telling support (see the list in alert-channels.ts). `send` runs only when `isConfigured`; it should
 * end within `settings.timeoutMs` and never throw (a throw or a hang is still reported as a failure of this channel).
 */
export interface AlertChannel {
  /** Reported as ChannelResult.channel: `webhook`, `email`, … */
  readonly name: string;
  isConfigured(settings: AlertChannelsConfig): boolean;
  send(alert: Alert, settings: ChannelSettings): Promise<ChannelResult>;
  /**
   * Fragments of this channel's settings that no result may quote, whether or not the channel is configured:
   * another channel's error (a command's standard error, a server's answer) could hold them.
   */
  secrets?(settings: AlertChannelsConfig): string[];
}
