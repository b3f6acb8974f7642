import { resolve } from 'node:path';
import { formatBRL, parseAmount } from '../domain/money.js';
import { fail, ok, type Result } from '../domain/result.js';
import { formatDuration, parseDuration } from '../domain/duration.js';
import { parseWebhookMethodSetting, type WebhookMethodSetting } from '../domain/webhook-proof.js';
import { LOCALES, type Locale } from '../words/locale.js';
import {
  DEFAULT_PIX_ID_FIELDS,
  DEFAULT_REASON_CODE_FIELDS,
  DEFAULT_REASON_MESSAGE_FIELDS,
  parseList,
  parseStatusWords,
  type BillAmountForm,
  type BillDetailsMethod,
  type TokenAuth,
} from '../domain/provider-choices.js';

/** Every profile setting, as stored in config.json (amounts in centavos, durations in seconds). */
export interface Settings {
  baseUrl?: string;
  tokenUrl?: string;
  apiKey?: string;
  clientId?: string;
  clientSecret?: string;
  webhookSecret?: string;
  /** auto | standard-webhooks | hmac | header | basic | bearer; a stored `shared-secret` (the old name) means header. */
  webhookVerification: WebhookMethodSetting;
  webhookSecretHeader?: string;
  /** Unset: no Pix money moves on a provider other than the embedded sandbox (the unit is never guessed). */
  pixAmountUnit?: 'cents' | 'reais';
  billAmountUnit?: 'cents' | 'reais';
  /** Unit of Pix events' numeric amounts, when a provider's events differ from its items; unset: centavos. */
  eventAmountUnit?: 'cents' | 'reais';
  tokenAuth: TokenAuth;
  statusWords?: string;
  pixIdFields?: string;
  reasonCodeFields?: string;
  reasonMessageFields?: string;
  billDetailsMethod: BillDetailsMethod;
  billAmountForm: BillAmountForm;
  instabilityWords?: string;
  requestTimeout: number;
  maxItemAmount: number;
  maxBatchTotal: number;
  maxBatchItems: number;
  staleAfter: number;
  alertAfter: number;
  alertRepeat: number;
  maxReprocess: number;
  receiptWait: number;
  returnWatch: number;
  returnWatchEvery: number;
  leaseTime: number;
  claimTime: number;
  receiptsDir?: string;
  /** Client certificate (PEM) for providers that require mutual TLS, with `clientKey`; or `clientPfx`. Absolute paths. */
  clientCert?: string;
  clientKey?: string;
  clientPfx?: string;
  /** A CA (PEM) trusted for the provider besides the default roots. */
  caFile?: string;
  /** Proxy of provider and alert calls: a URL, or `none`; unset: HTTPS_PROXY / HTTP_PROXY / NO_PROXY. */
  proxy?: string;
  /** The ledger: an SQLite file, or a PostgreSQL URL (one ledger for several hosts). Unset: the profile's SQLite file. */
  ledger?: string;
  alertWebhookUrl?: string;
  alertEmailTo?: string;
  /** Unset: paybatch@<hostname>. */
  alertEmailFrom?: string;
  smtpUrl?: string;
  alertCommand?: string;
  sandboxSpeed: number;
  sandboxFaults?: string;
  sandboxSeed: number;
  sandboxDialect: 'paybatch' | 'spec' | 'iso';
  /** Unset: from the environment (see resolveLocale). */
  locale?: Locale;
  /** Batches whose total is above this (centavos) need approval; 0: every batch and bill; unset: none. */
  approvalAbove?: number;
  /** Batches with an item above this (centavos) need approval; 0: every batch and bill; unset: no such rule. */
  approvalItemAbove?: number;
  /** Batches of more rows than this need approval; unset: no such rule. */
  approvalRowsAbove?: number;
  /** Distinct approvers a batch or bill that needs approval must have: 1 or 2. */
  approvalsRequired: 1 | 2;
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
/** A proxy URL for people: its password masked (`http://user:****@proxy:3128`). */
function maskedProxyUrl(text: string): string {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
    if (url.password) url.password = '****';
    return text === 'none' ? text : url.toString().replace(/\/$/, '');
  } catch {
    return '********';
  }
}

