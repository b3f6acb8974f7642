import { resolve } from 'node:path';
import type { SettingRule } from '../errors.js';
import { formatBRL, parseAmount } from '../domain/money.js';
import { fail, ok, type Result } from '../domain/result.js';
import { formatDuration, parseDuration } from '../domain/duration.js';
import { parseWebhookMethodSetting, type WebhookMethodSetting } from '../domain/webhook-proof.js';
import { LOCALES, type Locale } from '../words/locale.js';
import { sayValidation } from '../words/validation.js';
import { normalizeDocument } from '../domain/document.js';
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
  /** The company paying, on statements: its name and CPF/CNPJ (digits), and the account OFX statements are of. */
  companyName?: string;
  companyDocument?: string;
  companyBank?: string;
  companyBranch?: string;
  companyAccount?: string;
  /** The CNAB 240 layout remittances are read with, whatever bank their header names (src/sheet/cnab240/layouts.ts). */
  cnabLayout?: string;
  /** Folder the daemon writes a CNAB 240 return file into when a batch imported from a remittance settles. */
  cnabReturnDir?: string;
  /** Whether the provider takes a Pix by account data, and how it names the bank; unset: refused. */
  pixByAccount?: 'refuse' | 'bank-code';
}

export type SettingName = keyof Settings;

/** How a setting's text is read: the rule it must meet (named when it does not, with `values` for one_of) and the parser. */
interface SettingParser {
  readonly rule: SettingRule;
  readonly values?: readonly string[];
  /** Text (from a flag, a prompt or the environment) to the stored value. */
  parse(text: string): Result<Settings[SettingName]>;
}

