/**
 * Types of the provider API (SPEC.md "Resources" and "Endpoints"): `Wire*` are the JSON shapes as sent and received;
 * the others are what the client hands to paybatch, with every amount in centavos.
 */

import type { Destination } from '../domain/destination.js';
import type { ItemState } from '../domain/item-state.js';
import type { ProviderDialect } from './dialect.js';
import type { Reach } from '../network/connector.js';

export type { Destination };

/** A remote batch (endpoints 1, 7, 8). */
export interface Batch {
  id: string;
  name: string;
  /** `pending`, `processing`; other words are passed through unchanged. */
  status: string;
  quantityItems: number;
  /** Unix time in seconds of creation. */
  timestamp: number;
  type: string;
}

/** An item to add to a batch; the identifier is the provider's idempotency key. */
export interface NewItem {
  /** Amount in centavos (a positive safe integer). */
  amountCents: number;
  identifier: string;
  description: string;
  to: Destination;
}

/** A remote batch item (endpoints 3, 9, 10). */
export interface Item {
  itemId: string;
  /** The provider's word, as sent: `waiting` when just added; the others are the provider's choice. */
  status: string;
  /** What the word means under the profile's dialect; null for a word nobody knows (kept and reported). */
  state: ItemState | null;
  description: string;
  /** Amount in centavos, converted from the wire according to `pixAmountUnit`. */
  amountCents: number;
  identifier: string;
  to: Destination;
  /** Extras some providers send once the item is processed; the Pix id from the first of the dialect's `pixIdFields`. */
  pixId?: string;
  endToEndId?: string;
  reason?: string;
  updatedAt?: string;
}

/** Answer of start-process (endpoint 6). */
export interface StartResult {
  id: string;
  name: string;
  /** `processing` on success. */
  status: string;
  timestamp: number;
}

/**
 * Bill details (endpoint 12). Amounts in centavos; null when the provider leaves the field out or null. Dates as
 * `YYYY-MM-DD` whatever form the provider used (text that is no date is kept as sent).
 */
export interface BillDetails {
  assignor: string;
  /** Wire field `settledate`. */
  settleDate: string;
  discountCents: number | null;
  maxValueCents: number | null;
  minValueCents: number | null;
  beneficiary: string;
  canChangeAmount: boolean;
  amountCents: number | null;
  interestCents: number | null;
  /** A fine for paying late; null when the provider gives none (SPEC.md's details have no such field). */
  fineCents: number | null;
  originalAmountCents: number | null;
  typefulLine: string;
  beneficiaryDocument: string;
  dueDate: string;
}

/** Bill payment result (endpoint 13). Amounts in centavos; null when the provider leaves the field out or null. */
export interface BillPayment {
  /** `paid` observed; other words are passed through unchanged. */
  status: string;
  settleDate: string;
  timestamp: string;
  amountPaidCents: number | null;
  dueDate: string;
  assignor: string;
  payer: string;
  payerDocument: string;
  beneficiary: string;
  amountCents: number | null;
  details: { BlocoCompleto?: string; convenant?: string };
  typefulLine: string;
  transactionId: string;
  beneficiaryDocument: string;
  /** The JSON the provider answered, kept for the ledger and receipts. */
  raw: unknown;
}

/** A decoded receipt (endpoint 11). */
export interface Receipt {
  /** The PDF bytes (checked to start with `%PDF-`). */
  pdf: Buffer;
  name: string;
  description: string;
}

/** One page of a cursor listing; `cursor` null means the last page. */
export interface WirePage<T> {
  cursor: string | null;
  data: T[];
}

/** An item as the provider sends or receives it; the unit of `amount` depends on the profile's `pixAmountUnit`. */
export interface WireNewItem {
  amount: number;
  identifier: string;
  description: string;
  /** A Pix by account data has no `key` and no `type` (wireDestination). */
  to: Destination | Omit<Destination, 'key' | 'type'>;
}

/** The JSON error shape of the sandbox: `{"error":{"code","message","details":[{field,problem}]}}`. */
export interface WireErrorBody {
  error: { code: string; message: string; details?: { field: string; problem: string }[] };
}

/** OAuth 2.0 access token response (RFC 6749 §5.1). */
export interface WireTokenResponse {
  access_token: string;
  token_type?: string;
  expires_in?: number;
}

/**
 * What the client reports while it works, for logs and progress. Never holds a secret: paths, statuses, timings,
 * and error codes only.
 */
export type ProviderEvent =
  | { type: 'request'; id: number; method: string; path: string; attempt: number }
  | { type: 'response'; id: number; method: string; path: string; attempt: number; status: number; ms: number }
  | {
      type: 'failure';
      id: number;
      method: string;
      path: string;
      attempt: number;
      /** Short cause, e.g. `UND_ERR_HEADERS_TIMEOUT`, `ECONNREFUSED`. */
      cause: string;
      outcomeUnknown: boolean;
      ms: number;
    }
  | { type: 'retry'; method: string; path: string; attempt: number; delayMs: number; reason: string }
  | { type: 'token'; action: 'fetched' | 'invalidated'; expiresInS?: number }
  | { type: 'warning'; message: string };

export type { PixAmountUnit } from '../domain/provider-choices.js';
import type { PixAmountUnit } from '../domain/provider-choices.js';

export interface ProviderClientOptions {
  /** Base URL of the API; may carry a path prefix (`https://api.example.com/v1`). */
  baseUrl: string;
  /** OAuth 2.0 token endpoint (client credentials grant). */
  tokenUrl: string;
  apiKey: string;
  clientId: string;
  clientSecret: string;
  /** Optional OAuth scope sent with the token request. */
  scope?: string;
  /** Unit of Pix item amounts ON THE WIRE (wins over `dialect.pixAmountUnit`); unset, no Pix payment is sent. */
  pixAmountUnit?: PixAmountUnit;
  /** Unit of bill amounts ON THE WIRE (wins over `dialect.billAmountUnit`); unset, no bill is paid. */
  billAmountUnit?: PixAmountUnit;
  /** The provider's choices where its documentation is silent; every field defaults to the lenient `DEFAULT_DIALECT`. */
  dialect?: Partial<ProviderDialect>;
  /** Milliseconds; defaults connect 10 000, headers 30 000, body 30 000 (body: longest silence between chunks). */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  /**
   * Retries of retryable calls: `attempts` in total (default 5), backoff `baseMs` (default 250) doubling up to `capMs`
   * (default 10 000) with full jitter; a `Retry-After` longer than `maxRetryAfterMs` (default 60 000) is not waited
   * for: the call fails instead.
   */
  retry?: { attempts?: number; baseMs?: number; capMs?: number; maxRetryAfterMs?: number };
  /** Uniform in [0, 1); injectable for tests. */
  random?: () => number;
  /** Injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Epoch milliseconds; used for token expiry and HTTP-date Retry-After. */
  now?: () => number;
  onEvent?: (e: ProviderEvent) => void;
  userAgent?: string;
  /** Connections per origin; default 8. */
  connections?: number;
  /** Largest response body read, in bytes; default 32 MiB (receipts are PDFs). */
  maxResponseBytes?: number;
  /** Client certificate, CA file and proxy rules of every call (the token's included); default: none of them. */
  reach?: Reach;
}
