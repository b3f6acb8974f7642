import { formatBRL, parseAmount } from '../domain/money.js';
import { fail, ok, type Result } from '../domain/result.js';
import { formatDuration, parseDuration } from '../domain/duration.js';

/** Every profile setting, as stored in config.json (amounts in centavos, durations in seconds). */
export interface Settings {
  baseUrl?: string;
  tokenUrl?: string;
  apiKey?: string;
  clientId?: string;
  clientSecret?: string;
  webhookSecret?: string;
  webhookVerification: 'standard-webhooks' | 'shared-secret';
  webhookSecretHeader: string;
  pixAmountUnit: 'cents' | 'reais';
  requestTimeout: number;
  maxItemAmount: number;
  maxBatchTotal: number;
  staleAfter: number;
  alertAfter: number;
  alertRepeat: number;
  maxReprocess: number;
  receiptsDir?: string;
  alertWebhookUrl?: string;
  alertEmailTo?: string;
  smtpUrl?: string;
  alertCommand?: string;
  sandboxSpeed: number;
  sandboxFaults?: string;
  sandboxSeed: number;
}

export type SettingName = keyof Settings;

interface SettingSpec {
  readonly describe: string;
  readonly secret?: boolean;
  /** Text (from a flag, a prompt or the environment) to the stored value. */
  parse(text: string): Result<Settings[SettingName]>;
  format?(value: never): string;
}

const text = (check?: (s: string) => string | null) => (s: string): Result<string> => {
  const v = s.trim();
  if (!v) return fail('must not be empty');
  const problem = check?.(v);
  return problem ? fail(problem) : ok(v);
};
const url = text((s) => (/^https?:\/\/[^\s]+$/.test(s) ? null : 'must be an http(s) URL'));
const oneOf = <T extends string>(...values: T[]) => (s: string): Result<T> =>
  values.includes(s.trim() as T) ? ok(s.trim() as T) : fail(`must be one of ${values.join(', ')}`);
const amount = (s: string): Result<number> => parseAmount(s);
const positiveInt = (s: string): Result<number> => (/^\d+$/.test(s.trim()) && Number(s) > 0 ? ok(Number(s)) : fail('must be a whole number above zero'));
const count = (s: string): Result<number> => (/^\d+$/.test(s.trim()) ? ok(Number(s)) : fail('must be a whole number'));
const speed = (s: string): Result<number> => (Number.isFinite(Number(s)) && Number(s) > 0 ? ok(Number(s)) : fail('must be a number above zero'));

export const SETTINGS: Record<SettingName, SettingSpec> = {
  baseUrl: { describe: "provider API base URL (unset: the embedded sandbox)", parse: url },
  tokenUrl: { describe: 'OAuth 2.0 token URL (client credentials)', parse: url },
  apiKey: { describe: 'Service-ApiKey', secret: true, parse: text() },
  clientId: { describe: 'OAuth 2.0 client id', parse: text() },
  clientSecret: { describe: 'OAuth 2.0 client secret', secret: true, parse: text() },
  webhookSecret: { describe: 'secret shared with the provider for webhook deliveries', secret: true, parse: text() },
  webhookVerification: { describe: 'how deliveries are verified: standard-webhooks | shared-secret', parse: oneOf('standard-webhooks', 'shared-secret') },
  webhookSecretHeader: { describe: 'header carrying the secret in shared-secret mode', parse: text() },
  pixAmountUnit: { describe: 'unit of Pix item amounts on the wire: cents | reais', parse: oneOf('cents', 'reais') },
  requestTimeout: { describe: 'longest wait for a provider answer before the call counts as failed', parse: parseDuration, format: (v: number) => formatDuration(v) },
  maxItemAmount: { describe: 'largest amount of one item (R$)', parse: amount, format: (v: number) => formatBRL(v) },
  maxBatchTotal: { describe: 'largest total of one batch (R$)', parse: amount, format: (v: number) => formatBRL(v) },
  staleAfter: { describe: 'no update for this long: refresh the item from the provider', parse: parseDuration, format: (v: number) => formatDuration(v) },
  alertAfter: { describe: 'still no update after this long: alert support', parse: parseDuration, format: (v: number) => formatDuration(v) },
  alertRepeat: { describe: 'repeat an unchanged alert after this long', parse: parseDuration, format: (v: number) => formatDuration(v) },
  maxReprocess: { describe: 'new attempts for a payment returned by Pix instability', parse: count },
  receiptsDir: { describe: 'folder for receipt PDFs', parse: text() },
  alertWebhookUrl: { describe: 'Slack/Teams-compatible incoming webhook for alerts', secret: true, parse: url },
  alertEmailTo: { describe: 'e-mail address for alerts (needs smtpUrl)', parse: text((s) => (s.includes('@') ? null : 'must be an e-mail address')) },
  smtpUrl: { describe: 'SMTP server for alert e-mail, e.g. smtps://user:pass@host:465', secret: true, parse: text() },
  alertCommand: { describe: 'command run with the alert as JSON on its standard input', parse: text() },
  sandboxSpeed: { describe: 'embedded sandbox: simulated seconds per real second', parse: speed },
  sandboxFaults: { describe: 'embedded sandbox: fault rates, e.g. http5xx=0.05,lostResponse=0.02', parse: text() },
  sandboxSeed: { describe: 'embedded sandbox: random seed', parse: positiveInt },
};

export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

export const DEFAULT_SETTINGS: Settings = {
  webhookVerification: 'standard-webhooks',
  webhookSecretHeader: 'x-webhook-secret',
  pixAmountUnit: 'cents',
  requestTimeout: 30,
  maxItemAmount: 5_000_000,
  maxBatchTotal: 100_000_000,
  staleAfter: 30 * 60,
  alertAfter: 2 * 3600,
  alertRepeat: 24 * 3600,
  maxReprocess: 3,
  sandboxSpeed: 60,
  sandboxSeed: 1,
};

/** PAYBATCH_BASE_URL for baseUrl, and so on. */
export function envName(name: SettingName): string {
  return `PAYBATCH_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
}

export function isSecret(name: SettingName): boolean {
  return SETTINGS[name].secret === true;
}

/** A setting's value for people: secrets masked, amounts in R$, durations as 30m. */
export function displayValue(name: SettingName, value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  if (isSecret(name)) return '********';
  const spec = SETTINGS[name];
  return spec.format ? spec.format(value as never) : String(value);
}

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(SETTINGS, name);
}
