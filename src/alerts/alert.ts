import { localDateTime, zoneLabel } from '../words/local-time.js';
import { withProfile } from '../words/profile-commands.js';
import { formatBRL } from '../domain/money.js';
import { ALERT_WORDS, type AlertLocale } from './alert-words.js';

export { storedAlertText, type AlertFactsOf, type AlertKind, type AlertLocale } from './alert-words.js';

/** One payment an alert is about. */
export interface AlertItem {
  identifier: string;
  /** Local batch name. */
  batch: string;
  /** Sheet row, when the item came from a sheet. */
  line: number | null;
  /** Pix key, or the bill line for bill alerts. */
  key: string;
  /** Amount in centavos. */
  amountCents: number;
  /**
   * In English, the status with the provider's reason after it ("failed: AC06 - …", "returned: 23 - … → meaning"),
   * as alerts have always carried it; or what happened, for rows without a status.
   */
  status: string;
  /** The status word alone, when the row has one (absent on rows without a status, and in older stored alerts). */
  state?: string;
  /** With `state`: the provider's reason as it gave it (null: none). */
  reason?: string | null;
  /** With `state`, on a bill's return only: the meaning the ledger recorded (null: none). */
  returnMeaning?: string | null;
  /** ISO 8601 time of the item's last update. */
  lastUpdate: string;
  recipient: string | null;
}

/** A row of the ledger's reports as an alert stores and sends it: the English line beside the status and reason apart. */
export function alertItemOf(row: Omit<AlertItem, 'state'> & { readonly ref?: unknown; readonly alertedAt?: unknown }): AlertItem {
  const { ref: _ref, alertedAt: _alertedAt, ...item } = row;
  if (row.reason === undefined) return item;
  const { status, reason, returnMeaning } = row;
  const joined = returnMeaning !== undefined ? `${status}: ${reason ?? '?'} → ${returnMeaning ?? 'unknown reason'}` : reason ? `${status}: ${reason}` : status;
  return { ...item, status: joined, state: status };
}

/** What goes to support: one alert may list many items. */
export interface Alert {
  id: number;
  kind: 'stale-items' | 'final-return' | 'unconfirmed-returns' | 'quarantined-events' | 'record-disagrees' | 'record-differs' | 'failures' | 'receipts-unavailable' | 'bill-return' | 'bills-without-news' | 'scheduled-bill-refused' | 'stray-batches' | 'batch-refused' | (string & {});
  title: string;
  summary: string;
  items: AlertItem[];
  /** ISO 8601. */
  createdAt: string;
  profile: string;
  sandbox: boolean;
}

/** What one channel did with an alert. `error` says what went wrong and never holds a secret (URL, password). */
export interface ChannelResult {
  /** The channel's name (see alert-channels.ts): `webhook`, `email`, `command`. */
  channel: string;
  ok: boolean;
  error: string | null;
}

/** Item lines shown in a message; the rest are counted ("and N more"). Keeps Slack under 50 blocks and Teams cards small. */
export const MAX_ITEM_LINES = 50;

/**
 * The e-mail subject and message title in the locale, with the count of items ("1 bill payment", "2 bill payments"),
 * marked when it comes from the sandbox (no real money). A kind without words of its own keeps the title it was
 * raised with.
 */
export function alertTitle(a: Pick<Alert, 'kind' | 'title' | 'sandbox'> & { readonly items: readonly unknown[] }, locale: AlertLocale = 'en'): string {
  const title = ALERT_WORDS[locale].kinds[a.kind]?.title(a.items.length) ?? a.title;
  return a.sandbox ? `[SANDBOX] ${title}` : title;
}

/**
 * What happened, in the locale (the English summary carries the profile's durations). With the alert's profile, the
 * commands it suggests name it (see withProfile).
 */
export function alertSummary(a: Pick<Alert, 'kind' | 'summary'> & { readonly profile?: string }, locale: AlertLocale = 'en'): string {
  return withProfile(ALERT_WORDS[locale].kinds[a.kind]?.summary ?? a.summary, a.profile);
}

