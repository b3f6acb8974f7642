import type { Alert, ChannelResult } from './alert.js';
import type { AlertChannel, AlertChannelsConfig } from './alert-channel.js';
import { ALERT_CHANNELS } from './alert-channels.js';
import { redactSecrets } from './secret-text.js';

export type { AlertChannelsConfig } from './alert-channel.js';

export const DEFAULT_ALERT_TIMEOUT_MS = 10_000;
/** Past its own deadline, how long a channel has to report before the fan-out stops waiting for it. */
const BACKSTOP_GRACE_MS = 1000;

/**
 * Sends the alert through every configured channel at once and reports each, in the order of ALERT_CHANNELS
 * (webhook, e-mail, command; an empty list when none is configured). One channel failing or hanging never holds up
 * the others; the whole call ends within about timeoutMs. Never throws, and no result carries a configured secret.
 * The log and `paybatch alerts` are not channels here: the caller records every alert there.
 */
export async function sendAlert(
  a: Alert,
  cfg: AlertChannelsConfig,
  channels: readonly AlertChannel[] = ALERT_CHANNELS,
): Promise<ChannelResult[]> {
  const settings = { ...cfg, timeoutMs: cfg.timeoutMs ?? DEFAULT_ALERT_TIMEOUT_MS };
  const configured = channels.filter((c) => c.isConfigured(settings));
  const secrets = channels.flatMap((c) => c.secrets?.(settings) ?? []);
  const results = await Promise.all(
    configured.map((c) => withBackstop(c.name, () => c.send(a, settings), settings.timeoutMs + BACKSTOP_GRACE_MS)),
  );
  // Defence in depth: a command's standard error or a server's answer could quote another channel's secret.
  return results.map((r) => (r.error === null ? r : { ...r, error: redactSecrets(r.error, secrets) }));
}

async function withBackstop(channel: string, run: () => Promise<ChannelResult>, ms: number): Promise<ChannelResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ChannelResult>((resolve) => {
    timer = setTimeout(() => resolve({ channel, ok: false, error: `alert ${channel} did not finish within ${ms} ms` }), ms);
  });
  // Through a promise, so a channel that throws before its first await is a failed result too.
  const done = Promise.resolve().then(run).catch(
    (e: unknown): ChannelResult => ({ channel, ok: false, error: `alert ${channel} failed: ${(e as Error).message ?? String(e)}` }),
  );
  try {
    return await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}
