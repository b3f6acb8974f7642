import type { PixReason } from '../domain/reasons.js';
import type { Result } from '../domain/result.js';
import type { ApiError } from './api-error.js';
import type { BillEventStyle } from './bill-events.js';
import type { CursorCodec } from './cursor.js';
import type { FaultRates } from './faults.js';
import type { PixEventStyle } from './pix-events.js';
import type { BatchRow, ItemRow } from './pix-store.js';

/**
 * What a dialect of the sandbox decides (see dialect.ts for the dialects themselves). Kept apart from them so that a
 * dialect can live in its own file without a circle of imports.
 */
export const DIALECTS = ['paybatch', 'spec', 'iso'] as const;
export type DialectName = (typeof DIALECTS)[number];

/** An HTTP answer a dialect chose: status and JSON body (undefined: no body). */
export interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** What a webhook delivery needs to prove where it comes from. */
export interface DeliveryAuth {
  readonly secret: string;
  readonly eventId: string;
  /** Real Unix seconds of the attempt. */
  readonly timestampSeconds: number;
  /** Real ms since the epoch of the attempt (the same instant). */
  readonly timestampMs: number;
  /** A fresh random text, different for every attempt. */
  readonly nonce: string;
  readonly body: string;
}

/** Every choice of a dialect; routes, events and deliveries ask it instead of deciding. */
export interface Dialect {
  readonly name: DialectName;
  /** What the dialect brings where the options say nothing; an explicit faults option replaces `faults` whole. */
  readonly defaults: { readonly tokenTtlSeconds: number; readonly faults: Partial<FaultRates> };
  /** Status of a successful create (batch, subscription). */
  readonly createdStatus: 200 | 201;
  batchBody(batch: BatchRow): Record<string, unknown>;
  /** A stored batch status (pending, processing, completed) in the dialect's words. */
  batchStatus(stored: string): string;
  itemBody(item: ItemRow): Record<string, unknown>;
  /** Whether an item's `to` may name a bank account instead of a Pix key (a Pix by account data). */
  readonly accountPix: boolean;
  /** An item's `amount` as a request sends it (SPEC.md does not show the unit): centavos, or why it is refused. */
  itemAmount(value: unknown): Result<number>;
  /** Entries per page of the list endpoints, from the configured page size. */
  pageSize(configured: number): number;
  /** How list cursors are written (they travel in the path of the next-page endpoints). */
  readonly cursors: CursorCodec;
  /** The body of a deletion's 202; undefined for none. */
  deletedBody(body: Record<string, unknown>): unknown;
  /** The body of a new webhook subscription's answer; undefined for none. */
  subscribedBody(subscription: { id: string; url: string; createdAtMs: number }): unknown;
  /** Why a subscription secret is refused, or null. */
  secretProblem(secret: string): string | null;
  /** The answer of an API error (routes throw ApiError; the API's error handler asks this). */
  errorAnswer(error: ApiError): Answer;
  /** The answer of a route that does not exist (or a method a route does not take). */
  unknownRoute(method: string, path: string): Answer;
  /** The Retry-After header of a 429; `draw(what)` is a seeded number in [0, 1) of the request, `realNowMs` the real clock. */
  retryAfter(draw: (what: string) => number, realNowMs: number): string;
  /** Methods of the bill details query (SPEC rule 4 shows both). */
  readonly billDetailsMethods: readonly ('GET' | 'POST')[];
  /** A bill payment's `amount` as a request sends it (SPEC rule 5): centavos, or why it is refused. */
  billPaymentAmount(value: unknown): Result<number>;
  /** A bill date (YYYY-MM-DD) in bill details and payment results. */
  billDate(date: string): string;
  /** A bill amount in bill details and payment results. */
  billAmount(cents: number): number | string;
  /** The `timestamp` of a bill payment result. */
  billTimestamp(atMs: number): string;
  /** The `status` of a bill payment result: paid now, or scheduled for the next bank window. */
  billStatus(paidNow: boolean): string;
  readonly billEvents: BillEventStyle;
  /** The stored reason of a rejected or refunded Pix (items, events, receipts); the wire shows it as the dialect chooses. */
  pixReason(reason: PixReason): string;
  readonly pixEvents: PixEventStyle;
  /** Headers that prove a webhook delivery's origin to the receiver. */
  deliveryHeaders(auth: DeliveryAuth): Record<string, string>;
  readonly oauth: {
    /** Whether the client may authenticate by HTTP Basic (client_secret_basic); form fields always work. */
    readonly basic: boolean;
    /** Whether a JSON body is read like the form. */
    readonly json: boolean;
    /** The token answer from what was issued. */
    answer(issued: { access_token: string; token_type: string; expires_in: number }): Record<string, unknown>;
  };
}
