import type { AlertChannelsConfig } from '../alerts/alert-channel.js';
import type { Profile } from '../config/profile.js';
import { resolveLocale } from '../words/locale.js';
import type { Settings } from '../config/settings.js';
import type { DaemonDeps, LogEntry } from '../daemon/run-daemon.js';
import type { Ledger, LedgerClock } from '../engine/ledger-door.js';
import type { CertificateFacts } from '../network/certificate-facts.js';
import type { ProviderClient } from '../provider/client.js';

/** What a command that runs the daemon has chosen; the rest of DaemonDeps follows from it. */
export interface DaemonDepsInput {
  readonly ledger: Ledger;
  readonly provider: ProviderClient;
  readonly now: () => Date;
  /** The ledger's clock `now` follows, read again at every pass (the daemon; absent for the demo). */
  readonly clock?: LedgerClock;
  readonly profile: Pick<Profile, 'name' | 'settings' | 'receiptsDir' | 'embeddedSandbox' | 'configPath'>;
  readonly log: (entry: LogEntry) => void;
  /** Aborted to stop the daemon (SIGINT/SIGTERM); never aborted for a run that ends by itself. */
  readonly signal: AbortSignal;
  /**
   * `channels`: alerts go out through the profile's alert channels too (failures are logged);
   * `ledger-only`: they are only recorded (the demo tells nobody).
   */
  readonly alerts: 'channels' | 'ledger-only';
  /** The client certificate of the provider's calls, alerted about before it ends. */
  readonly certificate?: CertificateFacts | null;
}

/** The one place where `paybatch daemon` and `paybatch demo` get the dependencies of runDaemon. */
export async function daemonDeps(i: DaemonDepsInput): Promise<DaemonDeps> {
  const { callbackHandler } = await import('../engine/webhooks/index.js');
  const { settings } = i.profile;
  let send: DaemonDeps['send'] = async () => [];
  if (i.alerts === 'channels') {
    const { sendAlert } = await import('../alerts/send-alert.js');
    send = async (alert) => {
      const results = await sendAlert(alert, alertChannelsOf(settings));
      for (const r of results) if (!r.ok) i.log({ level: 'error', event: 'alert_channel_failed', msg: `alert channel ${r.channel} failed`, channel: r.channel, alertId: alert.id, error: r.error });
      return results;
    };
  }
  return {
    ledger: i.ledger,
    provider: i.provider,
    now: i.now,
    ...(i.clock ? { clock: i.clock } : {}),
    settings,
    receiptsDir: i.profile.receiptsDir,
    billDocuments: (await import('../receipts/bill-receipt.js')).billDocumentWriter({
      receiptsDir: i.profile.receiptsDir,
      locale: resolveLocale(settings.locale, process.env),
      sandbox: i.profile.embeddedSandbox,
    }),
    profile: i.profile.name,
    sandbox: i.profile.embeddedSandbox,
    send,
    log: i.log,
    signal: i.signal,
    onCallback: callbackHandler(i.provider.dialect.billAmountUnit),
    certificate: i.certificate ?? null,
    ...(settings.cnabReturnDir ? { cnabReturnDir: settings.cnabReturnDir } : {}),
    // The daemon's log and alerts about approvals are in English, like its other texts.
    approvals: (await import('../engine/approvals/index.js')).approvalGate(i.profile, (await import('./messages/approval-words.js')).explainApprovalRefusal('en')),
  };
}

/** The alert channel settings of a profile; messages in its locale (`env`: where an unset locale setting is read). */
export function alertChannelsOf(s: Settings, env: NodeJS.ProcessEnv = process.env): AlertChannelsConfig {
  return {
    webhookUrl: s.alertWebhookUrl,
    emailTo: s.alertEmailTo,
    emailFrom: s.alertEmailFrom,
    smtpUrl: s.smtpUrl,
    command: s.alertCommand,
    locale: resolveLocale(s.locale, env),
    proxy: { env, ...(s.proxy === undefined ? {} : { setting: s.proxy }) },
  };
}