interface SettingSpec extends SettingParser {
  readonly describe: string;
  readonly secret?: boolean;
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

/** A code of `min` to `max` digits, kept as text (leading zeros count). */
function digits(min: number, max: number) {
  return (s: string): Result<string> => {
    const v = s.trim();
    return new RegExp(`^\\d{${min},${max}}$`).test(v) ? ok(v) : fail(min === max ? `must be ${min} digits` : `must be ${min} to ${max} digits`);
  };
}

/** A file's path, made absolute against the folder it was given in (a profile is read from anywhere). */
const file: SettingParser = {
  rule: 'not_empty',
  parse: (s) => {
    const v = s.trim();
    return v ? ok(resolve(v)) : fail('must not be empty');
  },
};
const anyText: SettingParser = { rule: 'not_empty', parse: text() };
const url: SettingParser = { rule: 'url', parse: text((s) => (/^https?:\/\/[^\s]+$/.test(s) ? null : 'must be an http(s) URL')) };
const oneOf = (...values: string[]): SettingParser => ({
  rule: 'one_of',
  values,
  parse: (s) => (values.includes(s.trim()) ? ok(s.trim() as Settings[SettingName]) : fail(`must be one of ${values.join(', ')}`)),
});
/** An amount in reais; its refusal in English, as the other settings' (the rule's code is what the edge words). */
const parsedAmount = (s: string): Result<number> => {
  const parsed = parseAmount(s);
  return parsed.ok ? parsed : fail(sayValidation(parsed.error, 'en'));
};
const amount: SettingParser = { rule: 'amount', parse: parsedAmount };
const duration: SettingParser = { rule: 'duration', parse: parseDuration };
const positiveInt: SettingParser = {
  rule: 'whole_above_zero',
  parse: (s) => (/^\d+$/.test(s.trim()) && Number(s) > 0 ? ok(Number(s)) : fail('must be a whole number above zero')),
};
const count: SettingParser = { rule: 'whole', parse: (s) => (/^\d+$/.test(s.trim()) ? ok(Number(s)) : fail('must be a whole number')) };
const list: SettingParser = {
  rule: 'name_list',
  parse: (s) => {
    const items = parseList(s);
    return items.length > 0 ? ok(items.join(',')) : fail('must list at least one name, comma-separated');
  },
};
const statusWords: SettingParser = {
  rule: 'status_words',
  parse: (s) => {
    const parsed = parseStatusWords(s);
    return parsed.ok ? ok(parseList(s).join(',')) : parsed;
  },
};
/** An amount in reais where zero is meaningful (an approval threshold of 0: always). */
const amountOrZero: SettingParser = { rule: 'amount', parse: (s) => (/^\s*(R\$\s*)?0+([.,]0{1,2})?\s*$/i.test(s) ? ok(0) : parsedAmount(s)) };
const speed: SettingParser = {
  rule: 'number_above_zero',
  parse: (s) => (Number.isFinite(Number(s)) && Number(s) > 0 ? ok(Number(s)) : fail('must be a number above zero')),
};

export const SETTINGS: Record<SettingName, SettingSpec> = {
  baseUrl: { describe: "provider API base URL (unset: the embedded sandbox)", ...url },
  tokenUrl: { describe: 'OAuth 2.0 token URL (client credentials)', ...url },
  apiKey: { describe: 'Service-ApiKey', secret: true, ...anyText },
  clientId: { describe: 'OAuth 2.0 client id', ...anyText },
  clientSecret: { describe: 'OAuth 2.0 client secret', secret: true, ...anyText },
  webhookSecret: { describe: 'secret shared with the provider for webhook deliveries', secret: true, ...anyText },
  webhookVerification: {
    describe: 'how deliveries prove the secret: auto (any method below) | standard-webhooks | hmac | header | basic | bearer (shared-secret, the old name, means header)',
    rule: 'webhook_method',
    parse: parseWebhookMethodSetting,
  },
  webhookSecretHeader: {
    describe: 'a header carrying the secret (header) or a signature (hmac) besides the well-known ones; once either is pinned, the only one read',
    rule: 'header_name',
    parse: text((s) => (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(s) ? null : 'must be an HTTP header name')),
  },
  eventAmountUnit: { describe: 'unit of numeric amounts in Pix webhook events: cents | reais (unset: cents; text such as "110.07" is always reais)', ...oneOf('cents', 'reais') },
  pixAmountUnit: { describe: "unit of Pix item amounts on the wire: cents | reais (unset: no Pix payment is sent; read it in the provider's documentation)", ...oneOf('cents', 'reais') },
  billAmountUnit: { describe: "unit of bill amounts on the wire (details, payment, its answer): reais | cents (unset: no bill is paid; read it in the provider's documentation)", ...oneOf('reais', 'cents') },
  tokenAuth: { describe: 'how the token endpoint authenticates the client: auto | basic | body (form fields)', ...oneOf('auto', 'basic', 'body') },
  statusWords: { describe: 'item status words beyond the built-in table, e.g. EM_PROCESSAMENTO=processing,LIQUIDATED=paid', ...statusWords },
  pixIdFields: { describe: `item fields that carry the Pix id of receipts, in order (default ${DEFAULT_PIX_ID_FIELDS.join(',')})`, ...list },
  reasonCodeFields: { describe: `item and event fields that carry a failure's code, e.g. AB03, in order (default ${DEFAULT_REASON_CODE_FIELDS.join(',')})`, ...list },
  reasonMessageFields: { describe: `item and event fields that carry a failure's text, in order (default ${DEFAULT_REASON_MESSAGE_FIELDS.join(',')})`, ...list },
  billDetailsMethod: { describe: 'method of the bill details query: auto | POST | GET', ...oneOf('auto', 'POST', 'GET') },
  billAmountForm: { describe: 'bill payment amount on the wire: number (123.45) | string ("123.45")', ...oneOf('number', 'string') },
  instabilityWords: { describe: 'more words that mark a return as Pix instability (to be paid again), comma-separated', ...list },
  requestTimeout: { describe: 'longest wait for a provider answer before the call counts as failed', ...duration, format: (v: number) => formatDuration(v) },
  maxItemAmount: { describe: 'largest amount of one item (R$)', ...amount, format: (v: number) => formatBRL(v) },
  maxBatchTotal: { describe: 'largest total of one import or retry, all its batches together (R$)', ...amount, format: (v: number) => formatBRL(v) },
  maxBatchItems: { describe: 'most items the provider takes in one batch; a larger sheet is sent as several batches (parts)', ...positiveInt },
  staleAfter: { describe: 'no update for this long: refresh the item from the provider', ...duration, format: (v: number) => formatDuration(v) },
  alertAfter: { describe: 'still no update after this long: alert support', ...duration, format: (v: number) => formatDuration(v) },
  alertRepeat: { describe: 'repeat an unchanged alert after this long', ...duration, format: (v: number) => formatDuration(v) },
  receiptWait: { describe: 'how long a paid item without a Pix id waits for one (from an event) before its receipt is reported unavailable', ...duration, format: (v: number) => formatDuration(v) },
  maxReprocess: { describe: 'new attempts for a payment returned by Pix instability', ...count },
  returnWatch: { describe: 'how long after a batch settles its item pages are still read, for returns whose event was lost (0: not at all)', ...duration, format: (v: number) => formatDuration(v) },
  returnWatchEvery: { describe: 'how often a settled batch is read during the return watch', ...duration, format: (v: number) => formatDuration(v) },
  leaseTime: { describe: "several hosts: how long a daemon's hold on a piece of work lasts unless renewed (by the database's clock); another daemon takes the work over after it", ...duration, format: (v: number) => formatDuration(v) },
  claimTime: { describe: "several hosts: how long a run's claim on sending a batch stands without renewal (by the database's clock) before another host takes it over", ...duration, format: (v: number) => formatDuration(v) },
  receiptsDir: { describe: 'folder for receipt PDFs', ...anyText },
  clientCert: { describe: "the company's client certificate (PEM file) for a provider that requires mutual TLS; with clientKey", ...file },
  clientKey: { describe: "the key of clientCert (PEM file, mode 0600); an encrypted key's passphrase comes from PAYBATCH_CLIENT_PASSPHRASE(_FILE) or a prompt", ...file },
  clientPfx: { describe: 'client certificate and key as one PKCS#12 file (.p12/.pfx, mode 0600) instead of clientCert/clientKey; passphrase as for clientKey', ...file },
  caFile: { describe: "a CA (PEM file) trusted for the provider besides the default roots: a private CA, or your network's TLS inspection", ...file },
  proxy: {
    describe: 'proxy of provider and alert calls: http://[user:password@]host:port, or none; unset: HTTPS_PROXY, HTTP_PROXY and NO_PROXY (loopback is never proxied)',
    secret: true,
    rule: 'proxy_url',
    parse: text((s) => (s === 'none' || /^(https?:\/\/)?[^\s/]+(:\d+)?\/?$/.test(s) ? null : 'must be an http(s) proxy URL such as http://proxy.example.com:3128, or none')),
    format: (v: string) => maskedProxyUrl(v),
  },
  // Secret: a PostgreSQL URL may hold a password (PAYBATCH_LEDGER_FILE reads it from a file, like other secrets).
  ledger: { describe: 'the ledger: an SQLite file, or postgres://user:password@host:5432/db for one ledger shared by several hosts', secret: true, ...anyText },
  alertWebhookUrl: { describe: 'Slack/Teams-compatible incoming webhook for alerts', secret: true, ...url },
  alertEmailTo: { describe: 'e-mail address for alerts (needs smtpUrl)', rule: 'email', parse: text((s) => (s.includes('@') ? null : 'must be an e-mail address')) },
  alertEmailFrom: {
    describe: 'From: address of alert e-mail (unset: paybatch@<hostname>)',
    rule: 'email_with_name',
    parse: text((s) => (/^[^\s@<>]+@[^\s@<>]+$/.test(s) || /^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(s) ? null : 'must be an e-mail address, optionally with a name: Pagamentos <pagamentos@empresa.com.br>')),
  },
  smtpUrl: { describe: 'SMTP server for alert e-mail, e.g. smtps://user:pass@host:465', secret: true, ...anyText },
  alertCommand: { describe: 'command run with the alert as JSON on its standard input', ...anyText },
  sandboxSpeed: { describe: 'embedded sandbox: simulated seconds per real second', ...speed },
  sandboxFaults: { describe: 'embedded sandbox: fault rates, e.g. http5xx=0.05,lostResponse=0.02', ...anyText },
  sandboxSeed: { describe: 'embedded sandbox: random seed', ...positiveInt },
  sandboxDialect: { describe: 'embedded sandbox: the API dialect it answers in: paybatch | spec | iso', ...oneOf('paybatch', 'spec', 'iso') },
  approvalAbove: { describe: 'batches whose total is above this (R$) need signed approvals before they start; 0: every batch and bill; unset: none', ...amountOrZero, format: (v: number) => formatBRL(v) },
  approvalItemAbove: { describe: 'batches holding a payment above this (R$), and bills above it, need signed approvals; 0: all of them', ...amountOrZero, format: (v: number) => formatBRL(v) },
  approvalRowsAbove: { describe: 'batches of more rows than this need signed approvals', ...count },
  approvalsRequired: { describe: 'how many distinct approvers a batch or bill that needs approval must have: 1 | 2', rule: 'one_or_two', parse: (s: string) => (/^\s*[12]\s*$/.test(s) ? ok(Number(s) as 1 | 2) : fail('must be 1 or 2')) },
  companyName: { describe: 'the company paying, as statements name it on their payer line', ...anyText },
  companyDocument: { describe: "the company's CNPJ (or CPF), on statements' payer line", rule: 'document', parse: (s: string) => { const d = normalizeDocument(s); return d.ok ? ok(d.value.value) : fail('must be a valid CNPJ or CPF'); } },
  companyBank: { describe: "the bank code of the company's account (3 digits, e.g. 341), for OFX statements", rule: 'digits', parse: digits(3, 3) },
  companyBranch: { describe: "the branch of the company's account, for OFX statements", rule: 'digits', parse: digits(1, 6) },
  companyAccount: { describe: "the company's account number with its check digit (e.g. 12345-6), for OFX statements", ...anyText },
  // The ids of src/sheet/cnab240/layouts.ts's LAYOUTS (test/sheet/cnab240/layouts.test.ts keeps them equal).
  cnabLayout: { describe: 'CNAB 240 layout to read remittances with, whatever bank their header names (unset: by the bank)', ...oneOf('febraban-240', 'itau-sispag') },
  pixByAccount: { describe: "a remittance's payments to bank account data (no Pix key): refuse | bank-code (sent with no key, the bank's 3-digit code as the destination's institution; only if the provider's documentation says it takes that) (unset: refuse)", ...oneOf('refuse', 'bank-code') },
  cnabReturnDir: { describe: 'folder the daemon writes a CNAB 240 return file into when a batch imported from a remittance settles', ...anyText },
  locale: { describe: `language of human output, alerts, e-mails and receipts: ${LOCALES.join(' | ')} (unset: from LC_ALL/LANG, pt-BR when they name none)`, ...oneOf(...LOCALES) },
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

/** What a setting accepts, as the facts of a refusal: its rule, and for `one_of` its values comma-separated. */
export function settingRule(name: SettingName): { rule: SettingRule; values: string } {
  return { rule: SETTINGS[name].rule, values: SETTINGS[name].values?.join(', ') ?? '' };
}

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(SETTINGS, name);
}