/** "What to do: …" for the alert's kind, in the locale, its commands for the alert's profile when given; null for a kind without one. */
export function alertNextStep(a: Pick<Alert, 'kind'> & { readonly profile?: string }, locale: AlertLocale = 'en'): string | null {
  const step = ALERT_WORDS[locale].kinds[a.kind]?.nextStep;
  return step === undefined ? null : withProfile(`${ALERT_WORDS[locale].nextStep}: ${step}`, a.profile);
}

/** A stored alert's title (for its count of items), summary and next step in the locale: a page listing alerts. */
export function storedAlertWords(a: { readonly kind: string; readonly title: string; readonly summary: string; readonly itemCount: number }, locale: AlertLocale) {
  return { title: ALERT_WORDS[locale].kinds[a.kind]?.title(a.itemCount) ?? a.title, summary: alertSummary(a, locale), nextStep: alertNextStep(a, locale) };
}

/**
 * One line of plain text for an item: where it came from, who, how much, and since when nothing happened (São Paulo
 * time, written as the locale writes it; the item summary names the zone).
 */
export function describeItem(item: AlertItem, locale: AlertLocale = 'en'): string {
  const w = ALERT_WORDS[locale];
  const where = item.line === null ? item.batch : `${item.batch} ${w.line(item.line)}`;
  const who = item.recipient ? `${item.recipient} (${item.key})` : item.key;
  return `${where}: ${who}, ${formatBRL(item.amountCents)}, ${w.status(item)} ${w.since} ${localDateTime(new Date(item.lastUpdate), locale)}, ${w.id} ${item.identifier}`;
}

/** "3 items, total R$ 1.234,56 (times in São Paulo time)" (sums integer centavos). */
export function itemsSummary(items: readonly AlertItem[], locale: AlertLocale = 'en'): string {
  const total = items.reduce((sum, i) => sum + i.amountCents, 0);
  return ALERT_WORDS[locale].items(items.length, formatBRL(total), zoneLabel(locale));
}

function footer(a: Alert, locale: AlertLocale): string {
  const profileFlag = a.profile === 'default' ? '' : ` --profile ${a.profile}`;
  const at = localDateTime(new Date(a.createdAt), locale);
  return ALERT_WORDS[locale].footer({ id: a.id, kind: a.kind, profile: a.profile, at, zone: zoneLabel(locale), command: `paybatch${profileFlag} alerts list` });
}

/** The item lines to show and how many were left out. */
function shownItems(a: Alert): { shown: AlertItem[]; more: number } {
  return { shown: a.items.slice(0, MAX_ITEM_LINES), more: Math.max(0, a.items.length - MAX_ITEM_LINES) };
}

/**
 * Plain text for e-mail bodies and logs, in the locale: title, summary, item count and total, one line per item
 * (amounts in R$) up to MAX_ITEM_LINES, then "and N more", what to do about it, then where the alert lives in paybatch.
 */
export function renderAlertText(a: Alert, locale: AlertLocale = 'en'): string {
  const { shown, more } = shownItems(a);
  const lines = [alertTitle(a, locale), '', alertSummary(a, locale)];
  if (a.items.length > 0) {
    lines.push('', `${itemsSummary(a.items, locale)}:`);
    for (const item of shown) lines.push(`- ${describeItem(item, locale)}`);
    if (more > 0) lines.push(ALERT_WORDS[locale].more(more));
  }
  const step = alertNextStep(a, locale);
  if (step) lines.push('', step);
  lines.push('', footer(a, locale));
  return `${lines.join('\n')}\n`;
}

// Slack's limits: header text 150 characters, section text 3,000, 50 blocks; `text` is cut at 40,000.
const SLACK_HEADER_MAX = 150;
const SLACK_SECTION_MAX = 3000;