/** A file's path, made absolute against the folder it was given in (a profile is read from anywhere). */
const file = (s: string): Result<string> => {
  const v = s.trim();
  return v ? ok(resolve(v)) : fail('must not be empty');
};
const url = text((s) => (/^https?:\/\/[^\s]+$/.test(s) ? null : 'must be an http(s) URL'));
const oneOf = <T extends string>(...values: T[]) => (s: string): Result<T> =>
  values.includes(s.trim() as T) ? ok(s.trim() as T) : fail(`must be one of ${values.join(', ')}`);
const amount = (s: string): Result<number> => parseAmount(s);
const positiveInt = (s: string): Result<number> => (/^\d+$/.test(s.trim()) && Number(s) > 0 ? ok(Number(s)) : fail('must be a whole number above zero'));
const count = (s: string): Result<number> => (/^\d+$/.test(s.trim()) ? ok(Number(s)) : fail('must be a whole number'));
const list = (s: string): Result<string> => {
  const items = parseList(s);
  return items.length > 0 ? ok(items.join(',')) : fail('must list at least one name, comma-separated');
};
const statusWords = (s: string): Result<string> => {
  const parsed = parseStatusWords(s);
  return parsed.ok ? ok(parseList(s).join(',')) : parsed;
};
/** An amount in reais where zero is meaningful (an approval threshold of 0: always). */
const amountOrZero = (s: string): Result<number> => (/^\s*(R\$\s*)?0+([.,]0{1,2})?\s*$/i.test(s) ? ok(0) : parseAmount(s));
const speed = (s: string): Result<number> => (Number.isFinite(Number(s)) && Number(s) > 0 ? ok(Number(s)) : fail('must be a number above zero'));

