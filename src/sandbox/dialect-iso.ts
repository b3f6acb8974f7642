import { formatBRL, formatReais } from '../domain/money.js';
import { englishBillEvents } from './bill-events.js';
import { BASE64_CURSORS } from './cursor.js';
import type { Dialect } from './dialect-contract.js';
import { acceptedTransactionId } from './pix-events.js';
import type { ItemRow } from './pix-store.js';
import { reaisAmount } from './request-amounts.js';
import { signTimestampNonce } from './webhook-signature.js';
import { batchBody, specItemBody } from './wire.js';

/**
 * iso: the choices of providers that speak in upper-case states, ISO 20022 error codes and decimal reais (see
 * PROVIDERS.md): where SPEC.md leaves a point open, this dialect takes the choice of that family.
 */

/**
 * Item statuses: an outgoing Pix is PROCESSING until it is LIQUIDATED, CANCELED or REFUNDED. The family has no word
 * for an item not yet started, so a just-added item is PROCESSING too (where SPEC.md shows `waiting`).
 */
const ITEM_STATUS: Readonly<Record<string, string>> = {
  waiting: 'PROCESSING', processing: 'PROCESSING', paid: 'LIQUIDATED', failed: 'CANCELED', returned: 'REFUNDED',
};
const BATCH_STATUS: Readonly<Record<string, string>> = { pending: 'PENDING', processing: 'PROCESSING', completed: 'COMPLETED' };
/** Largest page, whatever the page size configured (SPEC.md takes no page-size parameter). */
const MAX_PAGE = 20;
/** Retry-After of a 429: 1 to 3 seconds, as a number or as the HTTP date that far ahead. */
const RETRY_SECONDS = 3;

/** An instant as ISO 8601 with São Paulo's offset (-03:00; no daylight saving since 2019): 2026-11-26T15:31:19.027-03:00. */
function saoPauloIso(ms: number): string {
  return `${new Date(ms - 3 * 3_600_000).toISOString().slice(0, -1)}-03:00`;
}

/**
 * A stored reason (`AB03 - text`, as pixReason stores it) as the wire shows it: the ISO 20022 code in `errorCode`,
 * the text in `errorMessage`; both null for none.
 */
function errorFields(stored: string | null): { errorCode: string | null; errorMessage: string | null } {
  if (stored === null) return { errorCode: null, errorMessage: null };
  const match = /^([A-Z]{2}\d{2}) - ([\s\S]*)$/.exec(stored);
  return { errorCode: match?.[1] ?? null, errorMessage: match?.[2] ?? stored };
}

/**
 * An item as SPEC.md shows it (amount in decimal reais), plus its own `id`, the Pix's ids (given when it starts),
 * why it failed or came back, and `updatedAt`.
 */
function itemBody(item: ItemRow): Record<string, unknown> {
  return {
    id: item.id,
    ...specItemBody(item, ITEM_STATUS[item.status] ?? item.status.toUpperCase()),
    amount: formatReais(item.amount),
    pixId: item.pix_id,
    transactionId: item.pix_id === null ? null : acceptedTransactionId(item.pix_id),
    endToEndId: item.end_to_end_id,
    ...errorFields(item.reason),
    updatedAt: saoPauloIso(item.updated_at),
  };
}

/** The HTTP date (RFC 9110) `seconds` whole seconds after the next full second of `realNowMs`. */
function httpDate(realNowMs: number, seconds: number): string {
  return new Date(Math.ceil(realNowMs / 1000) * 1000 + seconds * 1000).toUTCString();
}

export const iso: Dialect = {
  name: 'iso',
  // Short-lived tokens, and the rate limits and webhook losses such providers show, unless --faults says otherwise.
  defaults: { tokenTtlSeconds: 20, faults: { r429: 0.02, dupWebhook: 0.05, reorderWebhook: 0.05, lostWebhook: 0.02 } },
  createdStatus: 201,
  batchBody: (batch) => batchBody(batch, iso.batchStatus(batch.status)),
  batchStatus: (stored) => BATCH_STATUS[stored] ?? stored.toUpperCase(),
  itemBody,
  accountPix: true,
  // SPEC.md types the amount as a number without a unit: this dialect reads reais, so 1107 is R$ 1.107,00.
  itemAmount: reaisAmount,
  pageSize: (configured) => Math.min(configured, MAX_PAGE),
  cursors: BASE64_CURSORS,
  // SPEC.md shows only the 202.
  deletedBody: () => undefined,
  subscribedBody: (s) => ({ id: s.id, url: s.url, createdAt: saoPauloIso(s.createdAtMs) }),
  // The secret is the HMAC key as given (no whsec_ decoding).
  secretProblem: (secret) => (secret.length < 8 ? 'must have at least 8 characters' : null),
  errorAnswer: (error) => ({ status: error.status, body: error.body() }),
  unknownRoute: (method, path) => ({ status: 404, body: { error: { code: 'not_found', message: `no route ${method} ${path}`, details: [] } } }),
  retryAfter: (draw, realNowMs) => {
    const seconds = 1 + Math.floor(draw('retryAfterSeconds') * RETRY_SECONDS);
    return draw('retryAfterForm') < 0.5 ? String(seconds) : httpDate(realNowMs, seconds);
  },
  billDetailsMethods: ['GET', 'POST'],
  billPaymentAmount: reaisAmount,
  billDate: (date) => date,
  billAmount: formatReais,
  billTimestamp: saoPauloIso,
  billStatus: (paidNow) => (paidNow ? 'paid' : 'scheduled'),
  billEvents: englishBillEvents(formatReais, saoPauloIso, 'API'),
  pixReason: (r) => `${r.code} - ${r.description}`,
  pixEvents: {
    accepted: true,
    title: (kind) => ({ accepted: 'Pix accepted for processing', paid: 'Pix liquidated', rejected: 'Pix canceled', refund: 'Pix refunded' })[kind],
    subtitle: (kind, cents, payee) => `${formatBRL(cents)} ${kind === 'refund' ? 'back from' : 'to'} ${payee}`,
    status: (kind) => ({ accepted: 'PROCESSING', paid: 'LIQUIDATED', rejected: 'CANCELED', refund: 'REFUNDED' })[kind],
    amount: formatReais,
    // The code and the text travel apart; `reason` stays (SPEC.md shows it) but never carries them.
    reason: (stored) => ({ reason: null, ...errorFields(stored) }),
    extras: false,
  },
  // HMAC-SHA256 (hex) of "timestamp.nonce.body" with the timestamp in milliseconds and a nonce per attempt.
  deliveryHeaders: (a) => ({
    'x-webhook-timestamp': String(a.timestampMs),
    'x-webhook-nonce': a.nonce,
    'x-webhook-signature': signTimestampNonce(a.secret, a.timestampMs, a.nonce, a.body),
  }),
  oauth: { basic: true, json: true, answer: (issued) => ({ ...issued, expires_in: String(issued.expires_in) }) },
};