/** Slack mrkdwn reserves &, < and >: escaped, a recipient named "<!channel>" cannot ping a whole channel. */
function slackEscape(s: string): string {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** Joins lines into chunks of at most `max` characters (a longer single line is clipped). */
function chunkLines(lines: readonly string[], max: number): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const raw of lines) {
    const line = clip(raw, max);
    if (current && current.length + 1 + line.length > max) {
      chunks.push(current);
      current = '';
    }
    current = current ? `${current}\n${line}` : line;
  }
  if (current) chunks.push(current);
  return chunks;
}

/** The JSON body posted to an alert webhook; see renderSlackPayload. */
export interface WebhookPayload {
  /** Slack: the message (mrkdwn), or the notification text when blocks render. Legacy Teams connectors: the message. */
  text: string;
  /** Slack Block Kit. */
  blocks: object[];
  /** Teams Workflows: an activity of type message... */
  type: 'message';
  /** ...whose attachments are Adaptive Cards, the shape the "Post to a channel when a webhook request is received" template reads. */
  attachments: { contentType: 'application/vnd.microsoft.card.adaptive'; contentUrl: null; content: object }[];
}

/**
 * The body for an incoming webhook, accepted by Slack and by Microsoft Teams alike:
 * - Slack incoming webhooks read `text` (mrkdwn) and `blocks` (header, summary, item sections, context); Slack ignores
 *   `type`, and reads `attachments` as legacy attachments, whose unknown fields it ignores;
 * - Teams Workflows (the replacement of Office 365 connectors, Power Automate's webhook trigger) need
 *   `{ type: "message", attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", content: <card> }] }`
 *   and fail the flow without `attachments` (a `{ text }` body alone does not work there);
 * - legacy Teams connectors (retired by Microsoft) show `text`.
 * Every text shows at most MAX_ITEM_LINES items, then "and N more".
 */
export function renderSlackPayload(a: Alert, locale: AlertLocale = 'en'): WebhookPayload {
  const title = alertTitle(a, locale);
  const summary = alertSummary(a, locale);
  const step = alertNextStep(a, locale);
  const { shown, more } = shownItems(a);
  const moreText = ALERT_WORDS[locale].more(more);
  const itemLines = shown.map((item) => `• ${slackEscape(describeItem(item, locale))}`);
  if (more > 0) itemLines.push(`_${moreText}_`);
  const counts = a.items.length > 0 ? `\n${itemsSummary(a.items, locale)}` : '';
  const foot = slackEscape(footer(a, locale));
  const stepLines = step ? [slackEscape(step)] : [];

  const text = [`*${slackEscape(title)}*`, `${slackEscape(summary)}${counts}`, ...itemLines, ...stepLines, `_${foot}_`].join('\n');

  const blocks: object[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(title, SLACK_HEADER_MAX), emoji: false } },
    { type: 'section', text: { type: 'mrkdwn', text: clip(`${slackEscape(summary)}${counts}`, SLACK_SECTION_MAX) } },
    ...chunkLines(itemLines, SLACK_SECTION_MAX).map((chunk) => ({ type: 'section', text: { type: 'mrkdwn', text: chunk } })),
    ...stepLines.map((line) => ({ type: 'section', text: { type: 'mrkdwn', text: clip(line, SLACK_SECTION_MAX) } })),
    { type: 'context', elements: [{ type: 'mrkdwn', text: clip(foot, SLACK_SECTION_MAX) }] },
  ];

  const card = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    msteams: { width: 'Full' },
    body: [
      { type: 'TextBlock', text: title, size: 'Medium', weight: 'Bolder', wrap: true, ...(a.sandbox ? { color: 'Warning' } : {}) },
      { type: 'TextBlock', text: `${summary}${counts}`, wrap: true },
      ...shown.map((item) => ({ type: 'TextBlock', text: describeItem(item, locale), wrap: true, spacing: 'None' })),
      ...(more > 0 ? [{ type: 'TextBlock', text: moreText, wrap: true, isSubtle: true }] : []),
      ...(step ? [{ type: 'TextBlock', text: step, wrap: true }] : []),
      { type: 'TextBlock', text: footer(a, locale), wrap: true, isSubtle: true, size: 'Small' },
    ],
  };

  return {
    text,
    blocks,
    type: 'message',
    attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }],
  };
}