export const SETTINGS: Record<SettingName, SettingSpec> = {
  baseUrl: { describe: "provider API base URL (unset: the embedded sandbox)", parse: url },
  tokenUrl: { describe: 'OAuth 2.0 token URL (client credentials)', parse: url },
  apiKey: { describe: 'Service-ApiKey', secret: true, parse: text() },
  clientId: { describe: 'OAuth 2.0 client id', parse: text() },
  clientSecret: { describe: 'OAuth 2.0 client secret', secret: true, parse: text() },
  webhookSecret: { describe: 'secret shared with the provider for webhook deliveries', secret: true, parse: text() },
  webhookVerification: {
    describe: 'how deliveries prove the secret: auto (any method below) | standard-webhooks | hmac | header | basic | bearer (shared-secret, the old name, means header)',
    parse: parseWebhookMethodSetting,
  },
  webhookSecretHeader: {
    describe: 'a header carrying the secret (header) or a signature (hmac) besides the well-known ones; once either is pinned, the only one read',
    parse: text((s) => (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(s) ? null : 'must be an HTTP header name')),
  },
  eventAmountUnit: { describe: 'unit of numeric amounts in Pix webhook events: cents | reais (unset: cents; text such as "110.07" is always reais)', parse: oneOf('cents', 'reais') },
  pixAmountUnit: { describe: "unit of Pix item amounts on the wire: cents | reais (unset: no Pix payment is sent; read it in the provider's documentation)", parse: oneOf('cents', 'reais') },
  billAmountUnit: { describe: "unit of bill amounts on the wire (details, payment, its answer): reais | cents (unset: no bill is paid; read it in the provider's documentation)", parse: oneOf('reais', 'cents') },
  tokenAuth: { describe: 'how the token endpoint authenticates the client: auto | basic | body (form fields)', parse: oneOf('auto', 'basic', 'body') },
  statusWords: { describe: 'item status words beyond the built-in table, e.g. EM_PROCESSAMENTO=processing,LIQUIDATED=paid', parse: statusWords },
  pixIdFields: { describe: `item fields that carry the Pix id of receipts, in order (default ${DEFAULT_PIX_ID_FIELDS.join(',')})`, parse: list },
  reasonCodeFields: { describe: `item and event fields that carry a failure's code, e.g. AB03, in order (default ${DEFAULT_REASON_CODE_FIELDS.join(',')})`, parse: list },
  reasonMessageFields: { describe: `item and event fields that carry a failure's text, in order (default ${DEFAULT_REASON_MESSAGE_FIELDS.join(',')})`, parse: list },
  billDetailsMethod: { describe: 'method of the bill details query: auto | POST | GET', parse: oneOf('auto', 'POST', 'GET') },
  billAmountForm: { describe: 'bill payment amount on the wire: number (123.45) | string ("123.45")', parse: oneOf('number', 'string') },
  instabilityWords: { describe: 'more words that mark a return as Pix instability (to be paid again), comma-separated', parse: list },
  requestTimeout: { describe: 'longest wait for a provider answer before the call counts as failed', parse: parseDuration, format: (v: number) => formatDuration(v) },
  maxItemAmount: { describe: 'largest amount of one item (R$)', parse: amount, format: (v: number) => formatBRL(v) },
  maxBatchTotal: { describe: 'largest total of one batch (R$)', parse: amount, format: (v: number) => formatBRL(v) },
  maxBatchItems: { describe: 'most items the provider takes in one batch; a larger sheet is sent as several batches (parts)', parse: positiveInt },
  staleAfter: { describe: 'no update for this long: refresh the item from the provider', parse: parseDuration, format: (v: number) => formatDuration(v) },
  alertAfter: { describe: 'still no update after this long: alert support', parse: parseDuration, format: (v: number) => formatDuration(v) },
  alertRepeat: { describe: 'repeat an unchanged alert after this long', parse: parseDuration, format: (v: number) => formatDuration(v) },
  receiptWait: { describe: 'how long a paid item without a Pix id waits for one (from an event) before its receipt is reported unavailable', parse: parseDuration, format: (v: number) => formatDuration(v) },
  maxReprocess: { describe: 'new attempts for a payment returned by Pix instability', parse: count },
  returnWatch: { describe: 'how long after a batch settles its item pages are still read, for returns whose event was lost (0: not at all)', parse: parseDuration, format: (v: number) => formatDuration(v) },
  returnWatchEvery: { describe: 'how often a settled batch is read during the return watch', parse: parseDuration, format: (v: number) => formatDuration(v) },
  leaseTime: { describe: "several hosts: how long a daemon's hold on a piece of work lasts unless renewed (by the database's clock); another daemon takes the work over after it", parse: parseDuration, format: (v: number) => formatDuration(v) },
  claimTime: { describe: "several hosts: how long a run's claim on sending a batch stands without renewal (by the database's clock) before another host takes it over", parse: parseDuration, format: (v: number) => formatDuration(v) },
  receiptsDir: { describe: 'folder for receipt PDFs', parse: text() },
  clientCert: { describe: "the company's client certificate (PEM file) for a provider that requires mutual TLS; with clientKey", parse: file },
  clientKey: { describe: "the key of clientCert (PEM file, mode 0600); an encrypted key's passphrase comes from PAYBATCH_CLIENT_PASSPHRASE(_FILE) or a prompt", parse: file },
  clientPfx: { describe: 'client certificate and key as one PKCS#12 file (.p12/.pfx, mode 0600) instead of clientCert/clientKey; passphrase as for clientKey', parse: file },
  caFile: { describe: "a CA (PEM file) trusted for the provider besides the default roots: a private CA, or your network's TLS inspection", parse: file },
  proxy: {
    describe: 'proxy of provider and alert calls: http://[user:password@]host:port, or none; unset: HTTPS_PROXY, HTTP_PROXY and NO_PROXY (loopback is never proxied)',
    secret: true,
    parse: text((s) => (s === 'none' || /^(https?:\/\/)?[^\s/]+(:\d+)?\/?$/.test(s) ? null : 'must be an http(s) proxy URL such as http://proxy.example.com:3128, or none')),
    format: (v: string) => maskedProxyUrl(v),
  },
  // Secret: a PostgreSQL URL may hold a password (PAYBATCH_LEDGER_FILE reads it from a file, like other secrets).
  ledger: { describe: 'the ledger: an SQLite file, or postgres://user:password@host:5432/db for one ledger shared by several hosts', secret: true, parse: text() },
  alertWebhookUrl: { describe: 'Slack/Teams-compatible incoming webhook for alerts', secret: true, parse: url },
  alertEmailTo: { describe: 'e-mail address for alerts (needs smtpUrl)', parse: text((s) => (s.includes('@') ? null : 'must be an e-mail address')) },
  alertEmailFrom: {
    describe: 'From: address of alert e-mail (unset: paybatch@<hostname>)',
    parse: text((s) => (/^[^\s@<>]+@[^\s@<>]+$/.test(s) || /^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(s) ? null : 'must be an e-mail address, optionally with a name: Pagamentos <pagamentos@empresa.com.br>')),
  },
  smtpUrl: { describe: 'SMTP server for alert e-mail, e.g. smtps://user:pass@host:465', secret: true, parse: text() },
  alertCommand: { describe: 'command run with the alert as JSON on its standard input', parse: text() },
  sandboxSpeed: { describe: 'embedded sandbox: simulated seconds per real second', parse: speed },
  sandboxFaults: { describe: 'embedded sandbox: fault rates, e.g. http5xx=0.05,lostResponse=0.02', parse: text() },
  sandboxSeed: { describe: 'embedded sandbox: random seed', parse: positiveInt },
  sandboxDialect: { describe: 'embedded sandbox: the API dialect it answers in: paybatch | spec | iso', parse: oneOf('paybatch', 'spec', 'iso') },
  approvalAbove: { describe: 'batches whose total is above this (R$) need signed approvals before they start; 0: every batch and bill; unset: none', parse: amountOrZero, format: (v: number) => formatBRL(v) },
  approvalItemAbove: { describe: 'batches holding a payment above this (R$), and bills above it, need signed approvals; 0: all of them', parse: amountOrZero, format: (v: number) => formatBRL(v) },
  approvalRowsAbove: { describe: 'batches of more rows than this need signed approvals', parse: count },
  approvalsRequired: { describe: 'how many distinct approvers a batch or bill that needs approval must have: 1 | 2', parse: (s: string) => (/^\s*[12]\s*$/.test(s) ? ok(Number(s) as 1 | 2) : fail('must be 1 or 2')) },
  locale: { describe: `language of human output, alerts, e-mails and receipts: ${LOCALES.join(' | ')} (unset: from LC_ALL/LANG, pt-BR when they name none)`, parse: oneOf(...LOCALES) },
};

export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

export const DEFAULT_SETTINGS: Settings = {
  webhookVerification: 'auto',
  tokenAuth: 'auto',
  billDetailsMethod: 'auto',
  billAmountForm: 'number',
  requestTimeout: 30,
  maxItemAmount: 5_000_000,
  maxBatchTotal: 100_000_000,
  maxBatchItems: 10_000,
  staleAfter: 30 * 60,
  alertAfter: 2 * 3600,
  alertRepeat: 24 * 3600,
  maxReprocess: 3,
  receiptWait: 60,
  returnWatch: 24 * 3600,
  returnWatchEvery: 15 * 60,
  leaseTime: 60,
  claimTime: 120,
  sandboxSpeed: 60,
  sandboxSeed: 1,
  sandboxDialect: 'paybatch',
  approvalsRequired: 1,
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
  const spec = SETTINGS[name];
  // A secret's own format masks what is secret in it (a proxy URL's password); others are masked whole.
  if (isSecret(name) && !spec.format) return '********';
  return spec.format ? spec.format(value as never) : String(value);
}

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(SETTINGS, name);
}
